/**
 * The issue-18 slices behind bench/analysis-sentiment.ts: the third (held-out) slice is well formed, and the bench
 * measures every slice against its recorded columns.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { measureSentimentSlices } from '../../bench/analysis-sentiment.ts';
import { isIntentLabel } from '../../infra/analysis/intent-labels.ts';

interface SliceFile {
  split: string;
  transcripts: {
    id: string;
    language: string;
    variant?: string;
    split: string;
    intent: string | null;
    sentiment: number;
    segments: { speaker: string; text: string; start_time: number; end_time: number }[];
  }[];
}

const third: SliceFile = JSON.parse(
  readFileSync(new URL('../../bench/data/held-out-3-transcripts.json', import.meta.url), 'utf8'),
);

test('given the third slice, then it has at least 22 calls per language group with valid labels and a customer turn each', () => {
  const perGroup = new Map<string, number>();
  const ids = new Set<string>();
  for (const call of third.transcripts) {
    const group = call.variant ?? call.language.slice(0, 2);
    perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
    assert.ok(!ids.has(call.id), `duplicate id ${call.id}`);
    ids.add(call.id);
    assert.is(call.split, 'held_out_3');
    assert.ok(call.intent === null || isIntentLabel(call.intent), `${call.id}: intent ${call.intent}`);
    assert.ok([-1, 0, 1].includes(call.sentiment), `${call.id}: sentiment ${call.sentiment}`);
    assert.ok(call.segments.some((segment) => segment.speaker === 'customer'), `${call.id}: no customer turn`);
    for (const segment of call.segments) assert.ok(segment.end_time >= segment.start_time, call.id);
  }
  assert.equal([...perGroup.keys()].sort(), ['en', 'hi', 'hinglish', 'mr', 'ta', 'te']);
  for (const [group, calls] of perGroup) assert.ok(calls >= 22, `${group}: ${calls} calls`);
});

test('given both slices, when measured, then every group is counted and the recorded columns are read', () => {
  const slices = measureSentimentSlices();
  assert.equal(slices.map((slice) => slice.slice), ['held_out_2', 'held_out_3']);
  for (const slice of slices) {
    assert.is(slice.now.reduce((sum, row) => sum + row.calls, 0), 132);
    assert.ok(slice.before.length >= 1, `${slice.slice}: no recorded column`);
    for (const recorded of slice.before) assert.is(recorded.figures.length, 6);
    const wrong = slice.now.reduce((sum, row) => sum + (row.calls - row.intentCorrect) + (row.calls - row.signCorrect), 0);
    assert.ok(slice.misses.length <= wrong && (wrong === 0) === (slice.misses.length === 0));
  }
});

test.run();
