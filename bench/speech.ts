// Speech benchmark, two parts.
//
// 1. Word error rate per condition: real recorded English (LibriVox and CMU clips from pocketsphinx-testdata)
//    and the synthetic Festival voices, each at 16 kHz and through an 8 kHz G.711 round trip (µ-law and A-law),
//    with PocketSphinx as it was ("before": telephone-band audio passed as it is) and as it is now ("after":
//    telephone-band audio folded into the empty band, telephone-band.ts). Per-set totals and per-clip medians.
// 2. A synthesised English call (Festival agent on the left channel, the lower customer voice on
// the right) of about five minutes, run through the whole pipeline (decode, PocketSphinx, diarisation) several
// times. Prints the real-time factor (wall time / audio duration, median of the runs) and the word error rate,
// for the stereo recording and for its mono mix (diarised by pitch).
//
//   npm run bench:speech -- [--wer-only] [--verbose] [--minutes 5] [--runs 3] [--concurrency <cores>]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PocketSphinxRecognizer } from '../infra/speech/pocketsphinx.ts';
import { buildSampleCall, mixDown, type SampleCall, type ScriptLine } from '../infra/speech/sample-call.ts';
import { transcribeAudioFile, type Transcription } from '../infra/speech/transcribe.ts';
import { encodeWav } from '../infra/speech/wav.ts';
import { wordErrorRate } from '../infra/speech/wer.ts';
import { CONDITIONS, realSpeechClips, realSpeechInstalled, scoreClips, syntheticClips, type Condition, type SetScore, type SpeechClip } from './speech-sets.ts';

export const SCRIPT: ScriptLine[] = [
  { side: 'agent', text: 'Good morning, I am calling from the bank about your personal loan.' },
  { side: 'customer', text: 'Yes, I have a few minutes to talk.' },
  { side: 'agent', text: 'Your payment for this month is still due. Can you pay it this week?' },
  { side: 'customer', text: 'I lost my job last month, so money is a little tight right now.' },
  { side: 'agent', text: 'I understand. We can move the due date to the end of the month if that helps.' },
  { side: 'customer', text: 'That would help a lot. What do I need to do?' },
  { side: 'agent', text: 'Nothing more. I will send you a message with the new date today.' },
  { side: 'customer', text: 'Thank you. Will there be any extra charge for this?' },
  { side: 'agent', text: 'No, there is no extra charge if you pay by the new date.' },
  { side: 'customer', text: 'Good. I will make the payment before the end of the month.' },
  { side: 'agent', text: 'Thank you for your time. Have a nice day.' },
  { side: 'customer', text: 'You too, goodbye.' },
];

export interface SpeechBenchmarkOptions {
  /** Call length to synthesise; default 5 minutes. */
  minutes?: number;
  /** Runs per recording; the median is reported. Default 3. */
  runs?: number;
  /** PocketSphinx processes at once; default the number of cores. */
  concurrency?: number;
}

export interface RecordingFigures {
  audioSeconds: number;
  /** Median of wall time / audio duration over the runs. */
  realTimeFactor: number;
  wallSecondsPerRun: number[];
  wordErrorRate: number;
  /** Share of words attributed to the speaker who said them (by time). */
  speakerAccuracy: number;
  diarization: Transcription['diarization'];
}

export interface SpeechBenchmarkResult {
  stereo: RecordingFigures;
  mono: RecordingFigures;
  concurrency: number;
}

