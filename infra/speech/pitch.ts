// Fundamental frequency (F0) by normalised autocorrelation. Mono diarisation tells speakers apart by their
// typical pitch, so only a robust median per stretch of speech is needed, not a precise contour. Work happens
// at 8 kHz (pitch lies far below 4 kHz) to keep a 4-hour call affordable.

export const MIN_PITCH_HZ = 60;
export const MAX_PITCH_HZ = 400;

const ANALYSIS_RATE = 8_000;
const WINDOW_SAMPLES = 256; // 32 ms at 8 kHz: two periods of a 60 Hz voice.
const HOP_SAMPLES = 160; // 20 ms: a median over a stretch needs no finer steps
const MIN_LAG = Math.floor(ANALYSIS_RATE / MAX_PITCH_HZ);
const MAX_LAG = Math.ceil(ANALYSIS_RATE / MIN_PITCH_HZ);
/** Correlation a frame needs to count as voiced; unvoiced consonants and noise stay well below it. */
const VOICING_THRESHOLD = 0.6;

export interface RegionPitch {
  /** Median F0 of the voiced frames in Hz, or null when too few frames were voiced to trust it. */
  medianHz: number | null;
  voicedFrames: number;
}

/** Median pitch of the samples between `startSeconds` and `endSeconds` of a 16 kHz (or other rate) signal. */
export function regionPitch(samples: Int16Array, sampleRate: number, startSeconds: number, endSeconds: number): RegionPitch {
  const begin = Math.max(0, Math.floor(startSeconds * sampleRate));
  const end = Math.min(samples.length, Math.ceil(endSeconds * sampleRate));
  const signal = downsample(samples, sampleRate, begin, end);
  const pitches: number[] = [];
  for (let frameStart = 0; frameStart + WINDOW_SAMPLES + MAX_LAG <= signal.length; frameStart += HOP_SAMPLES) {
    const hz = framePitch(signal, frameStart);
    if (hz !== null) pitches.push(hz);
  }
  if (pitches.length < 5) return { medianHz: null, voicedFrames: pitches.length };
  pitches.sort((a, b) => a - b);
  return { medianHz: pitches[Math.floor(pitches.length / 2)]!, voicedFrames: pitches.length };
}

/**
 * Averages the input down to 8 kHz. A box filter over each output sample's span is a crude low-pass, good
 * enough because only the periodicity below 400 Hz matters.
 */
function downsample(samples: Int16Array, sampleRate: number, begin: number, end: number): Float32Array {
  const ratio = sampleRate / ANALYSIS_RATE;
  const length = Math.max(0, Math.floor((end - begin) / ratio));
  const output = new Float32Array(length);
  for (let index = 0; index < length; index++) {
    const from = begin + Math.floor(index * ratio);
    const to = Math.max(from + 1, begin + Math.floor((index + 1) * ratio));
    let sum = 0;
    for (let source = from; source < to; source++) sum += samples[source]!;
    output[index] = sum / (to - from);
  }
  return output;
}

function framePitch(signal: Float32Array, frameStart: number): number | null {
  let energy = 0;
  for (let index = 0; index < WINDOW_SAMPLES; index++) energy += signal[frameStart + index]! ** 2;
  if (energy / WINDOW_SAMPLES < 100) return null; // near-silence: no periodicity worth measuring
  const correlations = new Float32Array(MAX_LAG + 1);
  let best = 0;
  for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
    let cross = 0;
    let laggedEnergy = 0;
    for (let index = 0; index < WINDOW_SAMPLES; index++) {
      const lagged = signal[frameStart + index + lag]!;
      cross += signal[frameStart + index]! * lagged;
      laggedEnergy += lagged * lagged;
    }
    const correlation = cross / Math.sqrt(energy * laggedEnergy + 1e-9);
    correlations[lag] = correlation;
    if (correlation > best) best = correlation;
  }
  if (best < VOICING_THRESHOLD) return null;
  // A voice correlates with itself at two and three periods almost as well as at one; the shortest lag that is
  // a local peak close to the best one is the period, which avoids halving the pitch.
  for (let lag = MIN_LAG + 1; lag < MAX_LAG; lag++) {
    const correlation = correlations[lag]!;
    if (correlation >= 0.9 * best && correlation >= correlations[lag - 1]! && correlation >= correlations[lag + 1]!) {
      return ANALYSIS_RATE / refinePeak(correlations, lag);
    }
  }
  return null;
}

/** Parabolic interpolation around an integer peak: a lag of 20 vs 21 samples is a 5% pitch step otherwise. */
function refinePeak(values: Float32Array, peak: number): number {
  const left = values[peak - 1]!;
  const centre = values[peak]!;
  const right = values[peak + 1]!;
  const curvature = left - 2 * centre + right;
  if (curvature >= 0) return peak;
  return peak + (0.5 * (left - right)) / curvature;
}
