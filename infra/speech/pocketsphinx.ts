// Offline recogniser: Debian's pocketsphinx (0.8+5prealpha, CLI `pocketsphinx_continuous`) with the US English
// wideband model from `pocketsphinx-en-us`. It is the only recogniser whose model installs offline here, so it
// serves English only; other languages are refused with LanguageNotSupportedError rather than transcribed into
// English-sounding nonsense.
//
// Audio that came through an 8 kHz channel (a phone line, a G.711 recording) has nothing above 4 kHz, which the
// wideband model cannot read (about 100% WER on real speech); it is detected per channel and the speech band is
// folded into the empty one before decoding (telephone-band.ts; 37-48% WER measured).
//
// Audio is cut at pauses into pieces of at most `maxChunkSeconds`; pieces run as separate processes, at most
// `concurrency` at once per recogniser instance.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { languageSubtag } from '../../domain/shared/language.ts';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { runTool } from './external-tool.ts';
import { LiveDecoding } from './pocketsphinx-live.ts';
import { recognizeInPieces } from './piecewise-recognition.ts';
import {
  LanguageNotSupportedError,
  RECOGNIZER_SAMPLE_RATE,
  resultFromWords,
  type RecognitionResult,
  type RecognizedWord,
  type SpeechRecognizer,
} from './port.ts';
import { foldIntoHighBand, isTelephoneBand } from './telephone-band.ts';
import { encodeWav } from './wav.ts';

export const DEBIAN_POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface PocketSphinxOptions {
  /** Default `pocketsphinx_continuous`. */
  binary?: string;
  /** Directory holding `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir?: string;
  /**
   * Decoder processes at once for this instance, live ones (`startLive`) included; default: the number of cores.
   * Decoding costs about 1 s of CPU per spoken answer here whichever way it runs, so more processes than cores only
   * make every answer slower (measured in docs/telephony.md, "Latency").
   */
  concurrency?: number;
  /** Longest piece sent to one process; default 60 s (model loading costs about 0.5 s per piece). */
  maxChunkSeconds?: number;
  /**
   * What to do with audio that came through an 8 kHz channel (nothing above 4 kHz): `fold` (default) mirrors the
   * speech band into the empty one so the wideband model can read it (telephone-band.ts); `none` passes it as it
   * is (the old behaviour, kept for the benchmark's before/after).
   */
  telephoneBand?: 'fold' | 'none';
  /**
   * Language model file (sphinxbase binary or ARPA); default the stock `en-us.lm.bin`. A call-domain model
   * (language-model/call-domain-model.ts) must keep to the same dictionary's words.
   */
  languageModel?: string;
  /**
   * Decode with a JSGF grammar file (`-jsgf`) or a keyphrase list (`-kws`, one `phrase /threshold/` a line)
   * instead of a language model: the output is then one of the grammar's sentences, or the phrases spotted.
   * Measured against the language models on scripted answers in docs/speech.md.
   */
  search?: { jsgf: string } | { kws: string };
}

export class PocketSphinxRecognizer implements SpeechRecognizer {
  readonly name = 'pocketsphinx';
  private readonly binary: string;
  private readonly modelDir: string;
  private readonly maxChunkSeconds: number;
  private readonly limit: ConcurrencyLimit;
  private readonly telephoneBand: 'fold' | 'none';
  private readonly languageModel: string;
  private readonly options: PocketSphinxOptions;

  constructor(options: PocketSphinxOptions = {}, sharedLimit?: ConcurrencyLimit) {
    this.options = options;
    this.binary = options.binary ?? 'pocketsphinx_continuous';
    this.modelDir = options.modelDir ?? DEBIAN_POCKETSPHINX_MODEL_DIR;
    this.maxChunkSeconds = options.maxChunkSeconds ?? 60;
    this.limit = sharedLimit ?? new ConcurrencyLimit(options.concurrency ?? availableParallelism());
    this.telephoneBand = options.telephoneBand ?? 'fold';
    this.languageModel = options.languageModel ?? `${this.modelDir}/en-us.lm.bin`;
  }

  /** The same recogniser decoding with another language model; processes count against the same limit. */
  withLanguageModel(languageModel: string): PocketSphinxRecognizer {
    return new PocketSphinxRecognizer({ ...this.options, languageModel, search: undefined }, this.limit);
  }

  /** The same recogniser decoding with a grammar or keyphrase list; processes count against the same limit. */
  withSearch(search: { jsgf: string } | { kws: string }): PocketSphinxRecognizer {
    return new PocketSphinxRecognizer({ ...this.options, search }, this.limit);
  }

