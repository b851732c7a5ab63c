// End to end: a synthesised two-party English call (Festival agent on the left, the lower customer voice on the
// right), encoded to every supported format, decoded, recognised by PocketSphinx and diarised.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PocketSphinxRecognizer } from '../../../infra/speech/pocketsphinx.ts';
import { LanguageNotSupportedError } from '../../../infra/speech/port.ts';
import { buildSampleCall, mixDown, type SampleCall, type ScriptLine } from '../../../infra/speech/sample-call.ts';
import { transcribeAudioFile, type Transcription } from '../../../infra/speech/transcribe.ts';
import { encodeWav } from '../../../infra/speech/wav.ts';
import { wordErrorRate } from '../../../infra/speech/wer.ts';

const SCRIPT: ScriptLine[] = [
  { side: 'agent', text: 'Good morning, I am calling from the bank about your loan.' },
  { side: 'customer', text: 'Yes, I have a few minutes to talk.' },
  { side: 'agent', text: 'Your payment for this month is still due. Can you pay it this week?' },
  { side: 'customer', text: 'I will make the payment on Friday.' },
  { side: 'agent', text: 'Thank you very much. Have a nice day.' },
  { side: 'customer', text: 'Thank you, goodbye.' },
];
const REFERENCE = SCRIPT.map((line) => line.text).join(' ');
const MAX_WER = 0.25;

const directory = mkdtempSync(join(tmpdir(), 'transcribe-test-'));
const recognizer = new PocketSphinxRecognizer();
const call = await buildSampleCall(SCRIPT);
// The first exchange alone, for the checks that need a two-party recording but not the whole call.
const shortCall = await buildSampleCall(SCRIPT.slice(0, 2));
const SHORT_REFERENCE = SCRIPT.slice(0, 2).map((line) => line.text).join(' ');
const stereoPath = join(directory, 'call.wav');
writeFileSync(stereoPath, encodeWav(call.audio));

function encode(name: string, ...codecArgs: string[]): string {
  const path = join(directory, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', stereoPath, ...codecArgs, path]);
  return path;
}

/** Every segment must lie within a line of its speaker's side (segment times are word times, inside the line). */
function assertSpeakersMatchScript(transcription: Transcription, placed: SampleCall): void {
  for (const segment of transcription.segments) {
    const middle = (segment.start_time + segment.end_time) / 2;
    const line = placed.lines.find((candidate) => middle >= candidate.start - 0.1 && middle <= candidate.end + 0.1);
    assert.ok(line !== undefined, `segment at ${middle} s matches no line`);
    assert.is(segment.speaker, line.side, `"${segment.text}" at ${middle} s`);
  }
}

const wers: string[] = [];

const FORMATS: Array<[name: string, path: () => string]> = [
  ['wav', () => stereoPath],
  ['mp3', () => encode('call.mp3', '-c:a', 'libmp3lame', '-b:a', '64k')],
  ['ogg vorbis', () => encode('call.ogg', '-c:a', 'libvorbis', '-q:a', '3')],
  // Opus at 32 kb/s for both channels garbles the first words after a long digital silence; 48 kb/s does not.
  ['ogg opus', () => encode('call.opus', '-c:a', 'libopus', '-b:a', '48k')],
  ['flac', () => encode('call.flac')],
  ['m4a', () => encode('call.m4a', '-c:a', 'aac', '-b:a', '64k')],
];

for (const [name, path] of FORMATS) {
  test(`${name}: stereo call transcribed with WER under ${MAX_WER * 100}% and each side labelled by channel`, async () => {
    const transcription = await transcribeAudioFile(path(), { language: 'en-IN', recognizer });
    assert.is(transcription.channels, 2);
    assert.equal(transcription.diarization, { method: 'channel', reliable: true, pitchGapSemitones: null });
    assert.ok(Math.abs(transcription.durationSeconds - call.durationSeconds) < 0.1);
    const wer = wordErrorRate(REFERENCE, transcription.segments.map((segment) => segment.text).join(' '));
    wers.push(`${name} ${(wer.rate * 100).toFixed(1)}%`);
    assert.ok(wer.rate < MAX_WER, `WER ${wer.rate}`);
    assertSpeakersMatchScript(transcription, call);
    assert.equal(
      transcription.segments.map((segment) => segment.speaker),
      SCRIPT.map((line) => line.side),
    );
    for (const segment of transcription.segments) {
      assert.ok(segment.confidence >= 0 && segment.confidence <= 1);
      assert.is(segment.start_time, Math.round(segment.start_time * 100) / 100);
    }
  });
}

test('mono mix: diarised by pitch, the agent (who speaks first) and the customer are labelled per turn', async () => {
  const monoPath = join(directory, 'mono.wav');
  writeFileSync(monoPath, encodeWav({ sampleRate: 16_000, channels: [mixDown(call)] }));
  const transcription = await transcribeAudioFile(monoPath, { language: 'en-IN', recognizer, speakers: 2 });
  assert.is(transcription.channels, 1);
  assert.is(transcription.diarization.method, 'pitch');
  assert.ok(transcription.diarization.reliable);
  assertSpeakersMatchScript(transcription, call);
  const wer = wordErrorRate(REFERENCE, transcription.segments.map((segment) => segment.text).join(' '));
  assert.ok(wer.rate < MAX_WER, `WER ${wer.rate}`);
});

test('a stereo file with the same signal on both channels is treated as mono, not transcribed twice', async () => {
  const mono = mixDown(shortCall);
  const duplicatePath = join(directory, 'duplicate.wav');
  writeFileSync(duplicatePath, encodeWav({ sampleRate: 16_000, channels: [mono, mono] }));
  const transcription = await transcribeAudioFile(duplicatePath, { language: 'en-IN', recognizer, speakers: 2 });
  assert.is(transcription.channels, 2);
  assert.is(transcription.diarization.method, 'pitch');
  const wer = wordErrorRate(SHORT_REFERENCE, transcription.segments.map((segment) => segment.text).join(' '));
  assert.ok(wer.rate < MAX_WER, `WER ${wer.rate} (duplicated words would double it)`);
  assert.equal(
    transcription.segments.map((segment) => segment.speaker),
    ['agent', 'customer'],
  );
});

test('one speaker requested: every segment is the agent', async () => {
  const path = join(directory, 'short.wav');
  writeFileSync(path, encodeWav(shortCall.audio));
  const transcription = await transcribeAudioFile(path, { language: 'en-IN', recognizer, speakers: 1 });
  assert.ok(transcription.segments.length >= 2);
  assert.ok(transcription.segments.every((segment) => segment.speaker === 'agent'));
  assert.is(transcription.diarization.method, 'single_speaker');
});

test('Hindi with the PocketSphinx recogniser fails with language_not_supported before decoding', async () => {
  try {
    await transcribeAudioFile(join(directory, 'does-not-exist.wav'), { language: 'hi-IN', recognizer });
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, LanguageNotSupportedError);
    assert.is((error as LanguageNotSupportedError).code, 'language_not_supported');
  }
});

test.after(() => {
  console.log(`\n  WER per format: ${wers.join(', ')}`);
  rmSync(directory, { recursive: true, force: true });
});

test.run();
