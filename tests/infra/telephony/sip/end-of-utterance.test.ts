import { test } from 'uvu';
import * as assert from 'uvu/assert';
import alawmulaw from 'alawmulaw';
import { synthesize } from '../../../../infra/speech/synthesize.ts';
import { DEFAULT_END_SILENCE_MS, endOfUtterance, UtteranceDetector, type UtteranceEvent } from '../../../../infra/telephony/sip/utterance-detector.ts';
import { resample } from '../../../../processes/calling/call-recording.ts';

// When a spoken answer is over (issue 17: the next prompt within 1 s of the end of speech, without cutting a customer
// who pauses mid-sentence). The rule, then real answers (Festival, through G.711 A-law as the line carries them)
// with pauses inside, fed to the detector 20 ms frame by frame.

test('given less quiet than the rule, the answer goes on; given as much or more, it has ended', () => {
  const rule = { endSilenceMs: 500 };
  assert.not.ok(endOfUtterance(0, rule));
  assert.not.ok(endOfUtterance(480, rule));
  assert.ok(endOfUtterance(500, rule));
  assert.ok(endOfUtterance(2000, rule));
  assert.is(DEFAULT_END_SILENCE_MS, 500);
});

/** Phrases joined by pauses of the given seconds between their words, with 0.5 s of quiet before and 1.5 s after, at 8 kHz through A-law. */
async function spoken(phrases: string[], pauses: number[]): Promise<Int16Array> {
  const parts: Int16Array[] = [new Int16Array(4000)];
  for (const [index, phrase] of phrases.entries()) {
    if (index > 0) parts.push(new Int16Array(Math.round(pauses[index - 1]! * 8000)));
    parts.push(trimmed(resample(await synthesize(phrase, 'en-IN'), 8000)));
  }
  parts.push(new Int16Array(12_000));
  const pcm = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    pcm.set(part, at);
    at += part.length;
  }
  return alawmulaw.alaw.decode(alawmulaw.alaw.encode(pcm));
}

/** Without the synthesiser's own quiet before and after the words, so a pause is as long as the test says. */
function trimmed(pcm: Int16Array): Int16Array {
  const loud = (sample: number) => Math.abs(sample) > 300;
  const first = pcm.findIndex(loud);
  const last = pcm.findLastIndex(loud);
  return first < 0 ? new Int16Array(0) : pcm.subarray(first, last + 1);
}

/** The detector's events, and the frame at which each was decided. */
function detect(pcm: Int16Array, endSilenceMs?: number): Array<{ event: NonNullable<UtteranceEvent>; decidedAt: number }> {
  const detector = new UtteranceDetector(endSilenceMs === undefined ? {} : { endSilenceMs });
  const events: Array<{ event: NonNullable<UtteranceEvent>; decidedAt: number }> = [];
  for (let frame = 0; (frame + 1) * 160 <= pcm.length; frame++) {
    const event = detector.push(pcm.subarray(frame * 160, (frame + 1) * 160));
    if (event) events.push({ event, decidedAt: frame });
  }
  return events;
}

test('given an answer with a comma pause (Festival, about 0.2 s), when it is heard, then it is one answer', async () => {
  const events = detect(await spoken(['yes, I am interested in renewing my loan'], []));
  assert.equal(events.map(({ event }) => event.kind), ['start', 'end']);
});

test('given an answer with a 0.4 s hesitation mid-sentence, when it is heard, then it is one answer', async () => {
  const events = detect(await spoken(['no', 'I am not interested'], [0.4]));
  assert.equal(events.map(({ event }) => event.kind), ['start', 'end']);
  const other = detect(await spoken(['I will pay', 'next week'], [0.45]));
  assert.equal(other.map(({ event }) => event.kind), ['start', 'end']);
});

test('given a pause longer than the rule, when it is heard, then the answer ends there and what follows is another', async () => {
  const events = detect(await spoken(['yes', 'what is the interest rate'], [1.0]));
  assert.equal(events.map(({ event }) => event.kind), ['start', 'end', 'start', 'end']);
  // With a longer rule (SIP_END_OF_UTTERANCE_MS=1200) the same pause stays inside the answer.
  assert.equal(detect(await spoken(['yes', 'what is the interest rate'], [1.0]), 1200).map(({ event }) => event.kind), ['start', 'end']);
});

test('given the end of an answer, when the rule is met, then it is decided that much after the last voiced frame, and no later', async () => {
  const events = detect(await spoken(['yes I am interested'], []));
  const end = events.find(({ event }) => event.kind === 'end')!;
  // event.frame is the first quiet frame; the decision comes at the 25th quiet frame (500 ms).
  assert.is(end.decidedAt - end.event.frame + 1, DEFAULT_END_SILENCE_MS / 20);
});

test.run();
