/**
 * The telephony port: what the conversation engine needs of a carrier, and nothing carrier-specific. Adapters:
 * `sandbox.ts` (in-process simulated callees, the default `TELEPHONY=sandbox`) and `sip/sip-telephony.ts` (a SIP
 * trunk, `TELEPHONY=sip`).
 *
 * Time on a call is measured in seconds from the moment it was answered (the recording's zero; or from the start
 * of early media when the line had some, see `CallSession.mediaLeadSeconds`), and every
 * session method reports when its action started and ended on that timeline. A real carrier reports wall time
 * since answer; the sandbox runs a virtual timeline, so calls finish at once but keep consistent timings.
 */

import type { AmdDecision } from './answering-machine-detector.ts';

/** Mono 16-bit PCM. */
export interface AudioClip {
  pcm: Int16Array;
  sampleRate: number;
}

export type DialOutcome = 'answered' | 'busy' | 'no_answer' | 'invalid_number' | 'carrier_error';

export interface PlaceCallRequest {
  callId: string;
  /** E.164. */
  to: string;
  /** BCP-47, the call's language (the sandbox's callees answer in it). */
  language: string;
  /** 1-based attempt of this contact (the sandbox's `...08` numbers answer only from the second attempt). */
  attempt: number;
  /**
   * Whether the caller needs the customer's audio (the call is recorded). A real line always carries audio; the
   * sandbox synthesises its callee's voice only when asked, which keeps unrecorded sandbox calls cheap.
   */
  wantCustomerAudio: boolean;
  /** E.164 caller id for this call; the carrier's default (SIP_CALLER_ID) when absent. */
  callerId?: string;
}

export type PlaceCallResult =
  | { outcome: 'answered'; ringSeconds: number; session: CallSession }
  | { outcome: Exclude<DialOutcome, 'answered'>; ringSeconds: number; detail?: string };

export interface Prompt {
  text: string;
  language: string;
  /** The synthesised prompt. Required by carriers with `needsPromptAudio`; the sandbox times text alone. */
  audio?: AudioClip;
}

export interface Span {
  startSeconds: number;
  endSeconds: number;
}

/** What came back from the customer while listening. */
export type CustomerInput =
  /** Speech; `text` when the carrier already knows it (the sandbox does), else the engine recognises `audio`. */
  | ({ kind: 'speech'; text?: string; audio?: AudioClip } & Span)
  | ({ kind: 'dtmf'; digits: string } & Span)
  /** Nothing within the timeout. */
  | ({ kind: 'silence' } & Span)
  /** The customer hung up. */
  | ({ kind: 'hangup' } & Span);

export interface ListenOptions {
  timeoutSeconds: number;
  language: string;
  /**
   * The step's `dtmf` route keys: a carrier that hears keys one by one collects an entry until it is complete
   * (dtmf-entry.ts) and returns it as one `dtmf` input. Absent: every key is an answer by itself.
   */
  dtmfRoutes?: readonly string[];
  /**
   * Called with the answer's audio while it is spoken, piece by piece and in order, from just before its speech
   * starts (the same pre-roll as the returned clip) until its end is decided: a live recogniser decodes as the
   * customer talks. Never called for speech that is not this listen's answer. A carrier without live audio
   * ignores it; the returned `audio` is the whole answer either way.
   */
  hear?: (chunk: AudioClip) => void;
}

/** An answered call. Methods run one at a time; the engine awaits each before the next. */
export interface CallSession {
  play(prompt: Prompt): Promise<Span>;
  listen(options: ListenOptions): Promise<CustomerInput>;
  /** Ends the call from our side; resolves with the call's end on the timeline. */
  hangUp(): Promise<{ endSeconds: number }>;
  /**
   * The customer's whole channel from answer to hang-up, as the line carried it (a real carrier has it; the
   * sandbox does not). When present the recording's customer side is this, not the clips `listen` returned.
   */
  customerAudio?(): AudioClip;
  /**
   * Seconds of early media (a 183 Session Progress with SDP: ringback, a carrier announcement) before the answer.
   * When the line carried early media, the call's timeline (spans, turns, the recording) starts at its first
   * moment and the answer is at this offset; absent or 0: the timeline starts at the answer.
   */
  readonly mediaLeadSeconds?: number;
  /**
   * Answering-machine detection on the audio since the answer (a real line with detection on): who answered,
   * decided within the detector's budget (4 s) or at the hang-up. Called before the first prompt.
   */
  detectAnsweringMachine?(): Promise<AmdDecision>;
  /** Waits until the far end has been quiet for `quietSeconds` (after a greeting or its beep), at most `maxSeconds`. */
  waitForQuiet?(quietSeconds: number, maxSeconds: number): Promise<void>;
  /**
   * A warm transfer (a carrier that can bridge: SIP): dials the agent as a second leg, plays them `whisper` while
   * the customer hears silence, then relays each side's audio to the other until either hangs up. Resolves with
   * the agent's leg down; the caller then hangs up the customer's as after any call (at once when the agent hung
   * up first). An agent who does not answer in time is `not_answered`. Absent: the carrier cannot transfer (the
   * sandbox).
   */
  transfer?(request: TransferRequest): Promise<TransferResult>;
}

/** How to reach a human agent: their SIP URI (dialled directly), else their phone (through the trunk). */
export interface TransferTarget {
  sipUri: string | null;
  phone: string | null;
}

export interface TransferRequest {
  target: TransferTarget;
  /** What the agent hears before the bridge (the escalation summary, synthesised). */
  whisper: AudioClip;
  /** E.164 caller id shown to the agent; the carrier's default when absent. */
  callerId?: string;
}

/** Times are on the call's timeline (seconds, like every span). */
export type TransferResult =
  | {
      kind: 'bridged';
      dialledSeconds: number;
      agentAnsweredSeconds: number;
      /** When the whisper ended and the two sides were joined. */
      bridgedSeconds: number;
      endedBy: 'customer' | 'agent';
      /** The agent's voice as relayed to the customer, from the bridge on (the recording's agent channel). */
      agentAudio: AudioClip;
    }
  | { kind: 'not_answered'; dialledSeconds: number; endedSeconds: number; detail: string; customerHungUp: boolean };

export interface Telephony {
  readonly name: string;
  /** Whether prompts must carry synthesised audio (a real line). When false, text suffices (the sandbox). */
  readonly needsPromptAudio: boolean;
  /**
   * Seconds of the service clock per second of a call's own timeline: 1 on a real line (a call takes the time it
   * takes); 1 / SANDBOX_SPEED in the sandbox, which simulates a whole call at once and whose calls then end that
   * much later on the clock.
   */
  readonly timeScale: number;
  placeCall(request: PlaceCallRequest): Promise<PlaceCallResult>;
  /** Binds what the carrier needs (a SIP port, a registration) when the service starts. */
  start?(): Promise<void>;
  close?(): Promise<void>;
}
