import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { E164_DESCRIPTION } from '../../domain/shared/phone.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

const suppressions = suite('suppressions resource (do-not-call list)');
let server: TestServer;
let api: ApiClient;

suppressions.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z' } });
  api = client(server, (await createWorkspace(server, 'Suppressions')).key);
});
suppressions.after(async () => server.stop());

suppressions('add: 201 with the entry; adding it again answers 200 with the same entry, unchanged', async () => {
  const added = await api.post('/v1/suppressions', { phone: '+919876500001', reason: 'Asked by email' });
  assert.is(added.status, 201, added.text);
  const entry = { phone: '+919876500001', source: 'api', reason: 'Asked by email', call_id: null, suppressed_at: '2026-03-01T10:00:00.000Z' };
  assert.equal(added.body, entry);
  await api.post('/v1/sandbox/clock', { advance_seconds: 60 });
  const again = await api.post('/v1/suppressions', { phone: '+919876500001', reason: 'Another reason' });
  assert.is(again.status, 200);
  assert.equal(again.body, entry);
  const noReason = await api.post('/v1/suppressions', { phone: '+919876500002' });
  assert.equal([noReason.status, noReason.body.reason, noReason.body.suppressed_at], [201, null, '2026-03-01T10:01:00.000Z']);
});

suppressions('list: newest first in the list envelope; one number by its URL-encoded phone', async () => {
  const listed = await api.get('/v1/suppressions');
  assert.is(listed.status, 200);
  assert.equal(listed.body.data.map((entry: { phone: string }) => entry.phone), ['+919876500002', '+919876500001']);
  assert.equal([listed.body.total, listed.body.limit, listed.body.offset], [2, 20, 0]);
  assert.equal((await api.get('/v1/suppressions?limit=1&offset=1')).body.data.map((entry: { phone: string }) => entry.phone), ['+919876500001']);
  const one = await api.get('/v1/suppressions/%2B919876500001');
  assert.is(one.status, 200);
  assert.is(one.body.reason, 'Asked by email');
  assert.is((await api.get('/v1/suppressions/+919876500001')).status, 200, 'a literal + in the path works too');
  const missing = await api.get('/v1/suppressions/%2B919876500099');
  assert.is(missing.status, 404);
  assert.equal(missing.body.error.details, { resource_type: 'suppressed_number', id: '+919876500099' });
});

suppressions('delete: 200 {phone, deleted}; not listed (any more) is 404', async () => {
  const removed = await api.delete('/v1/suppressions/%2B919876500002');
  assert.is(removed.status, 200, removed.text);
  assert.equal(removed.body, { phone: '+919876500002', deleted: true });
  assert.is((await api.get('/v1/suppressions')).body.total, 1);
  const again = await api.delete('/v1/suppressions/%2B919876500002');
  assert.is(again.status, 404);
  assert.equal(again.body.error.details, { resource_type: 'suppressed_number', id: '+919876500002' });
});

suppressions('validation: phones must be E.164, in the body and in the path', async () => {
  const badBody = await api.post('/v1/suppressions', { phone: '9876500001' });
  assert.is(badBody.status, 400);
  assert.equal(badBody.body.error.details, { field: 'phone', provided: '9876500001', expected: E164_DESCRIPTION });
  const badPath = await api.delete('/v1/suppressions/9876500001');
  assert.is(badPath.status, 400);
  assert.equal(badPath.body.error.details, { field: 'phone', provided: '9876500001', expected: `${E164_DESCRIPTION}, URL-encoded (%2B for +)` });
  const longReason = await api.post('/v1/suppressions', { phone: '+919876500003', reason: 'x'.repeat(501) });
  assert.equal(longReason.body.error.details, { field: 'reason', provided: 'x'.repeat(256) + '…', expected: 'a string of at most 500 characters' });
  const unknown = await api.post('/v1/suppressions', { phone: '+919876500003', source: 'api' });
  assert.equal(unknown.body.error.details, { field: 'source', provided: 'api', expected: 'only the documented fields' });
});

suppressions('workspace isolation: each workspace has its own list', async () => {
  const other = client(server, (await createWorkspace(server, 'Other list')).key);
  assert.is((await other.get('/v1/suppressions')).body.total, 0);
  assert.is((await other.get('/v1/suppressions/%2B919876500001')).status, 404);
  assert.is((await other.delete('/v1/suppressions/%2B919876500001')).status, 404);
  assert.is((await api.get('/v1/suppressions/%2B919876500001')).status, 200, 'untouched by the other workspace');
});

suppressions.run();
