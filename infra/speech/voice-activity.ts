// Energy-based voice activity detection. Calls are mostly clean two-party speech with pauses, so frame energy
// against an adaptive floor finds speech well enough; a hangover keeps short dips inside words from splitting a
// phrase. Used to cut long audio at pauses and to find the voiced stretches that pitch diarisation labels.

export interface TimeRegion {
  /** Seconds. */
  start: number;
  end: number;
}

export interface VoiceActivityOptions {
  sampleRate: number;
  /** Frame length in seconds; 20 ms resolves pauses between words. */
  frameSeconds?: number;
  /** Below-threshold time that still counts as inside speech (pauses inside a phrase). */
  hangoverSeconds?: number;
  /** Regions shorter than this are clicks or breaths, not speech. */
  minRegionSeconds?: number;
}

export interface FrameEnergies {
  frameSeconds: number;
  /** Frame energy in dB relative to full scale, floored at -100. */
  decibels: Float32Array;
}

const SILENCE_FLOOR_DB = -100;

export function frameEnergies(samples: Int16Array, sampleRate: number, frameSeconds = 0.02): FrameEnergies {
  const frameLength = Math.max(1, Math.round(frameSeconds * sampleRate));
  const frameCount = Math.ceil(samples.length / frameLength);
  const decibels = new Float32Array(frameCount);
  for (let frame = 0; frame < frameCount; frame++) {
    const begin = frame * frameLength;
    const end = Math.min(samples.length, begin + frameLength);
    let sumOfSquares = 0;
    for (let index = begin; index < end; index++) sumOfSquares += samples[index]! * samples[index]!;
    const meanSquare = sumOfSquares / Math.max(1, end - begin) / (32768 * 32768);
    decibels[frame] = meanSquare > 0 ? Math.max(SILENCE_FLOOR_DB, 10 * Math.log10(meanSquare)) : SILENCE_FLOOR_DB;
  }
  return { frameSeconds: frameLength / sampleRate, decibels };
}

/**
 * The speech threshold sits between the background floor (a low percentile) and the loud speech level (a high
 * percentile), but never below an absolute level, so digital silence and line hiss both stay outside speech.
 * When there is no quiet background at all (speech without pauses), the floor is speech itself: then the
 * threshold drops to 10 dB under the loud level instead of rising above everything.
 */
export function speechThresholdDb(decibels: Float32Array): number {
  if (decibels.length === 0) return 0;
  const sorted = Float32Array.from(decibels).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)]!;
  const loud = sorted[Math.floor(sorted.length * 0.95)]!;
  return Math.max(-55, Math.min(floor + 10, loud - 10), loud - 30);
}

export function detectVoiceActivity(samples: Int16Array, options: VoiceActivityOptions): TimeRegion[] {
  const energies = frameEnergies(samples, options.sampleRate, options.frameSeconds ?? 0.02);
  return voicedRegions(energies, options.hangoverSeconds ?? 0.3, options.minRegionSeconds ?? 0.1);
}

export function voicedRegions(energies: FrameEnergies, hangoverSeconds: number, minRegionSeconds: number): TimeRegion[] {
  const threshold = speechThresholdDb(energies.decibels);
  const hangoverFrames = Math.round(hangoverSeconds / energies.frameSeconds);
  const regions: TimeRegion[] = [];
  let regionStart = -1;
  let lastVoicedFrame = -1;
  const close = () => {
    const start = regionStart * energies.frameSeconds;
    const end = (lastVoicedFrame + 1) * energies.frameSeconds;
    if (end - start >= minRegionSeconds) regions.push({ start, end });
    regionStart = -1;
  };
  for (let frame = 0; frame < energies.decibels.length; frame++) {
    if (energies.decibels[frame]! >= threshold) {
      if (regionStart < 0) regionStart = frame;
      lastVoicedFrame = frame;
    } else if (regionStart >= 0 && frame - lastVoicedFrame > hangoverFrames) {
      close();
    }
  }
  if (regionStart >= 0) close();
  return regions;
}
