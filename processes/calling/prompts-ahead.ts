import type { ScriptStep } from '../../domain/script-types.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';

/**
 * The next prompts synthesised while the customer is still listening and answering, so the prompt that follows an
 * answer is ready when the answer has been understood (synthesis costs 0.3-1 s a phrase with Festival; issue 17's
 * budget from the end of speech to the next prompt is 1 s). Bounded per call: at most `maxPrompts` texts (the
 * first routes' targets), synthesised one at a time, and `maxBytes` of audio kept; what does not fit is
 * synthesised when needed, as before.
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

interface Kept {
  /** Null until its synthesis starts. */
  audio: Promise<AudioClip> | null;
  bytes: number;
}

export class PromptsAhead {
  private kept = new Map<string, Kept>();
  private generation = 0;

  constructor(
    private readonly synthesize: (text: string) => Promise<AudioClip>,
    private readonly limits: PromptsAheadLimits = DEFAULT_PROMPTS_AHEAD_LIMITS,
  ) {}

  /** Number of prompts kept (settled, in flight or waiting their turn). */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes of settled audio kept. */
  get bytes(): number {
    let total = 0;
    for (const entry of this.kept.values()) total += entry.bytes;
    return total;
  }

  /**
   * Synthesises `texts` (the first `maxPrompts` distinct ones) one after the other, most likely first, and drops
   * what the previous step kept. One at a time, so a call never runs more than one synthesis ahead: on a busy
   * machine the likeliest prompt is ready first, and the others are not started at all if the answer comes first.
   */
  prepare(texts: readonly string[]): void {
    const generation = ++this.generation;
    const next = new Map<string, Kept>();
    for (const text of texts) {
      if (next.size >= this.limits.maxPrompts) break;
      if (next.has(text) || text.trim() === '') continue;
      next.set(text, this.kept.get(text) ?? { audio: null, bytes: 0 });
    }
    this.kept = next;
    void this.synthesiseInTurn(generation, [...next.keys()]);
  }

  /** The prepared audio of `text` (its synthesis started now if it was still waiting), or undefined when not prepared. */
  take(text: string): Promise<AudioClip> | undefined {
    const entry = this.kept.get(text);
    if (!entry) return undefined;
    const audio = this.started(text, entry);
    this.kept.delete(text);
    return audio;
  }

  private async synthesiseInTurn(generation: number, texts: string[]): Promise<void> {
    for (const text of texts) {
      const entry = this.kept.get(text);
      if (this.generation !== generation) return;
      if (!entry) continue;
      await this.started(text, entry).catch(() => undefined);
    }
  }

  private started(text: string, entry: Kept): Promise<AudioClip> {
    if (entry.audio) return entry.audio;
    const audio = this.synthesize(text);
    entry.audio = audio;
    audio.then(
      (clip) => {
        if (this.kept.get(text) !== entry) return;
        entry.bytes = clip.pcm.byteLength;
        // Over the bound: not kept; the prompt is synthesised again if it is the one needed.
        if (this.bytes > this.limits.maxBytes) this.kept.delete(text);
      },
      () => {
        if (this.kept.get(text) === entry) this.kept.delete(text);
      },
    );
    return audio;
  }
}
