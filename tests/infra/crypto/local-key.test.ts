import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadOrCreateKey } from '../../../infra/crypto/local-key.ts';

const directory = mkdtempSync(join(tmpdir(), 'local-key-'));

test('a new key: 32 random bytes, written as 64 hex characters (0600), no temporary file left, the same on every load', () => {
  const path = join(directory, 'a.key');
  const key = loadOrCreateKey(path);
  assert.is(key.length, 32);
  assert.match(readFileSync(path, 'utf8'), /^[0-9a-f]{64}$/);
  assert.is(statSync(path).mode & 0o777, 0o600);
  assert.equal(readdirSync(directory).filter((file) => file.endsWith('.tmp')), []);
  assert.equal(loadOrCreateKey(path), key);
});

test('an empty, short or non-hex key file stops the start with a message instead of yielding a short key', () => {
  for (const [name, content] of [['empty', ''], ['short', 'abcd'], ['not-hex', 'z'.repeat(64)], ['long', 'a'.repeat(66)]] as const) {
    const path = join(directory, `${name}.key`);
    writeFileSync(path, content);
    assert.throws(() => loadOrCreateKey(path), /is not a key \(expected 64 hex characters\)/, name);
  }
});

test('a configured key is used as given', () => {
  assert.equal(loadOrCreateKey(join(directory, 'unused.key'), 'a configured secret of at least 32 characters'), Buffer.from('a configured secret of at least 32 characters'));
});

test.after(() => rmSync(directory, { recursive: true, force: true }));

test.run();
