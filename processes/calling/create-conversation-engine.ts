import { classifyReply } from '../../infra/analysis/customer-reply.ts';
import type { Telephony } from '../../infra/telephony/port.ts';
import { ConversationEngine } from './conversation-engine.ts';
import type { ConversationSpeech } from './conversation-ports.ts';
import { offlineConversationSpeech } from './offline-speech.ts';

/**
 * The engine with the service's real parts: the carrier, the analysis module's reply classifier, and speech (by
 * default offline synthesis without a recogniser: the sandbox gives text and needs none).
 */
export function createConversationEngine(options: { telephony: Telephony; speech?: ConversationSpeech }): ConversationEngine {
  return new ConversationEngine({
    telephony: options.telephony,
    speech: options.speech ?? offlineConversationSpeech(),
    classifyReply,
  });
}