export async function measureSpeechRecognition(options: SpeechBenchmarkOptions = {}): Promise<SpeechBenchmarkResult> {
  const minutes = options.minutes ?? 5;
  const runs = options.runs ?? 3;
  const concurrency = options.concurrency ?? availableParallelism();
  const call = await buildSampleCall(SCRIPT, { minDurationSeconds: minutes * 60 });
  const directory = await mkdtemp(join(tmpdir(), 'speech-bench-'));
  try {
    const stereoPath = join(directory, 'call.wav');
    const monoPath = join(directory, 'mono.wav');
    await writeFile(stereoPath, encodeWav(call.audio));
    await writeFile(monoPath, encodeWav({ sampleRate: call.audio.sampleRate, channels: [mixDown(call)] }));
    const recognizer = new PocketSphinxRecognizer({ concurrency });
    return {
      stereo: await measureRecording(stereoPath, call, recognizer, runs),
      mono: await measureRecording(monoPath, call, recognizer, runs),
      concurrency,
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function measureRecording(path: string, call: SampleCall, recognizer: PocketSphinxRecognizer, runs: number): Promise<RecordingFigures> {
  const wallSecondsPerRun: number[] = [];
  let transcription: Transcription | undefined;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    transcription = await transcribeAudioFile(path, { language: 'en-IN', recognizer, speakers: 2 });
    wallSecondsPerRun.push((performance.now() - started) / 1000);
  }
  const result = transcription!;
  const reference = call.lines.map((line) => line.text).join(' ');
  const hypothesis = result.segments.map((segment) => segment.text).join(' ');
  return {
    audioSeconds: result.durationSeconds,
    realTimeFactor: median(wallSecondsPerRun) / result.durationSeconds,
    wallSecondsPerRun,
    wordErrorRate: wordErrorRate(reference, hypothesis).rate,
    speakerAccuracy: speakerAccuracy(result, call),
    diarization: result.diarization,
  };
}

/** Each segment's words counted as right when the segment's middle falls in a line of the same side. */
function speakerAccuracy(transcription: Transcription, call: SampleCall): number {
  let right = 0;
  let total = 0;
  for (const segment of transcription.segments) {
    const words = segment.text.split(' ').length;
    const middle = (segment.start_time + segment.end_time) / 2;
    const line = call.lines.find((candidate) => middle >= candidate.start - 0.2 && middle <= candidate.end + 0.2);
    total += words;
    if (line?.side === segment.speaker) right += words;
  }
  return total === 0 ? 0 : right / total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function describe(name: string, figures: RecordingFigures): string {
  return [
    `${name}: ${figures.audioSeconds.toFixed(1)} s of audio`,
    `  real-time factor (median of ${figures.wallSecondsPerRun.length}): ${figures.realTimeFactor.toFixed(3)}` +
      `  (runs: ${figures.wallSecondsPerRun.map((seconds) => `${seconds.toFixed(1)} s`).join(', ')})`,
    `  word error rate: ${(figures.wordErrorRate * 100).toFixed(1)}%`,
    `  words attributed to the right speaker: ${(figures.speakerAccuracy * 100).toFixed(1)}%` +
      `  (diarisation: ${figures.diarization.method}${figures.diarization.pitchGapSemitones === null ? '' : `, pitch gap ${figures.diarization.pitchGapSemitones} semitones`})`,
  ].join('\n');
}

export type RecognizerVariant = 'before' | 'after';

export interface WerRow {
  set: SpeechClip['set'];
  condition: Condition;
  variant: RecognizerVariant;
  score: SetScore;
}

/** WER of every set under every condition, before and after the telephone-band handling. */
export async function measureWordErrorRates(options: { concurrency?: number } = {}): Promise<WerRow[]> {
  if (!realSpeechInstalled()) throw new Error('pocketsphinx-testdata is not installed: run scripts/setup.sh as root');
  const clips = [...(await realSpeechClips()), ...(await syntheticClips(SCRIPT))];
  const sets = [...new Set(clips.map((clip) => clip.set))];
  const variants: Record<RecognizerVariant, PocketSphinxRecognizer> = {
    before: new PocketSphinxRecognizer({ concurrency: options.concurrency, telephoneBand: 'none' }),
    after: new PocketSphinxRecognizer({ concurrency: options.concurrency, telephoneBand: 'fold' }),
  };
  const rows: WerRow[] = [];
  for (const set of sets) {
    for (const condition of CONDITIONS) {
      for (const variant of ['before', 'after'] as const) {
        const score = await scoreClips(clips.filter((clip) => clip.set === set), condition, variants[variant]);
        rows.push({ set, condition, variant, score });
      }
    }
  }
  return rows;
}

export function describeWordErrorRates(rows: WerRow[], verbose = false): string {
  const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`.padStart(7);
  const lines = [
    'set        condition   words   before: total  median   after: total  median',
  ];
  for (const before of rows.filter((row) => row.variant === 'before')) {
    const after = rows.find((row) => row.variant === 'after' && row.set === before.set && row.condition === before.condition)!;
    const words = before.score.clips.reduce((sum, clip) => sum + clip.referenceWords, 0);
    lines.push(
      `${before.set.padEnd(10)} ${before.condition.padEnd(10)} ${String(words).padStart(6)}   ` +
        `${percent(before.score.totalRate)}       ${percent(before.score.medianRate)}   ${percent(after.score.totalRate)}       ${percent(after.score.medianRate)}`,
    );
    if (verbose) {
      for (const [index, clip] of after.score.clips.entries()) {
        lines.push(`    ${clip.id} ${percent(before.score.clips[index]!.rate)} -> ${percent(clip.rate)}  "${clip.hypothesis}"`);
      }
    }
  }
  return lines.join('\n');
}

function numberArgument(name: string): number | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const concurrency = numberArgument('concurrency');
  console.log('Word error rate, PocketSphinx en-us; before = telephone-band audio as it is, after = folded (telephone-band.ts)');
  console.log(describeWordErrorRates(await measureWordErrorRates({ concurrency }), process.argv.includes('--verbose')));
  if (process.argv.includes('--wer-only')) process.exit(0);
  const result = await measureSpeechRecognition({
    minutes: numberArgument('minutes'),
    runs: numberArgument('runs'),
    concurrency: numberArgument('concurrency'),
  });
  console.log(`Speech pipeline benchmark (PocketSphinx, ${result.concurrency} processes at once)`);
  console.log(describe('stereo call (channel diarisation)', result.stereo));
  console.log(describe('mono mix (pitch diarisation)', result.mono));
}
