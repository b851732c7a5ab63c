import type { ScriptStep } from '../../domain/script-types.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';

/**
 * The next prompts synthesised while the customer is still listening and answering, so the prompt that follows an
 * answer is ready when the answer has been understood (synthesis costs 0.3-1 s a phrase with Festival; issue 17's
 * budget from the end of speech to the next prompt is 1 s). Bounded per call: at most `maxPrompts` texts (the
 * first routes' targets) and `maxBytes` of audio kept; what does not fit is synthesised when needed, as before.
 * Only the current step's candidates are kept: preparing the next step's drops the previous ones.
 */
export interface PromptsAheadLimits {
  maxPrompts: number;
  maxBytes: number;
}

/** Three candidates (typically yes, no, no input) and about 30 s of 16 kHz speech. */
export const DEFAULT_PROMPTS_AHEAD_LIMITS: PromptsAheadLimits = { maxPrompts: 3, maxBytes: 1024 * 1024 };

/**
 * The steps a listening step can lead to, in the order the answer most often picks them: its routes' targets,
 * then the no-input target, then the step's own `next`. Distinct, without the step itself (its re-prompt is the
 * audio it has just played), at most `limit`.
 */
export function stepsAfter(step: ScriptStep, steps: ReadonlyMap<string, ScriptStep>, limit: number): ScriptStep[] {
  if (!step.listen) return [];
  const ids = [...step.listen.routes.map((route) => route.next), step.listen.no_input.next, step.end ? undefined : step.next];
  const found: ScriptStep[] = [];
  for (const id of ids) {
    if (found.length >= limit) break;
    if (id === undefined || id === step.id || found.some((candidate) => candidate.id === id)) continue;
    const next = steps.get(id);
    if (next) found.push(next);
  }
  return found;
}

export class PromptsAhead {
  private kept = new Map<string, { audio: Promise<AudioClip>; bytes: number }>();
  private generation = 0;

  constructor(
    private readonly synthesize: (text: string) => Promise<AudioClip>,
    private readonly limits: PromptsAheadLimits = DEFAULT_PROMPTS_AHEAD_LIMITS,
  ) {}

  /** Number of prompts kept (settled or in flight). */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes of settled audio kept. */
  get bytes(): number {
    let total = 0;
    for (const entry of this.kept.values()) total += entry.bytes;
    return total;
  }

  /** Starts synthesising `texts` (the first `maxPrompts` distinct ones), dropping what the previous step kept. */
  prepare(texts: readonly string[]): void {
    const generation = ++this.generation;
    const next = new Map<string, { audio: Promise<AudioClip>; bytes: number }>();
    for (const text of texts) {
      if (next.size >= this.limits.maxPrompts) break;
      if (next.has(text) || text.trim() === '') continue;
      const audio = this.kept.get(text)?.audio ?? this.synthesize(text);
      const entry = { audio, bytes: 0 };
      next.set(text, entry);
      audio.then(
        (clip) => {
          if (this.generation !== generation || this.kept.get(text) !== entry) return;
          entry.bytes = clip.pcm.byteLength;
          // Over the bound: not kept; the prompt is synthesised again if it is the one needed.
          if (this.bytes > this.limits.maxBytes) this.kept.delete(text);
        },
        () => {
          if (this.kept.get(text) === entry) this.kept.delete(text);
        },
      );
    }
    this.kept = next;
  }

  /** The prepared audio of `text`, or undefined when it was not prepared (or not kept). */
  take(text: string): Promise<AudioClip> | undefined {
    const entry = this.kept.get(text);
    if (!entry) return undefined;
    this.kept.delete(text);
    return entry.audio;
  }
}
