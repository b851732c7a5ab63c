/**
 * The issue-18 slices behind bench/analysis-sentiment.ts: the third to sixth slices and the round-5 training calls are
 * well formed, and the bench
 * measures every slice against its recorded columns, with the rules alone and with the call classifier.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { analyzerFor, measureSentimentSlices } from '../../bench/analysis-sentiment.ts';
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

const slice = (name: string): SliceFile =>
  JSON.parse(readFileSync(new URL(`../../bench/data/${name}-transcripts.json`, import.meta.url), 'utf8'));

const FILES = [['held-out-3', 'held_out_3'], ['held-out-4', 'held_out_4'], ['held-out-5', 'held_out_5'], ['held-out-6', 'held_out_6'], ['training-5', 'training_5']] as const;
for (const [name, split] of FILES) test(`given the ${name} slice, then it has at least 22 calls per language group with valid labels and a customer turn each`, () => {
  const perGroup = new Map<string, number>();
  const ids = new Set<string>();
  for (const call of slice(name).transcripts) {
    const group = call.variant ?? call.language.slice(0, 2);
    perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
    assert.ok(!ids.has(call.id), `duplicate id ${call.id}`);
    ids.add(call.id);
    assert.is(call.split, split);
    assert.ok(call.intent === null || isIntentLabel(call.intent), `${call.id}: intent ${call.intent}`);
    assert.ok([-1, 0, 1].includes(call.sentiment), `${call.id}: sentiment ${call.sentiment}`);
    assert.ok(call.segments.some((segment) => segment.speaker === 'customer'), `${call.id}: no customer turn`);
    for (const segment of call.segments) assert.ok(segment.end_time >= segment.start_time, call.id);
  }
  assert.equal([...perGroup.keys()].sort(), ['en', 'hi', 'hinglish', 'mr', 'ta', 'te']);
  for (const [group, calls] of perGroup) assert.ok(calls >= 22, `${group}: ${calls} calls`);
});

test('given the slices, when measured with the rules and with the classifier, then every group is counted and the recorded columns are read', () => {
  const slices = [...measureSentimentSlices(), ...measureSentimentSlices(['held_out_6'], analyzerFor('classifier'))];
  assert.equal(slices.map((slice) => slice.slice), ['held_out_2', 'held_out_3', 'held_out_4', 'held_out_5', 'held_out_6', 'held_out_6']);
  for (const slice of slices) {
    assert.ok(slice.cpuMsPerCall > 0);
    assert.is(slice.now.reduce((sum, row) => sum + row.calls, 0), slice.slice === 'held_out_5' ? 134 : 132);
    assert.ok(slice.before.length >= 1, `${slice.slice}: no recorded column`);
    for (const recorded of slice.before) assert.is(recorded.figures.length, 6);
    const wrong = slice.now.reduce((sum, row) => sum + (row.calls - row.intentCorrect) + (row.calls - row.signCorrect), 0);
    assert.ok(slice.misses.length <= wrong && (wrong === 0) === (slice.misses.length === 0));
  }
});

test.run();
