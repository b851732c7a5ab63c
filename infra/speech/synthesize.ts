// Text to speech for the conversation engine and the sandbox's simulated callees. Festival's HTS voice
// (cmu_us_slt_arctic_hts) speaks English naturally enough for the offline recogniser to transcribe it; espeak-ng
// speaks hi, ta, te, mr (and English when Festival is missing). Output is mono 16-bit PCM at one common rate.
//
// Two roles have clearly different voices so a mono recording can be diarised by pitch:
//   agent:    Festival slt (female, F0 about 175 Hz) for English; espeak-ng `<lang>+f2` (about 180 Hz) otherwise.
//   customer: Festival slt lowered by 5 semitones (about 130 Hz; pocketsphinx still reads it as well as the
//             original) for English; espeak-ng `<lang>+m3` (about 98 Hz) otherwise.
// An explicit engine voice is also accepted: `espeak-ng:<voice>` or `festival:<voice name>`.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, ToolNotInstalledError } from './external-tool.ts';
import { languageSubtag } from '../../domain/shared/language.ts';
import { PhraseCache } from './phrase-cache.ts';
import { int16FromLittleEndianBytes } from './wav.ts';

export type VoiceRole = 'agent' | 'customer';

export interface SynthesisOptions {
  /** A role (default `agent`) or an explicit engine voice (`espeak-ng:hi+f2`, `festival:cmu_us_slt_arctic_hts`). */
  voice?: VoiceRole | string;
  /** Output rate in Hz; default 16000 (8000 suits a telephone line). */
  sampleRate?: number;
}

export interface SynthesizedSpeech {
  /** Shared with the cache: treat as read-only. */
  pcm: Int16Array;
  sampleRate: number;
}

export class SynthesisLanguageError extends Error {
  readonly code = 'language_not_supported';
  constructor(readonly language: string) {
    super(`no speech synthesis voice for ${language}; available: ${Object.keys(ESPEAK_VOICE_OF_LANGUAGE).join(', ')}`);
    this.name = 'SynthesisLanguageError';
  }
}

const ESPEAK_VOICE_OF_LANGUAGE: Record<string, string> = { hi: 'hi', ta: 'ta', te: 'te', mr: 'mr', en: 'en-us' };
const FESTIVAL_ENGLISH_VOICE = 'cmu_us_slt_arctic_hts';
const FESTIVAL_VOICE_DIR = '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts';
const CUSTOMER_PITCH_SHIFT_CENTS = -500;

interface EngineVoice {
  engine: 'espeak-ng' | 'festival';
  name: string;
  /** sox `pitch` shift applied after synthesis, in cents. */
  pitchShiftCents: number;
}

export interface SpeechSynthesizerOptions {
  cacheEntries?: number;
  cacheBytes?: number;
  /** Use Festival for English when installed (default true); false forces espeak-ng. */
  preferFestival?: boolean;
}

export class SpeechSynthesizer {
  private readonly cache: PhraseCache<SynthesizedSpeech>;
  private festivalUsable: boolean;

  constructor(options: SpeechSynthesizerOptions = {}) {
    this.cache = new PhraseCache(
      { maxEntries: options.cacheEntries ?? 2_000, maxBytes: options.cacheBytes ?? 256 * 1024 * 1024 },
      (speech) => speech.pcm.byteLength,
    );
    this.festivalUsable = (options.preferFestival ?? true) && existsSync(FESTIVAL_VOICE_DIR);
  }

  get cachedPhrases(): number {
    return this.cache.size;
  }

  synthesize(text: string, language: string, options: SynthesisOptions = {}): Promise<SynthesizedSpeech> {
    const sampleRate = options.sampleRate ?? 16_000;
    let voice: EngineVoice;
    try {
      voice = this.resolveVoice(language, options.voice ?? 'agent');
    } catch (error) {
      return Promise.reject(error);
    }
    const key = JSON.stringify([text, voice.engine, voice.name, voice.pitchShiftCents, sampleRate]);
    return this.cache.getOrCreate(key, () => this.render(text, language, voice, sampleRate));
  }

