import type { AudioClip, CallSession, CustomerInput, ListenOptions, PlaceCallRequest, PlaceCallResult, Prompt, Span, Telephony } from './port.ts';
import { calleeBehaviour, hash, INTENT_OF_BEHAVIOUR, ringSecondsBeforeAnswer, type CalleeBehaviour, type CalleeIntent } from './sandbox-callees.ts';
import { clipSeconds, estimateSpeechSeconds } from './speech-timing.ts';

/**
 * The sandbox carrier (`TELEPHONY=sandbox`): calls are placed in-process to simulated callees that behave by
 * the number's last two digits (sandbox-callees.ts). Nothing waits in real time: each call runs on a virtual
 * timeline, so a thousand calls finish in a fraction of a second, yet every offset is what the audio would take.
 *
 * The callee speaks in the call's language, choosing deterministically among the analysis module's sample
 * replies for its intent. The sandbox hands the engine the callee's words as text (with audio only when the
 * call is recorded): here the carrier tells the engine what the customer said, standing in for recognition,
 * which a real carrier's audio goes through.
 */

/** Phrases a customer might say, per language (BCP-47 code or its language subtag) and intent. */
export type SampleReplies = Readonly<Record<string, Partial<Record<CalleeIntent, readonly string[]>>>>;

export type CustomerVoice = (text: string, language: string) => Promise<AudioClip>;

export interface SandboxOptions {
  sampleReplies: SampleReplies;
  /** Synthesises the callee's voice; needed only for recorded calls. */
  customerVoice?: CustomerVoice;
  /** How long an unanswered call rings before the carrier gives up. */
  noAnswerTimeoutSeconds?: number;
  /** SANDBOX_SPEED: how many times faster than real time calls end on the clock (default 1: real time). */
  speed?: number;
}

/** Timings of the simulated line, in seconds (documented in docs/calling.md). */
export const SANDBOX_TIMING = {
  busySignalSeconds: 1,
  invalidNumberSeconds: 1,
  noAnswerTimeoutSeconds: 30,
  /** From answer to the agent's first word. */
  firstPromptDelaySeconds: 0.3,
  /** From the customer's last word to the agent's next prompt. */
  agentResponseDelaySeconds: 0.4,
  /** From the end of a prompt to the customer's first word. */
  customerResponseDelaySeconds: 0.6,
  /** From the last word to the line closing. */
  hangUpDelaySeconds: 0.5,
} as const;

export class SandboxTelephony implements Telephony {
  readonly name = 'sandbox';
  readonly needsPromptAudio = false;
  readonly timeScale: number;
  private readonly noAnswerTimeoutSeconds: number;

  constructor(private readonly options: SandboxOptions) {
    this.noAnswerTimeoutSeconds = options.noAnswerTimeoutSeconds ?? SANDBOX_TIMING.noAnswerTimeoutSeconds;
    this.timeScale = 1 / (options.speed ?? 1);
  }

  async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
    const behaviour = calleeBehaviour(request.to, request.attempt);
    switch (behaviour) {
      case 'never_answers':
        return { outcome: 'no_answer', ringSeconds: this.noAnswerTimeoutSeconds };
      case 'busy':
        return { outcome: 'busy', ringSeconds: SANDBOX_TIMING.busySignalSeconds };
      case 'invalid_number':
        return { outcome: 'invalid_number', ringSeconds: SANDBOX_TIMING.invalidNumberSeconds, detail: 'the number does not exist' };
      default: {
        if (request.wantCustomerAudio && !this.options.customerVoice) throw new Error('the sandbox needs a customerVoice to record calls');
        const session = new SandboxSession(request, behaviour, this.options);
        return { outcome: 'answered', ringSeconds: ringSecondsBeforeAnswer(request.to), session };
      }
    }
  }
}

class SandboxSession implements CallSession {
  /** Where the line is on the call's timeline (seconds since answer). */
  private cursor = 0;
  private spoken = false;
  private replies = 0;

  constructor(
    private readonly request: PlaceCallRequest,
    private readonly behaviour: CalleeBehaviour,
    private readonly options: SandboxOptions,
  ) {}

  async play(prompt: Prompt): Promise<Span> {
    const delay = this.spoken ? SANDBOX_TIMING.agentResponseDelaySeconds : SANDBOX_TIMING.firstPromptDelaySeconds;
    this.spoken = true;
    const seconds = prompt.audio ? clipSeconds(prompt.audio) : estimateSpeechSeconds(prompt.text, prompt.language);
    return this.advance(delay, seconds);
  }

  async listen(options: ListenOptions): Promise<CustomerInput> {
    const intent = INTENT_OF_BEHAVIOUR[this.behaviour];
    if (intent === undefined) return { kind: 'silence', ...this.advance(0, options.timeoutSeconds) };
    const text = this.reply(intent);
    if (!this.request.wantCustomerAudio) {
      return { kind: 'speech', text, ...this.advance(SANDBOX_TIMING.customerResponseDelaySeconds, estimateSpeechSeconds(text, this.request.language)) };
    }
    const audio = await this.options.customerVoice!(text, this.request.language);
    return { kind: 'speech', text, audio, ...this.advance(SANDBOX_TIMING.customerResponseDelaySeconds, clipSeconds(audio)) };
  }

  async hangUp(): Promise<{ endSeconds: number }> {
    return { endSeconds: this.advance(SANDBOX_TIMING.hangUpDelaySeconds, 0).endSeconds };
  }

  private advance(delaySeconds: number, durationSeconds: number): Span {
    const startSeconds = round(this.cursor + delaySeconds);
    const endSeconds = round(startSeconds + durationSeconds);
    this.cursor = endSeconds;
    return { startSeconds, endSeconds };
  }

  /** The n-th reply of this callee: one of the sample phrases, fixed by the number and n. */
  private reply(intent: CalleeIntent): string {
    const phrases = repliesFor(this.options.sampleReplies, this.request.language, intent);
    const turn = this.replies++;
    return phrases[hash(this.request.to, 10 + turn) % phrases.length]!;
  }
}

function repliesFor(replies: SampleReplies, language: string, intent: CalleeIntent): readonly string[] {
  const phrases = replies[language]?.[intent] ?? replies[language.slice(0, 2)]?.[intent] ?? replies.en?.[intent];
  if (!phrases || phrases.length === 0) throw new Error(`no sample replies for ${intent} in ${language}`);
  return phrases;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
