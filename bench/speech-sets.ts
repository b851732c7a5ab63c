// Speech evaluation sets: real recorded English from Debian's `pocketsphinx-testdata` (read from the installed
// package, not copied into git) and the synthetic Festival voices the other tests use, each heard as recorded
// (16 kHz) and through what a phone call gives (8 kHz G.711 µ-law or A-law and back, with ffmpeg). Sources and
// licences per clip are in docs/speech.md ("Evaluation sets").
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioFile } from '../infra/speech/decode.ts';
import { runTool } from '../infra/speech/external-tool.ts';
import type { SpeechRecognizer } from '../infra/speech/port.ts';
import { synthesize } from '../infra/speech/synthesize.ts';
import { encodeWav, int16FromLittleEndianBytes } from '../infra/speech/wav.ts';
import { wordErrorRate } from '../infra/speech/wer.ts';

export const POCKETSPHINX_TEST_DATA = '/usr/share/pocketsphinx/test/data';

export interface SpeechClip {
  id: string;
  set: 'librivox' | 'cmu' | 'festival';
  /** 16 kHz mono 16-bit PCM as recorded (or synthesised). */
  pcm16k: Int16Array;
  reference: string;
}

export type Condition = '16k' | '8k-mulaw' | '8k-alaw';
export const CONDITIONS: Condition[] = ['16k', '8k-mulaw', '8k-alaw'];

export function realSpeechInstalled(): boolean {
  return existsSync(join(POCKETSPHINX_TEST_DATA, 'librivox', 'transcription'));
}

/** `<s> words </s> (id)` lines, the Sphinx transcription format. */
function sphinxTranscriptions(path: string): Map<string, string> {
  const references = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^<s>\s*(.*?)\s*<\/s>\s*\((.+)\)$/.exec(line.trim());
    if (match) references.set(match[2]!, match[1]!);
  }
  return references;
}

async function wavClip(path: string): Promise<Int16Array> {
  const audio = await decodeAudioFile(path);
  return audio.channels[0]!;
}

/**
 * Real recorded English: five LibriVox read-speech clips (one reader, "Sense and Sensibility", 71 words), five
 * CMU "cards" utterances (another speaker, 21 words) and CMU's "go forward ten meters" (4 words).
 */
export async function realSpeechClips(): Promise<SpeechClip[]> {
  const clips: SpeechClip[] = [];
  for (const [id, reference] of sphinxTranscriptions(join(POCKETSPHINX_TEST_DATA, 'librivox', 'transcription'))) {
    clips.push({ id: `librivox/${id}`, set: 'librivox', reference, pcm16k: await wavClip(join(POCKETSPHINX_TEST_DATA, 'librivox', `${id}.wav`)) });
  }
  for (const [id, reference] of sphinxTranscriptions(join(POCKETSPHINX_TEST_DATA, 'cards', 'cards.transcription'))) {
    clips.push({ id: `cards/${id}`, set: 'cmu', reference, pcm16k: await wavClip(join(POCKETSPHINX_TEST_DATA, 'cards', `${id}.wav`)) });
  }
  // Headerless 16 kHz 16-bit little-endian PCM; its words are those of the package's own goforward grammar.
  const raw = await readFile(join(POCKETSPHINX_TEST_DATA, 'goforward.raw'));
  clips.push({ id: 'goforward', set: 'cmu', reference: 'go forward ten meters', pcm16k: int16FromLittleEndianBytes(raw) });
  return clips;
}

/** The synthetic agent and customer voices (Festival) saying the benchmark call's lines, one clip per line. */
export async function syntheticClips(lines: { side: 'agent' | 'customer'; text: string }[]): Promise<SpeechClip[]> {
  const clips: SpeechClip[] = [];
  for (const [index, line] of lines.entries()) {
    const speech = await synthesize(line.text, 'en-US', { voice: line.side, sampleRate: 16_000 });
    clips.push({ id: `festival/${index + 1}-${line.side}`, set: 'festival', reference: line.text, pcm16k: speech.pcm });
  }
  return clips;
}

/**
 * The clip as the recogniser gets it under `condition`: for the 8 kHz ones, ffmpeg resamples to 8 kHz, encodes
 * G.711 (what the phone network carries), and the result is decoded back to 16 kHz by the service's own decoder,
 * as an uploaded telephone recording would be.
 */
export async function underCondition(pcm16k: Int16Array, condition: Condition): Promise<Int16Array> {
  if (condition === '16k') return pcm16k;
  const directory = await mkdtemp(join(tmpdir(), 'speech-condition-'));
  try {
    const input = join(directory, 'in.wav');
    const output = join(directory, 'g711.wav');
    await writeFile(input, encodeWav({ sampleRate: 16_000, channels: [pcm16k] }));
    const codec = condition === '8k-mulaw' ? 'pcm_mulaw' : 'pcm_alaw';
    await runTool('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', input, '-ar', '8000', '-ac', '1', '-c:a', codec, output], { timeoutMs: 30_000 });
    return await wavClip(output);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface ClipScore {
  id: string;
  reference: string;
  hypothesis: string;
  errors: number;
  referenceWords: number;
  rate: number;
}

export interface SetScore {
  clips: ClipScore[];
  /** All errors over all reference words. */
  totalRate: number;
  /** Median of the clips' rates. */
  medianRate: number;
}

export async function scoreClips(clips: SpeechClip[], condition: Condition, recognizer: SpeechRecognizer): Promise<SetScore> {
  // One clip at a time: the recogniser's own limit bounds its processes, and a machine shared with other work
  // should not push a short clip past the decoder's timeout.
  const scores: ClipScore[] = [];
  for (const clip of clips) {
    const audio = await underCondition(clip.pcm16k, condition);
    const { text } = await recognizer.recognize(audio, 'en-US');
    const counts = wordErrorRate(clip.reference, text);
    const errors = counts.substitutions + counts.deletions + counts.insertions;
    scores.push({ id: clip.id, reference: clip.reference, hypothesis: text, errors, referenceWords: counts.referenceWords, rate: counts.rate });
  }
  const errors = scores.reduce((sum, score) => sum + score.errors, 0);
  const words = scores.reduce((sum, score) => sum + score.referenceWords, 0);
  return { clips: scores, totalRate: words === 0 ? 0 : errors / words, medianRate: median(scores.map((score) => score.rate)) };
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
