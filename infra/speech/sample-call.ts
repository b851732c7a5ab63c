// A scripted two-party call rendered as a stereo recording (agent left, customer right), with the exact times
// each line was placed. The tests and the speech benchmark score recognition and diarisation against it, and
// it is the shape of recording the sandbox carrier produces.
import { synthesize } from './synthesize.ts';
import { StereoRecorder, type PcmAudio, type RecordingSide } from './wav.ts';

export interface ScriptLine {
  side: RecordingSide;
  text: string;
}

export interface PlacedLine extends ScriptLine {
  start: number;
  end: number;
}

export interface SampleCall {
  audio: PcmAudio & { channels: [Int16Array, Int16Array] };
  lines: PlacedLine[];
  durationSeconds: number;
}

export interface SampleCallOptions {
  language?: string;
  sampleRate?: number;
  /** Pause between one line's end and the next line's start. */
  gapSeconds?: number;
  /** Silence before the first line. */
  leadInSeconds?: number;
  /** Repeat the script until the call lasts at least this long. */
  minDurationSeconds?: number;
}

export async function buildSampleCall(script: ScriptLine[], options: SampleCallOptions = {}): Promise<SampleCall> {
  const language = options.language ?? 'en-IN';
  const sampleRate = options.sampleRate ?? 16_000;
  const gapSeconds = options.gapSeconds ?? 0.9;
  const recorder = new StereoRecorder(sampleRate);
  const lines: PlacedLine[] = [];
  let cursor = options.leadInSeconds ?? 0.5;
  do {
    for (const line of script) {
      const speech = await synthesize(line.text, language, { voice: line.side, sampleRate });
      const durationSeconds = speech.pcm.length / sampleRate;
      recorder.place(line.side, cursor, speech.pcm);
      lines.push({ ...line, start: cursor, end: cursor + durationSeconds });
      cursor += durationSeconds + gapSeconds;
    }
  } while (cursor < (options.minDurationSeconds ?? 0));
  recorder.extendTo(cursor);
  return { audio: recorder.render(), lines, durationSeconds: recorder.durationSeconds };
}

/** The whole call on one channel, as a mono recorder (or a phone line without channel separation) hears it. */
export function mixDown(call: SampleCall): Int16Array {
  const [left, right] = call.audio.channels;
  const mono = new Int16Array(left.length);
  for (let index = 0; index < left.length; index++) mono[index] = Math.max(-32768, Math.min(32767, left[index]! + right[index]!));
  return mono;
}
