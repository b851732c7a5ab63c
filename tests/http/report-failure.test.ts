import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * A run whose generation keeps failing (here: the PDF fonts are missing, REPORT_FONT_DIRECTORY points nowhere) is
 * retried and then `failed` with the reason; the server stays up and other formats still generate.
 */
const server = await startServer({ env: { REPORT_FONT_DIRECTORY: '/nonexistent-fonts' } });
const api = client(server, (await createWorkspace(server, 'Failing')).key);

test('retried, then failed with the reason; JSON still completes', async () => {
  const created = await api.post('/v1/reports', { type: 'call_summary', from: '2026-03-01', to: '2026-03-31', format: 'pdf' });
  assert.is(created.status, 202, created.text);
  const report = await waitFor('the report to fail', async () => (await api.get(`/v1/reports/${created.body.report_id}`)).body, (body) => body.status !== 'generating', 30_000);
  assert.is(report.status, 'failed');
  assert.is(report.error.code, 'generation_failed');
  assert.match(report.error.message, /fonts-noto-core/);
  assert.not.match(report.error.message, /nonexistent-fonts/, 'the server\'s paths stay in its log');
  assert.is(report.download_url, null);
  assert.ok(report.completed_at);
  assert.match(server.output(), /report run attempt failed; retrying/);
  assert.match(server.output(), /"attempt":3/);
  const json = await api.post('/v1/reports', { type: 'call_summary', from: '2026-03-01', to: '2026-03-31' });
  const done = await waitFor('the JSON report', async () => (await api.get(`/v1/reports/${json.body.report_id}`)).body, (body) => body.status !== 'generating');
  assert.equal([done.status, done.data.totals.total_calls], ['completed', 0]);
  const failedList = await api.get('/v1/reports?status=failed');
  assert.equal(failedList.body.data.map((item: any) => item.report_id), [created.body.report_id]);
});

test.after(async () => server.stop());
test.run();
