import { RECOGNIZER_SAMPLE_RATE, type SpeechRecognizer } from '../../infra/speech/port.ts';
import type { Script } from '../../domain/script-types.ts';
import type { CallDomainModels } from '../../infra/speech/language-model/call-domain-models.ts';
import { PocketSphinxRecognizer } from '../../infra/speech/pocketsphinx.ts';
import { synthesize as synthesizeOffline, type SpeechSynthesizer } from '../../infra/speech/synthesize.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';
import { resample } from './call-recording.ts';
import type { ConversationSpeech } from './conversation-ports.ts';

/**
 * The engine's speech port over infra/speech: espeak-ng / Festival synthesis (phrases cached, so a campaign's
 * prompts are synthesised once) and, for carriers that deliver audio only, the configured recogniser. A language
 * the recogniser does not support is heard as "not understood" (re-prompt, then the no-input route) rather than
 * failing the call. With `callDomainModels`, PocketSphinx hears answers with the call script's language model
 * once it is built (the first calls of a script use the stock model while it builds).
 */
export function offlineConversationSpeech(
  options: { synthesizer?: SpeechSynthesizer; recognizer?: SpeechRecognizer; callDomainModels?: CallDomainModels } = {},
): ConversationSpeech {
  const { synthesizer, recognizer, callDomainModels } = options;
  return {
    synthesize(text, language, role) {
      return synthesizer ? synthesizer.synthesize(text, language, { voice: role }) : synthesizeOffline(text, language, { voice: role });
    },
    recognize: recognizer
      ? async (audio: AudioClip, language: string, context?: { script: Script }) => {
          if (!recognizer.supports(language)) return { text: '', confidence: 0 };
          const domainModel = callDomainModels && context && recognizer instanceof PocketSphinxRecognizer ? callDomainModels.readyModelFor([context.script]) : undefined;
          const hearing = domainModel === undefined ? recognizer : (recognizer as PocketSphinxRecognizer).withLanguageModel(domainModel);
          const result = await hearing.recognize(resample(audio, RECOGNIZER_SAMPLE_RATE), language);
          const confidence = result.words.length === 0 ? 0 : result.words.reduce((sum, word) => sum + word.confidence, 0) / result.words.length;
          return { text: result.text, confidence };
        }
      : undefined,
  };
}