  private resolveVoice(language: string, voice: string): EngineVoice {
    if (voice.startsWith('espeak-ng:')) return { engine: 'espeak-ng', name: voice.slice('espeak-ng:'.length), pitchShiftCents: 0 };
    if (voice.startsWith('festival:')) return { engine: 'festival', name: voice.slice('festival:'.length), pitchShiftCents: 0 };
    const subtag = languageSubtag(language);
    const espeakVoice = ESPEAK_VOICE_OF_LANGUAGE[subtag];
    if (espeakVoice === undefined) throw new SynthesisLanguageError(language);
    const isCustomer = voice === 'customer';
    if (subtag === 'en' && this.festivalUsable) {
      return { engine: 'festival', name: FESTIVAL_ENGLISH_VOICE, pitchShiftCents: isCustomer ? CUSTOMER_PITCH_SHIFT_CENTS : 0 };
    }
    return { engine: 'espeak-ng', name: `${espeakVoice}+${isCustomer ? 'm3' : 'f2'}`, pitchShiftCents: 0 };
  }

  private async render(text: string, language: string, voice: EngineVoice, sampleRate: number): Promise<SynthesizedSpeech> {
    if (text.trim() === '') return { pcm: new Int16Array(0), sampleRate };
    if (voice.engine === 'espeak-ng') return { pcm: await espeakPcm(text, voice, sampleRate), sampleRate };
    try {
      return { pcm: await festivalPcm(text, voice, sampleRate), sampleRate };
    } catch (error) {
      // A machine without Festival still speaks English, through espeak-ng.
      if (!(error instanceof ToolNotInstalledError)) throw error;
      this.festivalUsable = false;
      const role: VoiceRole = voice.pitchShiftCents < 0 ? 'customer' : 'agent';
      return this.render(text, language, this.resolveVoice(language, role), sampleRate);
    }
  }
}

// Synthesis of one phrase is shared by every caller waiting for it (see PhraseCache), so one caller's abort must
// not cancel the others: runs are bounded by a timeout instead.
function synthesisTimeoutMs(text: string): number {
  return 30_000 + text.length * 50;
}

const RAW_PCM_FORMAT = ['-t', 'raw', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L'];

/** The text goes in on stdin, so a phrase starting with `-` or holding any Unicode is never read as an option. */
async function espeakPcm(text: string, voice: EngineVoice, sampleRate: number): Promise<Int16Array> {
  const { stdout: wav } = await runTool('espeak-ng', ['-v', voice.name, '-b', '1', '--stdout'], {
    stdin: text,
    timeoutMs: synthesisTimeoutMs(text),
  });
  // espeak-ng speaks at 22050 Hz; sox converts to the common rate.
  return soxToRawPcm(wav, ['-t', 'wav'], sampleRate, voice.pitchShiftCents);
}

async function festivalPcm(text: string, voice: EngineVoice, sampleRate: number): Promise<Int16Array> {
  if (!/^[A-Za-z0-9_]+$/.test(voice.name)) throw new RangeError(`invalid festival voice name: ${voice.name}`);
  // text2wave must open its output by name, and Node's stdout pipes are sockets it cannot open, hence a temp file.
  // It resamples itself (-F) and writes raw little-endian samples.
  const directory = await mkdtemp(join(tmpdir(), 'festival-'));
  try {
    const outputPath = join(directory, 'speech.raw');
    await runTool('text2wave', ['-eval', `(voice_${voice.name})`, '-otype', 'raw', '-F', String(sampleRate), '-o', outputPath], {
      stdin: text,
      timeoutMs: synthesisTimeoutMs(text),
    });
    const raw = await readFile(outputPath);
    if (voice.pitchShiftCents === 0) return int16FromLittleEndianBytes(raw);
    return soxToRawPcm(raw, [...RAW_PCM_FORMAT, '-r', String(sampleRate)], sampleRate, voice.pitchShiftCents);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// -D: no dither, so the same phrase always renders to the same samples (reproducible tests and recordings).
async function soxToRawPcm(audio: Buffer, inputFormat: string[], sampleRate: number, pitchShiftCents: number): Promise<Int16Array> {
  const effects = pitchShiftCents === 0 ? [] : ['pitch', String(pitchShiftCents)];
  const output = [...RAW_PCM_FORMAT, '-r', String(sampleRate)];
  const { stdout } = await runTool('sox', ['-V1', '-D', ...inputFormat, '-', ...output, '-', ...effects], {
    stdin: audio,
    timeoutMs: 30_000 + audio.length / 1_000,
  });
  return int16FromLittleEndianBytes(stdout);
}

const defaultSynthesizer = new SpeechSynthesizer();

/** Synthesises with the process-wide cached synthesizer. */
export function synthesize(text: string, language: string, options: SynthesisOptions = {}): Promise<SynthesizedSpeech> {
  return defaultSynthesizer.synthesize(text, language, options);
}
