// Chooses the recogniser from configuration. With SPEECH_API_URL set, the OpenAI-compatible server handles every
// language it is trusted with (it is far more accurate than PocketSphinx, English included); PocketSphinx stays
// as the offline English recogniser for anything the server is not configured for. Without it, PocketSphinx
// alone: English works, hi/ta/te/mr fail with language_not_supported and a message saying how to configure.
import { OpenAiCompatibleRecognizer } from './openai-compatible.ts';
import { PocketSphinxRecognizer } from './pocketsphinx.ts';
import { LanguageNotSupportedError, type RecognitionResult, type SpeechRecognizer } from './port.ts';

export interface SpeechRecognitionConfig {
  /** SPEECH_API_URL */
  apiUrl?: string;
  /** SPEECH_API_KEY */
  apiKey?: string;
  /** SPEECH_MODEL, default whisper-1 */
  model?: string;
  /** Primary language subtags sent to the API; default hi, ta, te, mr, en. */
  apiLanguages?: string[];
  /** Parallel requests to the API; default 2. */
  apiConcurrency?: number;
  /** Parallel PocketSphinx processes; default the number of cores. */
  localConcurrency?: number;
}

export function createSpeechRecognizer(config: SpeechRecognitionConfig = {}): SpeechRecognizer {
  const local = new PocketSphinxRecognizer({ concurrency: config.localConcurrency });
  if (!config.apiUrl) return local;
  const remote = new OpenAiCompatibleRecognizer({
    url: config.apiUrl,
    apiKey: config.apiKey,
    model: config.model,
    languages: config.apiLanguages,
    concurrency: config.apiConcurrency,
  });
  return new FirstSupportingRecognizer([remote, local]);
}

/** Delegates each language to the first recogniser in the list that supports it. */
export class FirstSupportingRecognizer implements SpeechRecognizer {
  readonly name: string;

  constructor(private readonly recognizers: SpeechRecognizer[]) {
    this.name = recognizers.map((recognizer) => recognizer.name).join('+');
  }

  supports(language: string): boolean {
    return this.recognizers.some((recognizer) => recognizer.supports(language));
  }

  recognize(pcm16kMono: Int16Array, language: string, signal?: AbortSignal): Promise<RecognitionResult> {
    const chosen = this.recognizers.find((recognizer) => recognizer.supports(language));
    if (chosen === undefined) return Promise.reject(new LanguageNotSupportedError(language, this.name));
    return chosen.recognize(pcm16kMono, language, signal);
  }
}
