import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bucketsOf, coverRange, GRAINS } from '../../projections/time-buckets.ts';

/** UTC time buckets of the analytics rollups: a range is covered exactly, by few and coarse buckets. */
const at = (iso: string) => Date.parse(iso);
const minute = (iso: string) => at(iso) / 60_000;

test('a call counts in its quarter hour, hour and UTC day', () => {
  assert.equal(bucketsOf(at('2026-03-29T23:44:59.999Z')), [
    { grain: 15, bucket: minute('2026-03-29T23:30:00Z') },
    { grain: 60, bucket: minute('2026-03-29T23:00:00Z') },
    { grain: 1440, bucket: minute('2026-03-29T00:00:00Z') },
  ]);
  assert.equal(bucketsOf(at('1969-12-31T23:50:00Z'))[2], { grain: 1440, bucket: minute('1969-12-31T00:00:00Z') }, 'before the epoch too');
});

test('a Kolkata day: two quarters at each end, 23 hours between (no whole UTC day fits), no edges', () => {
  const { runs, edges } = coverRange(at('2026-03-01T18:30:00Z'), at('2026-03-02T18:30:00Z'));
  assert.equal(edges, []);
  assert.equal(runs, [
    { grain: 15, from: minute('2026-03-01T18:30:00Z'), to: minute('2026-03-01T19:00:00Z') },
    { grain: 60, from: minute('2026-03-01T19:00:00Z'), to: minute('2026-03-02T18:00:00Z') },
    { grain: 15, from: minute('2026-03-02T18:00:00Z'), to: minute('2026-03-02T18:30:00Z') },
  ]);
});

test('datetime bounds inside a quarter hour: edges under 15 minutes at each end', () => {
  const { runs, edges } = coverRange(at('2026-02-01T10:07:00Z'), at('2026-02-04T16:53:20.001Z'));
  assert.equal(edges, [
    { fromMs: at('2026-02-01T10:07:00Z'), toMs: at('2026-02-01T10:15:00Z') },
    { fromMs: at('2026-02-04T16:45:00Z'), toMs: at('2026-02-04T16:53:20.001Z') },
  ]);
  assert.equal(runs.map((run) => run.grain), [15, 60, 1440, 60, 15]);
  assert.equal(coverRange(at('2026-02-01T10:07:00Z'), at('2026-02-01T10:14:00Z')), { runs: [], edges: [{ fromMs: at('2026-02-01T10:07:00Z'), toMs: at('2026-02-01T10:14:00Z') }] });
  assert.equal(coverRange(at('2026-02-01T10:07:00Z'), at('2026-02-01T10:07:00Z')), { runs: [], edges: [] });
});

test('random ranges: covered exactly once, by at most 3 quarters and 23 hours a side', () => {
  let seed = 11;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let index = 0; index < 2_000; index += 1) {
    const from = at('2025-12-01T00:00:00Z') + Math.floor(random() * 60 * 86_400_000) * (index % 4 === 0 ? 1 : 0) + Math.floor(random() * 96) * 900_000 + (index % 3 === 0 ? Math.floor(random() * 900_000) : 0);
    const to = from + Math.floor(random() * (index % 2 ? 3 : 400) * 86_400_000) + (index % 5 === 0 ? Math.floor(random() * 900_000) : 0);
    const { runs, edges } = coverRange(from, to);
    const pieces = [...edges.map((edge) => [edge.fromMs, edge.toMs]), ...runs.map((run) => [run.from * 60_000, run.to * 60_000])].sort((a, b) => a[0]! - b[0]!);
    let cursor = from;
    for (const [start, end] of pieces) {
      assert.is(start, cursor, 'contiguous, no overlap');
      assert.ok(end! > start!);
      cursor = end!;
    }
    assert.is(cursor, from < to ? to : from, 'up to the end');
    for (const run of runs) assert.ok(run.from % run.grain === 0 && run.to % run.grain === 0, 'whole buckets');
    for (const edge of edges) assert.ok(edge.toMs - edge.fromMs < 900_000);
    for (const grain of GRAINS.slice(0, -1)) {
      const count = runs.filter((run) => run.grain === grain).reduce((total, run) => total + (run.to - run.from) / grain, 0);
      assert.ok(count <= 2 * ((grain === 15 ? 60 : 1440) / grain - 1), `grain ${grain}: ${count} buckets`);
    }
  }
});

test.run();
