import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PocketSphinxRecognizer } from '../../../infra/speech/pocketsphinx.ts';
import { synthesize } from '../../../infra/speech/synthesize.ts';
import { resample } from '../../../processes/calling/call-recording.ts';
import { StreamingUpsampler } from '../../../processes/calling/streaming-upsampler.ts';

// The live decoder (pocketsphinx-live.ts): the real pocketsphinx_continuous fed through a FIFO while the audio
// "arrives" (20 ms frames at real-time pace), against a decode of the same audio after the fact.

/** An answer as the SIP line hears it: 8 kHz, with quiet before and after, upsampled the way the line's answers are. */
async function lineAnswer(text: string): Promise<Int16Array> {
  const speech = await synthesize(text, 'en-IN');
  const narrow = resample(speech, 8000);
  const padded = new Int16Array(narrow.length + 8000);
  padded.set(narrow, 0.3 * 8000);
  return padded;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('given an answer fed live in 20 ms frames, when it ends, then the words are those of a decode after the fact', async () => {
  const narrow = await lineAnswer('yes I am interested in the loan');
  const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });
  const afterwards = await recognizer.recognize(resample({ pcm: narrow, sampleRate: 8000 }, 16_000), 'en-IN');

  const live = recognizer.startLive('en-IN')!;
  assert.ok(live, 'a live decoder is free');
  const upsampler = new StreamingUpsampler(2);
  for (let at = 0; at < narrow.length; at += 160) {
    live.write(upsampler.push(narrow.subarray(at, at + 160)));
    // Real time for the first second (the decoder starts meanwhile), then as fast as it goes.
    if (at < 8000) await sleep(20);
  }
  live.write(upsampler.flush());
  const words = await live.finish();
  assert.is(words.map((word) => word.word).join(' '), afterwards.text);
  assert.match(afterwards.text, /\binterested\b/);
});

test('given every decoder slot taken, when another answer starts, then no live decoder is started (the answer is decoded afterwards)', async () => {
  const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });
  const first = recognizer.startLive('en-IN')!;
  assert.is(recognizer.startLive('en-IN'), null);
  // A variant with another language model shares the same bound.
  assert.is(recognizer.withLanguageModel('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin').startLive('en-IN'), null);
  first.cancel();
  // The slot comes back once the cancelled decoder has exited.
  let again = null;
  for (let tries = 0; tries < 100 && again === null; tries++) {
    await sleep(50);
    again = recognizer.startLive('en-IN');
  }
  assert.ok(again, 'the slot was given back');
  again!.write(new Int16Array(1600));
  assert.equal(await again!.finish(), [], 'quiet: no words');
});

test('given a cancelled decoding, when it is finished anyway, then it rejects rather than hangs', async () => {
  const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });
  const live = recognizer.startLive('en-IN')!;
  live.write(new Int16Array(3200));
  live.cancel();
  await live.finish().then(
    () => assert.unreachable('a cancelled decoding has no words'),
    () => undefined,
  );
});

test('the streaming upsampler equals resample() of the whole, however the input is cut', () => {
  let seed = 3;
  const input = Int16Array.from({ length: 1234 }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), (seed % 60000) - 30000));
  const whole = resample({ pcm: input, sampleRate: 8000 }, 16_000);
  for (const cut of [1, 7, 160, 1000]) {
    const upsampler = new StreamingUpsampler(2);
    const parts: number[] = [];
    for (let at = 0; at < input.length; at += cut) parts.push(...upsampler.push(input.subarray(at, at + cut)));
    parts.push(...upsampler.flush());
    assert.equal(Int16Array.from(parts), whole, `cut every ${cut}`);
  }
  assert.throws(() => new StreamingUpsampler(1.5));
});

test('Hindi has no live decoder either', () => {
  assert.throws(() => new PocketSphinxRecognizer().startLive('hi-IN'), /hi-IN/);
});

test.run();
