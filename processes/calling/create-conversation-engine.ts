import { classifyReply } from '../../infra/analysis/customer-reply.ts';
import type { SpeechRecognizer } from '../../infra/speech/port.ts';
import type { Telephony } from '../../infra/telephony/port.ts';
import { ConversationEngine } from './conversation-engine.ts';
import { offlineConversationSpeech } from './offline-speech.ts';

/**
 * The engine with the service's real parts: the analysis module's reply classifier, offline synthesis, and the
 * recogniser for carriers that deliver audio only (the sandbox gives text and needs none).
 */
export function createConversationEngine(options: { telephony: Telephony; recognizer?: SpeechRecognizer }): ConversationEngine {
  return new ConversationEngine({
    telephony: options.telephony,
    speech: offlineConversationSpeech({ recognizer: options.recognizer }),
    classifyReply,
  });
}
