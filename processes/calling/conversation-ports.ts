import type { Script, ScriptIntent } from '../../domain/script-types.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';

/**
 * The conversation engine's two non-telephony needs, as ports: speech (synthesis of prompts, recognition of the
 * customer's audio when the carrier does not already give text) and the reply classifier of the analysis module.
 */
export interface ConversationSpeech {
  synthesize(text: string, language: string, role: 'agent' | 'customer'): Promise<AudioClip>;
  /**
   * Absent: speech without text counts as not understood. `context.script`: the script being called, whose words a recogniser may expect (a call-domain
   * language model).
   */
  recognize?(audio: AudioClip, language: string, context?: { script: Script }): Promise<{ text: string; confidence: number }>;
  /**
   * A call on a real line is starting: get ready what recognising its answers needs (a call-domain language model),
   * rather than at its first answer. Never waits and never fails the call.
   */
  prepare?(language: string, context: { script: Script }): void;
  /**
   * A recognition that hears the answer while it is spoken (a decoder fed as the audio arrives), so that little
   * is left to decode when the utterance ends. Undefined: this language is recognised after the answer only.
   */
  hearLive?(language: string, context: { script: Script }): LiveRecognition | undefined;
}

export interface LiveRecognition {
  /** The next stretch of the answer, in order, as the line delivers it (from just before the speech starts). */
  hear(chunk: AudioClip): void;
  /**
   * The answer is over: its words. `whole` is the complete answer, recognised the ordinary way when live decoding
   * could not run (no free decoder, a decoder that failed).
   */
  result(whole: AudioClip): Promise<{ text: string; confidence: number }>;
  /** No spoken answer came (silence, a key, a hang-up): stop decoding and free the decoder. */
  cancel(): void;
}

/** Extra words per intent, from a script route's `keywords`. */
export type ExtraKeywords = Partial<Record<ScriptIntent, string[]>>;

export interface ReplyClassification {
  intent: ScriptIntent | null;
  confidence: number;
}

export type ReplyClassifier = (text: string, language: string, extraKeywords?: ExtraKeywords) => ReplyClassification;
