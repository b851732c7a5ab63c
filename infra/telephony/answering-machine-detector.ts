import { frameDecibels } from './sip/utterance-detector.ts';

/**
 * Answering-machine detection (AMD) on the first seconds after the answer, 20 ms frames of 8 kHz audio, before we
 * say anything (docs/telephony.md, "Answering-machine detection"). Two cues, as carriers' and Asterisk's AMD use:
 *
 * - **Cadence.** A person answers with a short word or two ("hello?", "haan, boliye") and waits; a machine talks
 *   on ("Hi, you've reached Priya, I can't take your call right now ..."). Speech that has gone on for
 *   `maxGreetingMs` without a pause of `humanPauseMs` is a machine; speech of at most `maxGreetingMs` followed by
 *   that pause is a person.
 * - **Beep.** A pure tone (Goertzel bank 400-2100 Hz every 50 Hz: one bin holds most of the frame's energy) lasting
 *   `beepMs` is a voicemail beep: a machine, whatever the cadence said.
 *
 * Nothing heard within the budget is `unknown` (silence: many people wait for the caller); the budget running out
 * mid-speech is `machine` (a person does not speak `budget` seconds straight to an unknown caller).
 */
export type AnsweredBy = 'human' | 'machine' | 'unknown';

export interface AmdDecision {
  answeredBy: AnsweredBy;
  /** Why, for logs and the accuracy table. */
  cue: 'short_greeting' | 'long_greeting' | 'beep' | 'silence' | 'budget';
  /** Seconds of audio analysed when it decided. */
  atSeconds: number;
}

export interface AmdOptions {
  budgetMs?: number;
  maxGreetingMs?: number;
  humanPauseMs?: number;
  beepMs?: number;
}

const SAMPLE_RATE = 8000;
const FRAME = 160;
const FRAME_MS = 20;
const BEEP_FREQUENCIES = Array.from({ length: 35 }, (_, index) => 400 + index * 50);
/** Share of a frame's energy in one Goertzel bin for the frame to count as tone. */
const TONE_SHARE = 0.6;
/** Voiced: above this level and the tracked noise floor plus a margin (as the utterance detector). */
const ABSOLUTE_DB = -45;
const MARGIN_DB = 12;

export class AnsweringMachineDetector {
  private readonly budgetFrames: number;
  private readonly maxGreetingFrames: number;
  private readonly humanPauseFrames: number;
  private readonly beepFrames: number;
  private frames = 0;
  private floorDb = -70;
  private speechStart: number | null = null;
  private lastVoiced = -1;
  private toneRun = 0;
  private toneBin = -1;
  private decision: AmdDecision | null = null;

  constructor(options: AmdOptions = {}) {
    this.budgetFrames = Math.round((options.budgetMs ?? 4000) / FRAME_MS);
    this.maxGreetingFrames = Math.round((options.maxGreetingMs ?? 2400) / FRAME_MS);
    this.humanPauseFrames = Math.round((options.humanPauseMs ?? 800) / FRAME_MS);
    this.beepFrames = Math.round((options.beepMs ?? 120) / FRAME_MS);
  }

  get decided(): AmdDecision | null {
    return this.decision;
  }

  /** Feeds the next 20 ms (160 samples); returns the decision once there is one. */
  push(frame: Int16Array): AmdDecision | null {
    if (this.decision) return this.decision;
    const index = this.frames++;
    const db = frameDecibels(frame);
    const voiced = db > Math.max(ABSOLUTE_DB, this.floorDb + MARGIN_DB);
    if (!voiced) this.floorDb = db < this.floorDb ? this.floorDb * 0.7 + db * 0.3 : this.floorDb * 0.98 + db * 0.02;

    const bin = voiced ? toneBin(frame) : -1;
    if (bin >= 0 && (this.toneRun === 0 || Math.abs(bin - this.toneBin) <= 1)) {
      this.toneRun++;
      this.toneBin = bin;
      if (this.toneRun >= this.beepFrames) return this.decide('machine', 'beep');
    } else {
      this.toneRun = bin >= 0 ? 1 : 0;
      this.toneBin = bin;
    }

    if (voiced) {
      this.speechStart ??= index;
      this.lastVoiced = index;
      if (index - this.speechStart + 1 >= this.maxGreetingFrames) return this.decide('machine', 'long_greeting');
    } else if (this.speechStart !== null && index - this.lastVoiced >= this.humanPauseFrames) {
      const spoken = this.lastVoiced - this.speechStart + 1;
      // At least a syllable (a click is not an answer).
      if (spoken >= 5) return this.decide('human', 'short_greeting');
      this.speechStart = null;
    }
    if (this.frames >= this.budgetFrames) {
      return this.decide(this.speechStart === null ? 'unknown' : 'machine', this.speechStart === null ? 'silence' : 'budget');
    }
    return null;
  }

  private decide(answeredBy: AnsweredBy, cue: AmdDecision['cue']): AmdDecision {
    this.decision = { answeredBy, cue, atSeconds: (this.frames * FRAME_MS) / 1000 };
    return this.decision;
  }
}

/** Classifies a whole clip (8 kHz): for the accuracy measurement and for tests. */
export function classifyGreeting(pcm: Int16Array, options: AmdOptions = {}): AmdDecision {
  const detector = new AnsweringMachineDetector(options);
  const frame = new Int16Array(FRAME);
  for (let offset = 0; ; offset += FRAME) {
    frame.fill(0);
    if (offset < pcm.length) frame.set(pcm.subarray(offset, offset + FRAME));
    const decision = detector.push(frame);
    if (decision) return decision;
  }
}

/** The Goertzel bin holding at least TONE_SHARE of the frame's energy, or -1. */
function toneBin(frame: Int16Array): number {
  let energy = 0;
  for (let index = 0; index < frame.length; index++) energy += frame[index]! * frame[index]!;
  if (energy === 0) return -1;
  let best = -1;
  let bestShare = TONE_SHARE;
  for (let bin = 0; bin < BEEP_FREQUENCIES.length; bin++) {
    const coefficient = 2 * Math.cos((2 * Math.PI * BEEP_FREQUENCIES[bin]!) / SAMPLE_RATE);
    let previous = 0;
    let beforePrevious = 0;
    for (let index = 0; index < frame.length; index++) {
      const current = frame[index]! + coefficient * previous - beforePrevious;
      beforePrevious = previous;
      previous = current;
    }
    const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
    // A pure tone of amplitude A on the bin: power ≈ (N·A/2)², energy ≈ N·A²/2, so the share is about 1.
    const share = power / ((frame.length * energy) / 2);
    if (share > bestShare) {
      bestShare = share;
      best = bin;
    }
  }
  return best;
}
