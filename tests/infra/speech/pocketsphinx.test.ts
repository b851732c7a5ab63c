import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OperationAbortedError } from '../../../infra/speech/external-tool.ts';
import { parseTimedOutput, PocketSphinxRecognizer } from '../../../infra/speech/pocketsphinx.ts';
import { LanguageNotSupportedError } from '../../../infra/speech/port.ts';
import { synthesize } from '../../../infra/speech/synthesize.ts';
import { StereoRecorder } from '../../../infra/speech/wav.ts';
import { wordErrorRate } from '../../../infra/speech/wer.ts';

const FIRST = 'Good morning, I am calling from the bank about your loan.';
const SECOND = 'Your payment for this month is still due.';

test('parses word lines, drops fillers and pronunciation variants, clamps posteriors', () => {
  const output = [
    'hello this is the bank',
    '<s> 0.000 0.140 0.999600',
    'hello(2) 0.150 0.400 0.815606',
    '<sil> 1.670 1.760 0.722789',
    '[NOISE] 1.800 1.900 0.5',
    'bank 2.020 2.330 1.000200',
    '</s> 5.510 5.540 1.000000',
  ].join('\n');
  assert.equal(parseTimedOutput(output), [
    { word: 'hello', start: 0.15, end: 0.4, confidence: 0.815606 },
    { word: 'bank', start: 2.02, end: 2.33, confidence: 1 },
  ]);
});

test('Hindi is refused with language_not_supported and a hint at SPEECH_API_URL', async () => {
  const recognizer = new PocketSphinxRecognizer();
  assert.not.ok(recognizer.supports('hi-IN'));
  assert.ok(recognizer.supports('en-IN'));
  try {
    await recognizer.recognize(new Int16Array(16_000), 'hi-IN');
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, LanguageNotSupportedError);
    assert.is((error as LanguageNotSupportedError).code, 'language_not_supported');
    assert.match((error as Error).message, /SPEECH_API_URL/);
  }
});

test('recognises Festival English with word times, in pieces cut at the pause between sentences', async () => {
  const first = await synthesize(FIRST, 'en-IN');
  const second = await synthesize(SECOND, 'en-IN');
  const recorder = new StereoRecorder(16_000);
  recorder.place('agent', 0.3, first.pcm);
  const secondStart = 0.3 + first.pcm.length / 16_000 + 1.5;
  recorder.place('agent', secondStart, second.pcm);
  const [audio] = recorder.render().channels;
  // A piece limit shorter than the audio forces two pieces, recognised in parallel.
  const recognizer = new PocketSphinxRecognizer({ maxChunkSeconds: secondStart + 0.5, concurrency: 2 });
  const result = await recognizer.recognize(audio, 'en-IN');
  const wer = wordErrorRate(`${FIRST} ${SECOND}`, result.text);
  assert.ok(wer.rate < 0.25, `WER ${wer.rate}: ${result.text}`);
  for (const word of result.words) {
    assert.ok(word.confidence >= 0 && word.confidence <= 1);
    assert.ok(word.end >= word.start);
  }
  const payment = result.words.find((word) => word.word === 'payment');
  assert.ok(payment !== undefined, result.text);
  assert.ok(payment.start > secondStart && payment.end < secondStart + second.pcm.length / 16_000, `payment at ${payment.start}`);
  const morning = result.words.find((word) => word.word === 'morning');
  assert.ok(morning !== undefined && morning.start < 2, result.text);
});

test('silence yields no words', async () => {
  const result = await new PocketSphinxRecognizer().recognize(new Int16Array(16_000 * 3), 'en-US');
  assert.equal(result, { words: [], text: '' });
});

test('an aborted recognition stops with OperationAbortedError', async () => {
  const speech = await synthesize(FIRST, 'en-IN');
  const controller = new AbortController();
  const pending = new PocketSphinxRecognizer().recognize(speech.pcm, 'en-IN', controller.signal);
  setTimeout(() => controller.abort(), 50);
  try {
    await pending;
    assert.unreachable('should have been aborted');
  } catch (error) {
    assert.instance(error, OperationAbortedError);
  }
});

test.run();
