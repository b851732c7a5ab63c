import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { estimatedStateBytes } from '../../commands/state-bytes.ts';

test('a state is estimated by what it holds: a long string counts its characters, a short one a little', () => {
  const small = estimatedStateBytes({ status: 'active', version: 3, latest: { name: 'Loan renewal' } });
  const large = estimatedStateBytes({ status: 'active', version: 3, latest: { name: 'x'.repeat(1_000_000) } });
  assert.ok(small < 1_024, String(small));
  assert.ok(large >= 2_000_000, String(large));
});

test('arrays, maps and sets count their elements; typed arrays their buffers', () => {
  const segments = Array.from({ length: 1_000 }, (_, index) => ({ speaker: 'agent', text: `line ${index}`, start_time: index, end_time: index + 1 }));
  assert.ok(estimatedStateBytes({ segments }) > 100_000, 'a thousand small objects');
  assert.ok(estimatedStateBytes({ retries: new Map(Array.from({ length: 1_000 }, (_, index) => [`c${index}`, index])) }) > 24_000);
  assert.ok(estimatedStateBytes({ seen: new Set(Array.from({ length: 1_000 }, (_, index) => `+91${index}`)) }) > 16_000);
  const table = new Uint32Array(250_000);
  const bytes = estimatedStateBytes({ table });
  assert.ok(bytes >= table.byteLength && bytes < table.byteLength + 1_024, String(bytes));
});

test('a value reached twice counts once, and a cycle ends the walk', () => {
  const shared = { text: 'y'.repeat(100_000) };
  const once = estimatedStateBytes({ a: shared });
  const twice = estimatedStateBytes({ a: shared, b: shared });
  assert.ok(twice - once < 64, `${once} then ${twice}`);
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  assert.ok(estimatedStateBytes(cyclic) < 1_024);
});

test('primitives and empty states are small and never throw', () => {
  for (const value of [null, undefined, 0, 1n, true, 'x', {}, [], new Date(0)]) assert.ok(estimatedStateBytes(value) < 128, String(value));
});

test.run();
