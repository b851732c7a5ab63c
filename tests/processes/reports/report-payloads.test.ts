import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/shared/decider.ts';
import { reportDecider, reportRunId, type ReportEvent, type ReportRequestedData } from '../../../domain/report.ts';
import type { Recorded } from '../../../infra/eventstore/port.ts';
import { WEBHOOK_PAYLOAD_DATA } from '../../../processes/webhooks/payload-schemas.ts';
import { notificationsFor, type PayloadSources } from '../../../processes/webhooks/payloads.ts';

/** report.completed and report.failed are built from the report's stream and match their strict payload schemas. */
const request: ReportRequestedData = {
  report_id: 'rpt_1', workspace_id: 'ws_1', type: 'qa_performance', period: { from: '2026-03-01', to: '2026-03-31' }, timezone: 'UTC', filters: {}, format: 'csv', schedule: null, email: null, requested_at: '2026-04-01T10:00:00.000Z',
};
const runId = reportRunId('rpt_1', request.period);
const history: ReportEvent[] = [
  { type: 'ReportRequested', data: request },
  { type: 'ReportRunQueued', data: { report_id: 'rpt_1', run_id: runId, period: request.period, trigger: 'request', queued_at: request.requested_at } },
  { type: 'ReportRunStarted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, started_at: request.requested_at } },
];
const sources = { loadReport: async () => fold(reportDecider, history) } as unknown as PayloadSources;

function recorded<Type extends ReportEvent['type']>(event: Extract<ReportEvent, { type: Type }>): Recorded<Extract<ReportEvent, { type: Type }>> {
  return { ...event, id: 'evt_1', stream: 'report-rpt_1', revision: 3, position: 10, metadata: { workspace_id: 'ws_1', actor: 'report-generator', correlation_id: null, causation_id: null, occurred_at: request.requested_at, schema_version: 1 } } as never;
}

test('report.completed', async () => {
  const output = { blob_key: 'reports/ws_1/x.csv', content_type: 'text/csv; charset=utf-8', file_name: 'x.csv', size_bytes: 812 };
  const [notification] = await notificationsFor(recorded({ type: 'ReportRunCompleted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, output, completed_at: '2026-04-01T10:00:05.000Z' } }), sources);
  assert.is(notification!.event, 'report.completed');
  assert.equal(WEBHOOK_PAYLOAD_DATA['report.completed'].parse(notification!.data), {
    report_id: 'rpt_1', run_id: runId, type: 'qa_performance', format: 'csv', period: request.period, trigger: 'request', status: 'completed', size_bytes: 812, completed_at: '2026-04-01T10:00:05.000Z',
  });
});

test('report.failed', async () => {
  const error = { code: 'generation_failed', message: 'boom' };
  const [notification] = await notificationsFor(recorded({ type: 'ReportRunFailed', data: { report_id: 'rpt_1', run_id: runId, attempt: 3, error, failed_at: '2026-04-01T10:00:09.000Z' } }), sources);
  assert.is(notification!.event, 'report.failed');
  assert.ok(WEBHOOK_PAYLOAD_DATA['report.failed'].safeParse(notification!.data).success);
  assert.equal((notification!.data as { error: unknown }).error, error);
});

test.run();
