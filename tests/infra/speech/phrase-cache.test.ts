import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PhraseCache } from '../../../infra/speech/phrase-cache.ts';

test('produces once per key, evicts the least recently used entry', async () => {
  const produced: string[] = [];
  const cache = new PhraseCache<string>({ maxEntries: 2, maxBytes: 1_000 }, (value) => value.length);
  const make = (key: string) => cache.getOrCreate(key, async () => (produced.push(key), key.toUpperCase()));
  assert.is(await make('a'), 'A');
  assert.is(await make('b'), 'B');
  assert.is(await make('a'), 'A'); // a becomes most recent
  await make('c'); // evicts b
  await make('a');
  await make('b');
  assert.equal(produced, ['a', 'b', 'c', 'b']);
});

test('a byte budget evicts too; a failed production is not kept', async () => {
  const cache = new PhraseCache<string>({ maxEntries: 100, maxBytes: 10 }, (value) => value.length);
  await cache.getOrCreate('x', async () => '123456');
  await cache.getOrCreate('y', async () => '123456');
  await Promise.resolve();
  assert.is(cache.size, 1);
  let attempts = 0;
  const failing = () =>
    cache.getOrCreate('z', async () => {
      attempts++;
      throw new Error('synthesis failed');
    });
  await failing().catch(() => undefined);
  await failing().catch(() => undefined);
  assert.is(attempts, 2);
});

test.run();
