import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PocketSphinxRecognizer } from '../../../infra/speech/pocketsphinx.ts';
import { synthesize } from '../../../infra/speech/synthesize.ts';
import { resample } from '../../../processes/calling/call-recording.ts';
import { offlineConversationSpeech } from '../../../processes/calling/offline-speech.ts';
import type { AudioClip } from '../../../infra/telephony/port.ts';
import { scripts } from './fixtures.ts';

// The speech port's live hearing over the real PocketSphinx: an answer heard at the line's 8 kHz in 20 ms pieces
// gives the words the after-the-answer path gives; with no decoder free, or in a language without one, it falls
// back to that path.

async function lineAnswer(text: string): Promise<AudioClip> {
  const narrow = resample(await synthesize(text, 'en-IN'), 8000);
  const pcm = new Int16Array(narrow.length + 6400);
  pcm.set(narrow, 2400);
  return { pcm, sampleRate: 8000 };
}

function heardInPieces(live: { hear(chunk: AudioClip): void }, answer: AudioClip): void {
  for (let at = 0; at < answer.pcm.length; at += 160) live.hear({ pcm: answer.pcm.subarray(at, at + 160), sampleRate: 8000 });
}

test('given an English answer heard live, when it ends, then its words are those recognised after the answer', async () => {
  const speech = offlineConversationSpeech({ recognizer: new PocketSphinxRecognizer({ concurrency: 1 }) });
  const answer = await lineAnswer('no I am not interested');
  const afterwards = await speech.recognize!(answer, 'en-IN');
  const live = speech.hearLive!('en-IN', { script: scripts.en })!;
  heardInPieces(live, answer);
  const heard = await live.result(answer);
  assert.is(heard.text, afterwards.text);
  assert.ok(Math.abs(heard.confidence - afterwards.confidence) < 1e-9);
  assert.match(heard.text, /interested/);
});

test('given every decoder slot taken, when an answer is heard, then it is recognised whole once a slot frees', async () => {
  const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });
  const speech = offlineConversationSpeech({ recognizer });
  const holder = recognizer.startLive('en-IN')!;
  const answer = await lineAnswer('yes I am interested');
  const live = speech.hearLive!('en-IN', { script: scripts.en })!;
  heardInPieces(live, answer);
  const result = live.result(answer);
  holder.cancel();
  assert.match((await result).text, /interested/);
});

test('given Hindi (no offline recogniser), there is no live hearing and no recognition', async () => {
  const speech = offlineConversationSpeech({ recognizer: new PocketSphinxRecognizer({ concurrency: 1 }) });
  assert.is(speech.hearLive!('hi-IN', { script: scripts.hi }), undefined);
  assert.equal(await speech.recognize!({ pcm: new Int16Array(800), sampleRate: 8000 }, 'hi-IN'), { text: '', confidence: 0 });
});

test.run();
