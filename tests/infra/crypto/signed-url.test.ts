import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadUrlSigner, UrlSigner } from '../../../infra/crypto/signed-url.ts';

const now = new Date('2026-03-01T10:00:00Z');
const inOneHour = new Date(now.getTime() + 3_600_000);

function parts(query: string): { expires: string; signature: string } {
  const parameters = new URLSearchParams(query);
  return { expires: parameters.get('expires')!, signature: parameters.get('signature')! };
}

test('sign then verify: valid until the expiry, expired from it on', () => {
  const signer = new UrlSigner(Buffer.from('a'.repeat(64), 'hex'));
  const { expires, signature } = parts(signer.sign('/v1/recordings/cal_1', inOneHour));
  assert.is(expires, String(inOneHour.getTime() / 1000));
  assert.is(signer.verify('/v1/recordings/cal_1', expires, signature, now), 'valid');
  assert.is(signer.verify('/v1/recordings/cal_1', expires, signature, new Date(inOneHour.getTime() - 1)), 'valid');
  assert.is(signer.verify('/v1/recordings/cal_1', expires, signature, inOneHour), 'expired');
});

test('any change of path, expiry or signature, or another secret, is invalid; so are missing or malformed parts', () => {
  const signer = new UrlSigner(Buffer.from('a'.repeat(64), 'hex'));
  const { expires, signature } = parts(signer.sign('/v1/recordings/cal_1', inOneHour));
  assert.is(signer.verify('/v1/recordings/cal_2', expires, signature, now), 'invalid');
  assert.is(signer.verify('/v1/recordings/cal_1', String(Number(expires) + 1), signature, now), 'invalid');
  assert.is(signer.verify('/v1/recordings/cal_1', expires, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`, now), 'invalid');
  assert.is(new UrlSigner(Buffer.from('b'.repeat(64), 'hex')).verify('/v1/recordings/cal_1', expires, signature, now), 'invalid');
  // An expired URL with a wrong signature says invalid, not expired: nothing is told about URLs we never issued.
  assert.is(signer.verify('/v1/recordings/cal_2', expires, signature, new Date(inOneHour.getTime() + 1000)), 'invalid');
  for (const [e, s] of [[undefined, signature], [expires, undefined], ['', signature], ['12a', signature], [expires, 'xyz'], [expires, signature.toUpperCase()]] as const) {
    assert.is(signer.verify('/v1/recordings/cal_1', e, s, now), 'invalid', `${e} ${s}`);
  }
});

test('loadUrlSigner: a configured secret is used as is; otherwise a random key is created once (0600) and reused', () => {
  const directory = mkdtempSync(join(tmpdir(), 'signer-'));
  try {
    const keyPath = join(directory, 'sub', 'url-signing.key');
    const first = loadUrlSigner(keyPath);
    assert.is(statSync(keyPath).mode & 0o777, 0o600);
    assert.match(readFileSync(keyPath, 'utf8'), /^[0-9a-f]{64}$/);
    const { expires, signature } = parts(first.sign('/p', inOneHour));
    assert.is(loadUrlSigner(keyPath).verify('/p', expires, signature, now), 'valid', 'the key survives a restart');
    const configured = loadUrlSigner(keyPath, 'a shared secret of at least 32 characters');
    assert.is(configured.verify('/p', expires, signature, now), 'invalid');
    const again = parts(configured.sign('/p', inOneHour));
    assert.is(loadUrlSigner(join(directory, 'other.key'), 'a shared secret of at least 32 characters').verify('/p', again.expires, again.signature, now), 'valid', 'servers sharing the secret agree');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();
