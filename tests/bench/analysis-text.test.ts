import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { heldOutMisses, measureTextAnalysis } from '../../bench/analysis-text.ts';
import { INTENT_LABELS, isIntentLabel } from '../../infra/analysis/intent-labels.ts';

interface HeldOutFile {
  split: string;
  written: string;
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

const heldOut: HeldOutFile = JSON.parse(
  readFileSync(new URL('../../bench/data/held-out-transcripts.json', import.meta.url), 'utf8'),
);
const transcripts = heldOut.transcripts;

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

test('the held-out slice is marked as such, dated, and holds at least 100 calls with unique ids', () => {
  assert.is(heldOut.split, 'held_out');
  assert.match(heldOut.written, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(transcripts.length >= 100, `${transcripts.length} transcripts`);
  assert.is(new Set(transcripts.map((t) => t.id)).size, transcripts.length);
  for (const t of transcripts) assert.is(t.split, 'held_out', t.id);
});

test('the slice is balanced across language groups, every intent label (and null) and the three signs', () => {
  const groups = countBy(transcripts, (t) => t.variant ?? t.language.slice(0, 2));
  assert.equal([...groups.keys()].sort(), ['en', 'hi', 'hinglish', 'mr', 'ta', 'te']);
  for (const [group, count] of groups) assert.ok(count >= 15, `${group}: ${count}`);
  const intents = countBy(transcripts, (t) => String(t.intent));
  for (const label of [...INTENT_LABELS, 'null']) assert.ok((intents.get(label) ?? 0) >= 8, `${label}: ${intents.get(label)}`);
  for (const t of transcripts) assert.ok(t.intent === null || isIntentLabel(t.intent), `${t.id}: ${t.intent}`);
  const signs = countBy(transcripts, (t) => String(t.sentiment));
  assert.equal([...signs.keys()].sort(), ['-1', '0', '1']);
  for (const [sign, count] of signs) assert.ok(count >= transcripts.length / 4, `sign ${sign}: ${count}`);
});

test('every held-out call has agent and customer turns in time order', () => {
  for (const t of transcripts) {
    const speakers = new Set(t.segments.map((s) => s.speaker));
    assert.ok(speakers.has('agent') && speakers.has('customer'), t.id);
    t.segments.forEach((segment, index) => {
      assert.ok(segment.text.trim().length > 0, t.id);
      assert.ok(segment.end_time > segment.start_time, t.id);
      if (index > 0) assert.ok(segment.start_time >= t.segments[index - 1]!.end_time, t.id);
    });
  }
});

test('measureTextAnalysis keeps its tuned-set fields and adds the held-out slice per language', () => {
  const figures = measureTextAnalysis({ runs: 1 });
  assert.is(figures.overall.transcripts, figures.byLanguage.reduce((sum, row) => sum + row.transcripts, 0));
  assert.equal(figures.bySplit.map((row) => row.group).sort(), ['dev', 'fresh', 'test']);
  assert.ok(figures.transcriptsPerSecond > 0);
  assert.ok(figures.heldOut);
  assert.is(figures.heldOut.overall.transcripts, transcripts.length);
  assert.equal(figures.heldOut.byLanguage.map((row) => row.group).sort(), ['en', 'hi', 'hinglish', 'mr', 'ta', 'te']);
  assert.equal(figures.sets.map((set) => set.set), ['tuned', 'held_out']);
  const misses = heldOutMisses();
  const intentMisses = misses.filter((miss) => miss.detectedIntent !== miss.expectedIntent).length;
  const expected = 1 - intentMisses / transcripts.length;
  assert.ok(Math.abs(figures.heldOut.overall.intentAccuracy - expected) < 1e-9);
});

test('a missing held-out file gives heldOut null, not an error', () => {
  const figures = measureTextAnalysis({ runs: 1, heldOutPath: '/nonexistent/held-out.json' });
  assert.is(figures.heldOut, null);
  assert.is(figures.sets.length, 1);
});

test.run();
