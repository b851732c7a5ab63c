import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson, requestFingerprint } from '../../../http/idempotency/fingerprint.ts';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyStore } from '../../../http/idempotency/store.ts';

test('canonical JSON sorts keys at every level and keeps array order', () => {
  assert.is(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  assert.is(canonicalJson({ a: undefined, b: 'x' }), '{"b":"x"}');
});

test('the fingerprint ignores key order and whitespace, not content, method or path', () => {
  const base = requestFingerprint('POST', '/v1/scripts', { name: 'A', steps: [1, 2] });
  assert.is(requestFingerprint('post', '/v1/scripts', JSON.parse('{ "steps": [1, 2],  "name": "A" }')), base);
  assert.is.not(requestFingerprint('POST', '/v1/scripts', { name: 'B', steps: [1, 2] }), base);
  assert.is.not(requestFingerprint('POST', '/v1/scripts', { name: 'A', steps: [2, 1] }), base);
  assert.is.not(requestFingerprint('POST', '/v1/campaigns', { name: 'A', steps: [1, 2] }), base);
  assert.is.not(requestFingerprint('PUT', '/v1/scripts', { name: 'A', steps: [1, 2] }), base);
  assert.match(base, /^[0-9a-f]{64}$/);
});

test('stored responses are found within 24 hours of the clock, and not after', () => {
  const directory = mkdtempSync(join(tmpdir(), 'idempotency-'));
  const db = new Database(join(directory, 'read.db'));
  try {
    const store = new IdempotencyStore(db);
    const created = Date.UTC(2026, 2, 1, 10);
    store.save('ws_1', 'key-1', { fingerprint: 'f', status: 201, contentType: 'application/json', body: '{"id":"scr_1"}', createdAtMs: created });
    assert.equal(store.find('ws_1', 'key-1', created + IDEMPOTENCY_WINDOW_MS - 1)?.body, '{"id":"scr_1"}');
    assert.is(store.find('ws_2', 'key-1', created), undefined, 'keys are per workspace');
    assert.is(store.find('ws_1', 'key-1', created + IDEMPOTENCY_WINDOW_MS), undefined);
    // A later save purges what expired.
    store.save('ws_1', 'key-2', { fingerprint: 'g', status: 201, contentType: 'application/json', body: '{}', createdAtMs: created + IDEMPOTENCY_WINDOW_MS + 1 });
    assert.is((db.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n, 1);
  } finally {
    db.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();