  private searchArguments(): string[] {
    const search = this.options.search;
    if (search === undefined) return ['-lm', this.languageModel];
    return 'jsgf' in search ? ['-jsgf', search.jsgf] : ['-kws', search.kws];
  }

  supports(language: string): boolean {
    return languageSubtag(language) === 'en';
  }

  async recognize(pcm16kMono: Int16Array, language: string, signal?: AbortSignal): Promise<RecognitionResult> {
    if (!this.supports(language)) throw new LanguageNotSupportedError(language, this.name);
    // One decision per channel (a call does not change its bandwidth); folding itself is done piece by piece.
    const fold = this.telephoneBand === 'fold' && isTelephoneBand(pcm16kMono);
    const words = await recognizeInPieces(pcm16kMono, this.maxChunkSeconds, this.limit, signal, (samples, pieceSignal) =>
      this.recognizePiece(fold ? foldIntoHighBand(samples) : samples, pieceSignal),
    );
    return resultFromWords(words);
  }

  /**
   * A decoder that starts now and is fed 16 kHz audio as it arrives (pocketsphinx-live.ts); null when every decoder
   * slot is taken (then decode the finished answer with `recognize`, which waits its turn). The audio is decoded as given: a caller
   * with telephone-band audio upsamples it the way it would for `recognize` (see the class comment on folding).
   */
  startLive(language: string): LiveDecoding | null {
    if (!this.supports(language)) throw new LanguageNotSupportedError(language, this.name);
    const release = this.limit.tryAcquire();
    if (release === null) return null;
    const search = this.options.search;
    return new LiveDecoding(
      {
        binary: this.binary,
        args: this.decoderArguments(),
        // The longest answer a call takes (15 s) and its decode, with room for a loaded machine.
        timeoutMs: 120_000,
        parse: (stdout) => {
          const words = parseTimedOutput(stdout);
          return search !== undefined && 'kws' in search ? words.sort((a, b) => a.start - b.start) : words;
        },
      },
      release,
    );
  }

  private decoderArguments(): string[] {
    return [
      '-samprate', String(RECOGNIZER_SAMPLE_RATE),
      '-hmm', `${this.modelDir}/en-us`,
      ...this.searchArguments(),
      '-dict', `${this.modelDir}/cmudict-en-us.dict`,
      '-time', 'yes',
      '-logfn', '/dev/null',
    ];
  }

  private async recognizePiece(samples: Int16Array, signal: AbortSignal): Promise<RecognizedWord[]> {
    const seconds = samples.length / RECOGNIZER_SAMPLE_RATE;
    // The decoder opens its input by name, and Node's stdin pipes are sockets it cannot open: a temp file it is.
    const directory = await mkdtemp(join(tmpdir(), 'pocketsphinx-'));
    try {
      const inputPath = join(directory, 'piece.wav');
      await writeFile(inputPath, encodeWav({ sampleRate: RECOGNIZER_SAMPLE_RATE, channels: [samples] }));
      const { stdout } = await runTool(
        this.binary,
        ['-infile', inputPath, ...this.decoderArguments()],
        { timeoutMs: 30_000 + seconds * 3_000, signal },
      );
      const words = parseTimedOutput(stdout.toString('utf8'));
      // Keyphrase spotting reports phrases as it confirms them, not in the order they were said.
      return this.options.search !== undefined && 'kws' in this.options.search ? words.sort((a, b) => a.start - b.start) : words;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
}

// With `-time yes` each utterance prints its hypothesis line, then one line per token:
// `word start end posterior`, e.g. `renewal 2.990 3.610 0.214450` (times in seconds from the input start).
// With `-kws` the token is the spotted phrase, which may hold spaces (`not interested  0.540 1.510 0.886553`).
const TIMED_TOKEN_LINE = /^(\S+(?: \S+)*?) +(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;

export function parseTimedOutput(output: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  for (const line of output.split('\n')) {
    const match = TIMED_TOKEN_LINE.exec(line.trim());
    if (match === null) continue;
    const token = match[1]!;
    if (isFiller(token)) continue;
    words.push({
      // `hello(2)` names the second pronunciation of `hello` in the dictionary.
      word: token.replace(/\(\d+\)$/, ''),
      start: Number(match[2]),
      end: Number(match[3]),
      // Posteriors come out slightly above 1 through rounding in log space.
      confidence: Math.min(1, Math.max(0, Number(match[4]))),
    });
  }
  return words;
}

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`, a grammar's `(NULL)`: silence, noise and no-word markers. */
function isFiller(token: string): boolean {
  return /^(<.*>|\[.*\]|\+\+.*\+\+|\(NULL\))$/.test(token);
}
