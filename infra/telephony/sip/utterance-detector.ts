/**
 * End-of-utterance detection on the customer's audio, 20 ms frame by frame: an energy detector against an
 * adaptive noise floor (docs/telephony.md, "Listening"). Speech starts after `startMs` of voiced frames (a click or
 * a breath is shorter) and ends after `endSilenceMs` without voice (`endOfUtterance`). A frame is voiced when its
 * energy is above both an absolute floor (a silent line) and the tracked noise floor plus a margin (a noisy one).
 */
export interface UtteranceDetectorOptions {
  frameSamples?: number;
  sampleRate?: number;
  startMs?: number;
  endSilenceMs?: number;
  absoluteThresholdDb?: number;
  marginDb?: number;
}

/**
 * How long a pause ends an answer (SIP_END_OF_UTTERANCE_MS). Every millisecond of it is waited after the last word
 * before anything else can happen, so it is the largest fixed part of the time from the end of an answer to the
 * next prompt (docs/telephony.md, "Latency"); too short, and a customer pausing mid-sentence is cut. 500 ms keeps
 * the pauses at commas (about 0.2 s) and hesitations up to 0.5 s inside one answer (tests: Festival answers with
 * such pauses, over a G.711 line).
 */
export const DEFAULT_END_SILENCE_MS = 500;

/** Given the quiet since the last voiced frame, when the rule is `endSilenceMs`: has the answer ended? */
export function endOfUtterance(silenceMs: number, rule: { endSilenceMs: number }): boolean {
  return silenceMs >= rule.endSilenceMs;
}

export type UtteranceEvent = { kind: 'start'; frame: number } | { kind: 'end'; frame: number } | null;

export class UtteranceDetector {
  private readonly startFrames: number;
  private readonly frameMs: number;
  private readonly rule: { endSilenceMs: number };
  private readonly absoluteThresholdDb: number;
  private readonly marginDb: number;
  private floorDb = -70;
  private frame = 0;
  private voicedRun = 0;
  private silentRun = 0;
  private speaking = false;
  private lastVoicedFrame = 0;

  constructor(options: UtteranceDetectorOptions = {}) {
    const frameMs = ((options.frameSamples ?? 160) / (options.sampleRate ?? 8000)) * 1000;
    this.startFrames = Math.max(1, Math.round((options.startMs ?? 120) / frameMs));
    this.frameMs = frameMs;
    this.rule = { endSilenceMs: Math.max(frameMs, options.endSilenceMs ?? DEFAULT_END_SILENCE_MS) };
    this.absoluteThresholdDb = options.absoluteThresholdDb ?? -45;
    this.marginDb = options.marginDb ?? 12;
  }

  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Feeds the next frame; reports the frame index where speech started or ended (the last voiced frame + 1). */
  push(samples: Int16Array): UtteranceEvent {
    const index = this.frame++;
    const db = frameDecibels(samples);
    const voiced = db > Math.max(this.absoluteThresholdDb, this.floorDb + this.marginDb);
    // The floor follows quiet frames quickly down and slowly up, so speech does not raise it.
    if (!voiced) this.floorDb = db < this.floorDb ? this.floorDb * 0.7 + db * 0.3 : this.floorDb * 0.98 + db * 0.02;
    if (voiced) {
      this.voicedRun++;
      this.silentRun = 0;
      this.lastVoicedFrame = index;
      if (!this.speaking && this.voicedRun >= this.startFrames) {
        this.speaking = true;
        return { kind: 'start', frame: index - this.voicedRun + 1 };
      }
    } else {
      this.voicedRun = 0;
      this.silentRun++;
      if (this.speaking && endOfUtterance(this.silentRun * this.frameMs, this.rule)) {
        this.speaking = false;
        return { kind: 'end', frame: this.lastVoicedFrame + 1 };
      }
    }
    return null;
  }
}

export function frameDecibels(samples: Int16Array): number {
  let sum = 0;
  for (let index = 0; index < samples.length; index++) sum += samples[index]! * samples[index]!;
  const meanSquare = sum / Math.max(1, samples.length) / (32768 * 32768);
  return meanSquare > 0 ? Math.max(-100, 10 * Math.log10(meanSquare)) : -100;
}
