import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BoundedMemo } from '../../../infra/cache/bounded-memo.ts';

test('remembers results (undefined too), not failures; when full it starts over', () => {
  const memo = new BoundedMemo<string, number | undefined>(2);
  let computed = 0;
  const compute = (key: string) => {
    computed++;
    if (key === 'bad') throw new Error('bad');
    return key === 'none' ? undefined : key.length;
  };
  assert.is(memo.get('abc', compute), 3);
  assert.is(memo.get('none', compute), undefined);
  assert.is(memo.get('abc', compute), 3);
  assert.is(memo.get('none', compute), undefined);
  assert.is(computed, 2);
  assert.throws(() => memo.get('bad', compute));
  assert.throws(() => memo.get('bad', compute));
  assert.is(computed, 4, 'a failure is computed again');
  memo.get('four', compute);
  memo.get('abc', compute);
  assert.is(computed, 6, 'the third key started it over');
  memo.clear();
  memo.get('four', compute);
  assert.is(computed, 7);
});

test.run();
