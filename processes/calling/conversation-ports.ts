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
}

/** Extra words per intent, from a script route's `keywords`. */
export type ExtraKeywords = Partial<Record<ScriptIntent, string[]>>;

export interface ReplyClassification {
  intent: ScriptIntent | null;
  confidence: number;
}

export type ReplyClassifier = (text: string, language: string, extraKeywords?: ExtraKeywords) => ReplyClassification;
