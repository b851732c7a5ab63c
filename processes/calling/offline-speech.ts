import { RECOGNIZER_SAMPLE_RATE, type RecognizedWord, type SpeechRecognizer } from '../../infra/speech/port.ts';
import type { Script } from '../../domain/script-types.ts';
import type { CallDomainModels } from '../../infra/speech/language-model/call-domain-models.ts';
import { PocketSphinxRecognizer } from '../../infra/speech/pocketsphinx.ts';
import type { LiveDecoding } from '../../infra/speech/pocketsphinx-live.ts';
import { synthesize as synthesizeOffline, type SpeechSynthesizer } from '../../infra/speech/synthesize.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';
import { resample } from './call-recording.ts';
import type { ConversationSpeech, LiveRecognition } from './conversation-ports.ts';
import { StreamingUpsampler } from './streaming-upsampler.ts';

/**
 * The engine's speech port over infra/speech: espeak-ng / Festival synthesis (phrases cached, so a campaign's
 * prompts are synthesised once) and, for carriers that deliver audio only, the configured recogniser. A language
 * the recogniser does not support is heard as "not understood" (re-prompt, then the no-input route) rather than
 * failing the call. With `callDomainModels`, PocketSphinx hears answers with the call script's language model
 * once it is built (its build starts when a call of the script starts; until it is built, the stock model).
 * PocketSphinx also hears answers live (`hearLive`): a decoder fed while the customer speaks, so little is left
 * to decode when the answer ends (docs/telephony.md, "Latency").
 */
export function offlineConversationSpeech(
  options: { synthesizer?: SpeechSynthesizer; recognizer?: SpeechRecognizer; callDomainModels?: CallDomainModels } = {},
): ConversationSpeech {
  const { synthesizer, recognizer, callDomainModels } = options;
  /** The recogniser for a script's answers: PocketSphinx with the script's language model once it is built. */
  const hearing = (context?: { script: Script }): SpeechRecognizer => {
    const domainModel = callDomainModels && context && recognizer instanceof PocketSphinxRecognizer ? callDomainModels.readyModelFor([context.script]) : undefined;
    return domainModel === undefined ? recognizer! : (recognizer as PocketSphinxRecognizer).withLanguageModel(domainModel);
  };
  const recognize = recognizer
    ? async (audio: AudioClip, language: string, context?: { script: Script }) => {
        if (!recognizer.supports(language)) return { text: '', confidence: 0 };
        const result = await hearing(context).recognize(resample(audio, RECOGNIZER_SAMPLE_RATE), language);
        return { text: result.text, confidence: meanConfidence(result.words) };
      }
    : undefined;
  return {
    synthesize(text, language, role) {
      return synthesizer ? synthesizer.synthesize(text, language, { voice: role }) : synthesizeOffline(text, language, { voice: role });
    },
    recognize,
    prepare(language, context) {
      if (callDomainModels && recognizer instanceof PocketSphinxRecognizer && recognizer.supports(language)) void callDomainModels.modelFor([context.script]);
    },
    hearLive:
      recognizer instanceof PocketSphinxRecognizer && recognize
        ? (language, context) => {
            if (!recognizer.supports(language)) return undefined;
            return new LivePocketSphinxAnswer(() => (hearing(context) as PocketSphinxRecognizer).startLive(language), (whole) => recognize(whole, language, context));
          }
        : undefined,
  };
}

function meanConfidence(words: readonly RecognizedWord[]): number {
  return words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
}

/**
 * One answer heard live: the decoder starts at its first audio (none while the line is quiet, so a step answered
 * by a key or not at all costs nothing); with no free decoder, or when it fails, the whole answer is recognised
 * after it ends, as without live hearing.
 */
class LivePocketSphinxAnswer implements LiveRecognition {
  private decoding: LiveDecoding | null | undefined;
  private upsampler: StreamingUpsampler | null = null;
  private over = false;

  constructor(
    private readonly start: () => LiveDecoding | null,
    private readonly recognizeWhole: (whole: AudioClip) => Promise<{ text: string; confidence: number }>,
  ) {}

  hear(chunk: AudioClip): void {
    if (this.over || chunk.pcm.length === 0) return;
    try {
      if (this.decoding === undefined) {
        const factor = RECOGNIZER_SAMPLE_RATE / chunk.sampleRate;
        // Only whole multiples (8 kHz lines) are upsampled on the fly; anything else is decoded after the answer.
        this.decoding = Number.isInteger(factor) && factor >= 1 ? this.start() : null;
        if (this.decoding) this.upsampler = new StreamingUpsampler(factor);
      }
      if (this.decoding && this.upsampler) this.decoding.write(this.upsampler.push(chunk.pcm));
    } catch {
      // A decoder that missed some of the answer would return wrong words: the whole answer is decoded at its end.
      this.decoding?.cancel();
      this.decoding = null;
    }
  }

  async result(whole: AudioClip): Promise<{ text: string; confidence: number }> {
    this.over = true;
    const decoding = this.decoding;
    if (!decoding || !this.upsampler) return this.recognizeWhole(whole);
    decoding.write(this.upsampler.flush());
    try {
      const words = await decoding.finish();
      return { text: words.map((word) => word.word).join(' '), confidence: meanConfidence(words) };
    } catch {
      return this.recognizeWhole(whole);
    }
  }

  cancel(): void {
    this.over = true;
    this.decoding?.cancel();
  }
}
