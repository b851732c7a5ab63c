import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSecretBox, SecretBox, UnreadableSecret } from '../../../infra/crypto/secret-box.ts';

const box = new SecretBox(Buffer.from('a key of the service, at least thirty-two characters'));

test('seals to a different text every time, and opens back to the plaintext', () => {
  const first = box.seal('whsec_é_Ünïcode', 'wh_1');
  const second = box.seal('whsec_é_Ünïcode', 'wh_1');
  assert.is.not(first, second, 'a fresh IV each time');
  assert.match(first, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.not.match(first, 'whsec');
  assert.is(box.open(first, 'wh_1'), 'whsec_é_Ünïcode');
  assert.is(box.open(second, 'wh_1'), 'whsec_é_Ünïcode');
});

test('does not open under another owner, another key, or when altered', () => {
  const sealed = box.seal('whsec_1', 'wh_1');
  assert.throws(() => box.open(sealed, 'wh_2'), (error: unknown) => error instanceof UnreadableSecret);
  assert.throws(() => new SecretBox(Buffer.from('another key')).open(sealed, 'wh_1'), (error: unknown) => error instanceof UnreadableSecret);
  const [version, iv, tag, ciphertext] = sealed.split('.');
  const flipped = `${ciphertext!.startsWith('A') ? 'B' : 'A'}${ciphertext!.slice(1)}`;
  for (const altered of [`${version}.${iv}.${tag}.${flipped}`, `v2.${iv}.${tag}.${ciphertext}`, 'whsec_plain', `${sealed}.x`]) {
    assert.throws(() => box.open(altered, 'wh_1'), (error: unknown) => error instanceof UnreadableSecret, altered);
  }
});

test('the key: SECRETS_KEY when set, else a file made once in DATA_DIR (0600) that later starts reuse', () => {
  const directory = mkdtempSync(join(tmpdir(), 'secret-box-'));
  try {
    const keyPath = join(directory, 'secrets.key');
    const sealed = loadSecretBox(keyPath).seal('whsec_1', 'wh_1');
    assert.is(statSync(keyPath).mode & 0o777, 0o600);
    assert.is(loadSecretBox(keyPath).open(sealed, 'wh_1'), 'whsec_1', 'a restart opens what was sealed before');
    const configured = 'x'.repeat(40);
    assert.is(loadSecretBox(join(directory, 'unused.key'), configured).open(loadSecretBox(keyPath, configured).seal('s', 'o'), 'o'), 's');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();
