import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedReportFacts } from '../../bench/report-facts.ts';
import { testRuntime } from '../support/runtime.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Report e-mail over the real server and a real SMTP server on loopback (smtp-server): the message's headers, a
 * PDF attachment, a link instead of a file over REPORT_EMAIL_MAX_ATTACHMENT_BYTES, and a refused message retried on
 * the schedule (the manual clock moves past the first retry delay).
 */
const email = suite('report e-mail');
let smtp: SMTPServer;
let server: TestServer;
let api: ApiClient;
let dataDir: string;
const received: Array<{ from: string; to: string[]; raw: string }> = [];
let refuseNext = 0;

email.before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext--;
          const error = new Error('mailbox busy, try later') as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-report-email-'));
  const workspace = await createWorkspace({ dataDir }, 'Mail');
  const { runtime } = testRuntime({ dataDir, environment: { CLOCK_START: '2026-04-01T10:00:00Z' } });
  await runtime.start();
  await seedReportFacts(runtime, { workspaceId: workspace.workspaceId, calls: 40, days: 30, firstDay: '2026-03-01' });
  await runtime.close();
  server = await startServer({
    dataDir,
    env: { CLOCK: 'manual', CLOCK_START: '2026-04-01T10:00:00Z', SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Reports <reports@lender.example>', REPORT_EMAIL_MAX_ATTACHMENT_BYTES: '4000' },
  });
  api = client(server, workspace.key);
});
email.after(async () => {
  await server.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

async function emailed(body: Record<string, unknown>): Promise<any> {
  const created = await api.post('/v1/reports', body);
  assert.is(created.status, 202, created.text);
  return waitFor(`the e-mail of ${created.body.report_id}`, async () => (await api.get(`/v1/reports/${created.body.report_id}`)).body, (report) => report.email_status !== 'pending' && report.email_status !== 'retrying');
}

email('a CSV is attached; the headers name the report and the run', async () => {
  const report = await emailed({ type: 'call_summary', from: '2026-03-01', to: '2026-03-31', format: 'csv', email: { to: ['ops@lender.example', 'risk@lender.example'], subject: 'Monthly calls' } });
  assert.is(report.email_status, 'sent_attachment');
  const message = received.at(-1)!;
  // Long header lines are folded (RFC 5322): unfold them before matching.
  const headers = message.raw.replace(/\r\n[ \t]+/g, ' ');
  assert.equal(message.to, ['ops@lender.example', 'risk@lender.example']);
  assert.is(message.from, 'reports@lender.example');
  assert.match(message.raw, /^Subject: Monthly calls\r$/m);
  assert.match(message.raw, /^From: Reports <reports@lender\.example>\r$/m);
  assert.ok(message.raw.includes(`X-Report-ID: ${report.report_id}\r\n`), message.raw.slice(0, 800));
  assert.match(message.raw, /^X-Report-Run-ID: rrn_\w+\r$/m);
  assert.match(message.raw, /^Message-ID: <rrn_[^>]+@reports>\r$/m);
  assert.match(headers, /Content-Type: text\/csv; charset=utf-8; name=call_summary_2026-03-01_2026-03-31\.csv/);
  assert.match(headers, /Content-Disposition: attachment; filename=call_summary_2026-03-01_2026-03-31\.csv/);
  const attachment = /filename=call_summary_2026-03-01_2026-03-31\.csv\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(message.raw)![1]!;
  const csv = Buffer.from(attachment.replace(/\r\n/g, ''), 'base64').toString('utf8');
  assert.match(csv, /^\ufeffsection,label,value,/);
});

email('a file over the attachment limit is sent as a 7-day link', async () => {
  const report = await emailed({ type: 'agent_coaching', from: '2026-03-01', to: '2026-03-31', format: 'pdf', email: { to: ['coach@lender.example'] } });
  assert.is(report.email_status, 'sent_link');
  const message = received.at(-1)!;
  assert.match(message.raw, /^Subject: Agent coaching: 2026-03-01 to 2026-03-31\r$/m);
  assert.not.match(message.raw, /Content-Disposition: attachment/);
  const link = /(http:\/\/127\.0\.0\.1:\d+\/v1\/report-files\/[^\s]+)/.exec(message.raw.replace(/=\r\n/g, '').replace(/=3D/g, '='))![1]!;
  const expires = Number(/expires=(\d+)/.exec(link)![1]);
  assert.is(expires * 1000 - Date.parse('2026-04-01T10:00:00Z') >= 7 * 86_400_000 - 60_000, true, 'valid for 7 days');
  const file = await fetch(link);
  assert.is(file.status, 200);
  assert.is(file.headers.get('content-type'), 'application/pdf');
});

email('a refused message is retried on the schedule and its status is visible', async () => {
  refuseNext = 1;
  const before = received.length;
  const created = await api.post('/v1/reports', { type: 'qa_performance', from: '2026-03-01', to: '2026-03-31', email: { to: ['qa@lender.example'] } });
  const retrying = await waitFor('the first refusal', async () => (await api.get(`/v1/reports/${created.body.report_id}`)).body, (report) => report.email_status === 'retrying');
  assert.is(retrying.status, 'completed');
  assert.is(received.length, before);
  await api.post('/v1/sandbox/clock', { advance_seconds: 61 });
  const sent = await waitFor('the retry', async () => (await api.get(`/v1/reports/${created.body.report_id}`)).body, (report) => report.email_status === 'sent_attachment');
  assert.ok(sent);
  assert.is(received.length, before + 1);
});

email.run();
