import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  diarizeByChannel,
  diarizeByPitch,
  segmentsFromSpeakerWords,
  speakerLabels,
  type PitchDiarization,
} from '../../../infra/speech/diarize.ts';
import type { RecognizedWord } from '../../../infra/speech/port.ts';
import { buildSampleCall, mixDown, type SampleCall, type ScriptLine } from '../../../infra/speech/sample-call.ts';
import { synthesize } from '../../../infra/speech/synthesize.ts';
import { StereoRecorder } from '../../../infra/speech/wav.ts';

const word = (text: string, start: number, end: number, confidence = 0.9): RecognizedWord => ({ word: text, start, end, confidence });

test('labels: agent alone; agent and customer; speaker_n beyond two', () => {
  assert.equal(speakerLabels(1), ['agent']);
  assert.equal(speakerLabels(2), ['agent', 'customer']);
  assert.equal(speakerLabels(4), ['speaker_1', 'speaker_2', 'speaker_3', 'speaker_4']);
});

test('segments: consecutive words of one speaker with short gaps join; a long gap or a new speaker splits', () => {
  const segments = segmentsFromSpeakerWords([
    { ...word('hello', 0.123, 0.5, 0.8), speaker: 'agent' },
    { ...word('there', 0.6, 1.0, 0.9), speaker: 'agent' },
    { ...word('later', 2.0, 2.5, 0.7), speaker: 'agent' },
    { ...word('yes', 2.6, 2.9, 0.95), speaker: 'customer' },
  ]);
  assert.equal(segments, [
    { speaker: 'agent', text: 'hello there', start_time: 0.12, end_time: 1, confidence: 0.85 },
    { speaker: 'agent', text: 'later', start_time: 2, end_time: 2.5, confidence: 0.7 },
    { speaker: 'customer', text: 'yes', start_time: 2.6, end_time: 2.9, confidence: 0.95 },
  ]);
});

test('channel diarisation interleaves both channels by time with overridable labels', () => {
  const left = [word('good', 0, 0.3), word('morning', 0.35, 0.8), word('bye', 5, 5.3)];
  const right = [word('hi', 1.5, 1.8)];
  assert.equal(
    diarizeByChannel([left, right]).map((segment) => [segment.speaker, segment.text]),
    [
      ['agent', 'good morning'],
      ['customer', 'hi'],
      ['agent', 'bye'],
    ],
  );
  assert.equal(diarizeByChannel([left, right], ['customer', 'agent'])[0]!.speaker, 'customer');
});

const DIALOGUE: ScriptLine[] = [
  { side: 'agent', text: 'Good morning, I am calling from the bank about your loan.' },
  { side: 'customer', text: 'Yes, I have a few minutes to talk.' },
  { side: 'agent', text: 'Your payment for this month is still due.' },
  { side: 'customer', text: 'Okay.' },
  { side: 'agent', text: 'Can you pay it this week?' },
  { side: 'customer', text: 'I will make the payment on Friday, thank you.' },
];

/** Share of the time inside placed lines that the diarisation labels with the line's side. */
function agreement(diarization: PitchDiarization, call: SampleCall): number {
  let matching = 0;
  let total = 0;
  for (const turn of diarization.turns) {
    for (const line of call.lines) {
      const overlap = Math.min(turn.end, line.end) - Math.max(turn.start, line.start);
      if (overlap <= 0) continue;
      total += overlap;
      if (turn.speaker === line.side) matching += overlap;
    }
  }
  return matching / total;
}

test('mono: a female agent and a lower customer voice are told apart by pitch for most of the time', async () => {
  const call = await buildSampleCall(DIALOGUE, { gapSeconds: 0.6 });
  const diarization = diarizeByPitch(mixDown(call), 16_000, [], 2);
  const share = agreement(diarization, call);
  assert.ok(share > 0.85, `labelled correctly ${(share * 100).toFixed(1)}% of the time`);
  assert.ok(diarization.reliable, `pitch gap ${diarization.pitchGapSemitones} semitones`);
});

test('mono: a female (Festival) and a male (espeak-ng) voice are told apart; words take the speaker of their time', async () => {
  const recorder = new StereoRecorder(16_000);
  const lines: SampleCall['lines'] = [];
  let cursor = 0.4;
  for (const line of DIALOGUE) {
    const voice = line.side === 'agent' ? 'agent' : 'espeak-ng:en-us+m3';
    const speech = await synthesize(line.text, 'en-IN', { voice });
    recorder.place(line.side, cursor, speech.pcm);
    lines.push({ ...line, start: cursor, end: cursor + speech.pcm.length / 16_000 });
    cursor += speech.pcm.length / 16_000 + 0.5;
  }
  const call: SampleCall = { audio: recorder.render(), lines, durationSeconds: recorder.durationSeconds };
  const words = lines.map((line) => word(line.text.split(' ')[0]!, line.start + 0.05, line.start + 0.3));
  const diarization = diarizeByPitch(mixDown(call), 16_000, words, 2);
  const share = agreement(diarization, call);
  assert.ok(share > 0.85, `labelled correctly ${(share * 100).toFixed(1)}% of the time`);
  assert.equal(
    diarization.segments.map((segment) => segment.speaker),
    lines.map((line) => line.side),
  );
});

test('mono: one voice asked to split into two shows a weak separation', async () => {
  const call = await buildSampleCall(DIALOGUE.map((line) => ({ ...line, side: 'agent' as const })), { gapSeconds: 0.6 });
  const diarization = diarizeByPitch(mixDown(call), 16_000, [], 2);
  assert.not.ok(diarization.reliable, `pitch gap ${diarization.pitchGapSemitones} semitones`);
});

test('mono: one speaker requested labels everything agent', async () => {
  const samples = (await synthesize('Hello there.', 'en-IN')).pcm;
  const diarization = diarizeByPitch(samples, 16_000, [word('hello', 0.1, 0.4)], 1);
  assert.equal(diarization.segments.map((segment) => segment.speaker), ['agent']);
  assert.ok(diarization.reliable);
});

test.run();
