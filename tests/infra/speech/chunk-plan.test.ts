import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planChunks } from '../../../infra/speech/chunk-plan.ts';

const RATE = 16_000;

/** A tone over each [start, end] span (seconds), silence elsewhere. */
function speechAt(totalSeconds: number, ...spans: Array<[number, number]>): Int16Array {
  const samples = new Int16Array(totalSeconds * RATE);
  for (const [start, end] of spans) {
    for (let index = start * RATE; index < end * RATE; index++) samples[index] = Math.round(5_000 * Math.sin(index / 6));
  }
  return samples;
}

test('short audio is one piece', () => {
  const chunks = planChunks(speechAt(10, [1, 4], [5, 9]), { sampleRate: RATE, maxChunkSeconds: 60 });
  assert.is(chunks.length, 1);
  assert.equal([chunks[0]!.startSample, chunks[0]!.endSample], [0, 10 * RATE]);
});

test('long audio is cut in the middle of the longest pause in the second half of each span', () => {
  // Pauses at 4-5 s (short) and 7-9 s (long); max piece 10 s: the cut falls at 8 s, not inside speech.
  const chunks = planChunks(speechAt(16, [0.5, 4], [5, 7], [9, 15.5]), { sampleRate: RATE, maxChunkSeconds: 10 });
  assert.is(chunks.length, 2);
  assert.is(chunks[0]!.endSample, 8 * RATE);
  assert.is(chunks[1]!.startSample, 8 * RATE);
  assert.is(chunks[1]!.endSample, 16 * RATE);
});

test('speech without pauses is cut hard at the limit', () => {
  const chunks = planChunks(speechAt(25, [0, 25]), { sampleRate: RATE, maxChunkSeconds: 10 });
  assert.equal(
    chunks.map((chunk) => [chunk.startSample / RATE, chunk.endSample / RATE]),
    [
      [0, 10],
      [10, 20],
      [20, 25],
    ],
  );
});

test('pieces with no speech at all are left out', () => {
  const chunks = planChunks(speechAt(40, [1, 3], [35, 38]), { sampleRate: RATE, maxChunkSeconds: 10 });
  assert.ok(chunks.length >= 2);
  for (const chunk of chunks) assert.ok(chunk.speech.length > 0);
  assert.ok(chunks.every((chunk) => chunk.endSample <= 40 * RATE));
  assert.is(planChunks(new Int16Array(5 * RATE), { sampleRate: RATE, maxChunkSeconds: 10 }).length, 0);
});

test.run();
