// The speech recognition port: one mono 16 kHz channel in, words with times and confidences out. Adapters:
// pocketsphinx.ts (offline, English only) and openai-compatible.ts (any hosted or self-hosted Whisper-style
// server, all five languages). A recogniser that cannot handle a language says so; it never guesses text.

export interface RecognizedWord {
  word: string;
  /** Seconds from the start of the audio given to recognize(). */
  start: number;
  end: number;
  /** 0 to 1. */
  confidence: number;
}

export interface RecognitionResult {
  words: RecognizedWord[];
  text: string;
}

export interface SpeechRecognizer {
  readonly name: string;
  supports(language: string): boolean;
  recognize(pcm16kMono: Int16Array, language: string, signal?: AbortSignal): Promise<RecognitionResult>;
}

export const RECOGNIZER_SAMPLE_RATE = 16_000;

export class LanguageNotSupportedError extends Error {
  readonly code = 'language_not_supported';
  constructor(
    readonly language: string,
    readonly recognizer: string,
  ) {
    super(
      `speech recognition for ${language} is not available with the ${recognizer} recogniser; configure an ` +
        'OpenAI-compatible transcription server with SPEECH_API_URL (and SPEECH_API_KEY, SPEECH_MODEL) to ' +
        'transcribe hi, ta, te, mr and en (see docs/speech.md)',
    );
    this.name = 'LanguageNotSupportedError';
  }
}

export function resultFromWords(words: RecognizedWord[]): RecognitionResult {
  return { words, text: words.map((word) => word.word).join(' ') };
}
