import { test } from 'uvu';
import { MAX_RUN_ATTEMPTS, reportDecider, reportRunId, type ReportEvent, type ReportRequestedData } from '../../domain/report.ts';
import { given } from './given-when-then.ts';

const now = new Date('2026-04-01T10:00:00.000Z');
const at = now.toISOString();
const request: ReportRequestedData = {
  report_id: 'rpt_1',
  workspace_id: 'ws_1',
  type: 'call_summary',
  period: { from: '2026-03-01', to: '2026-03-31' },
  timezone: 'UTC',
  filters: {},
  format: 'pdf',
  schedule: { cron: '0 8 * * 1', timezone: 'Asia/Kolkata' },
  email: null,
  requested_at: at,
};
const runId = reportRunId('rpt_1', request.period);
const next = new Date('2026-04-06T02:30:00.000Z');
const requested: ReportEvent[] = [
  { type: 'ReportRequested', data: request },
  { type: 'ReportRunQueued', data: { report_id: 'rpt_1', run_id: runId, period: request.period, trigger: 'request', queued_at: at } },
  { type: 'ReportNextRunPlanned', data: { report_id: 'rpt_1', next_run_at: next.toISOString() } },
];
const started: ReportEvent[] = [...requested, { type: 'ReportRunStarted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, started_at: at } }];
const output = { blob_key: 'reports/ws_1/x.pdf', content_type: 'application/pdf', file_name: 'x.pdf', size_bytes: 10 };
const error = { code: 'generation_failed', message: 'boom' };

test('request: the report, its first run, and the next scheduled run; a second request is already_exists', () => {
  given(reportDecider).when({ type: 'RequestReport', data: request, facts: { runId, nextRunAt: next } }).then(requested);
  given(reportDecider, requested).when({ type: 'RequestReport', data: request, facts: { runId, nextRunAt: next } }).thenThrows('already_exists');
  given(reportDecider).when({ type: 'RequestReport', data: { ...request, schedule: null }, facts: { runId, nextRunAt: null } }).then(requested.slice(0, 2).map((event) => (event.type === 'ReportRequested' ? { ...event, data: { ...request, schedule: null } } : event)));
});

test('run ids are derived from report and period', () => {
  if (reportRunId('rpt_1', { from: '2026-03-30', to: '2026-04-05' }) !== reportRunId('rpt_1', { from: '2026-03-30', to: '2026-04-05' })) throw new Error('not deterministic');
  if (reportRunId('rpt_1', request.period) === reportRunId('rpt_2', request.period)) throw new Error('not distinct');
});

test('attempts: start once per attempt, complete the attempt that runs, retry then fail', () => {
  given(reportDecider, requested).when({ type: 'StartReportRun', runId, attempt: 1, now }).then(started.slice(3));
  given(reportDecider, started).when({ type: 'StartReportRun', runId, attempt: 1, now }).thenNothing();
  given(reportDecider, started).when({ type: 'CompleteReportRun', runId, attempt: 1, output, now }).then([{ type: 'ReportRunCompleted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, output, completed_at: at } }]);
  given(reportDecider, started).when({ type: 'FailReportRunAttempt', runId, attempt: 1, error, final: false, now }).then([{ type: 'ReportRunAttemptFailed', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, error, failed_at: at } }]);
  const lastAttempt: ReportEvent[] = [...requested, { type: 'ReportRunStarted', data: { report_id: 'rpt_1', run_id: runId, attempt: MAX_RUN_ATTEMPTS, started_at: at } }];
  given(reportDecider, lastAttempt).when({ type: 'FailReportRunAttempt', runId, attempt: MAX_RUN_ATTEMPTS, error, final: false, now }).then([{ type: 'ReportRunFailed', data: { report_id: 'rpt_1', run_id: runId, attempt: MAX_RUN_ATTEMPTS, error, failed_at: at } }]);
  given(reportDecider, requested).when({ type: 'StartReportRun', runId: 'rrn_unknown', attempt: 1, now }).thenThrows('resource_not_found');
});

test('schedule: a scheduled run is queued once, cancel stops it, a report without a schedule cannot be cancelled', () => {
  const period = { from: '2026-03-30', to: '2026-04-05' };
  const scheduledRun = reportRunId('rpt_1', period);
  const later = new Date('2026-04-13T02:30:00.000Z');
  const queued: ReportEvent[] = [
    { type: 'ReportRunQueued', data: { report_id: 'rpt_1', run_id: scheduledRun, period, trigger: 'schedule', queued_at: at } },
    { type: 'ReportNextRunPlanned', data: { report_id: 'rpt_1', next_run_at: later.toISOString() } },
  ];
  given(reportDecider, requested).when({ type: 'QueueScheduledRun', workspaceId: 'ws_1', runId: scheduledRun, period, nextRunAt: later, now }).then(queued);
  given(reportDecider, [...requested, ...queued]).when({ type: 'QueueScheduledRun', workspaceId: 'ws_1', runId: scheduledRun, period, nextRunAt: later, now }).thenNothing();
  given(reportDecider, requested).when({ type: 'QueueScheduledRun', workspaceId: 'ws_2', runId: scheduledRun, period, nextRunAt: later, now }).thenThrows('resource_not_found');
  const cancelled: ReportEvent = { type: 'ReportScheduleCancelled', data: { report_id: 'rpt_1', cancelled_at: at } };
  given(reportDecider, requested).when({ type: 'CancelReportSchedule', workspaceId: 'ws_1', now }).then([cancelled]);
  given(reportDecider, [...requested, cancelled]).when({ type: 'CancelReportSchedule', workspaceId: 'ws_1', now }).thenNothing();
  given(reportDecider, [...requested, cancelled]).when({ type: 'QueueScheduledRun', workspaceId: 'ws_1', runId: scheduledRun, period, nextRunAt: later, now }).thenNothing();
  const oneTime: ReportEvent[] = [{ type: 'ReportRequested', data: { ...request, schedule: null } }];
  given(reportDecider, oneTime).when({ type: 'CancelReportSchedule', workspaceId: 'ws_1', now }).thenThrows('invalid_state');
});

test('expiry: a completed run expires once', () => {
  const completed: ReportEvent[] = [...started, { type: 'ReportRunCompleted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, output, completed_at: at } }];
  const expired: ReportEvent = { type: 'ReportRunExpired', data: { report_id: 'rpt_1', run_id: runId, expired_at: at } };
  given(reportDecider, completed).when({ type: 'ExpireReportRun', runId, now }).then([expired]);
  given(reportDecider, [...completed, expired]).when({ type: 'ExpireReportRun', runId, now }).thenNothing();
  given(reportDecider, started).when({ type: 'ExpireReportRun', runId, now }).thenNothing();
});

test('e-mail: one outcome per try, in order; nothing after a success or a final failure, nor without e-mail', () => {
  const withEmail: ReportEvent[] = [
    { type: 'ReportRequested', data: { ...request, email: { to: ['ops@example.com'], subject: null } } },
    ...started.slice(1),
    { type: 'ReportRunCompleted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, output, completed_at: at } },
  ];
  const failed: ReportEvent = { type: 'ReportEmailFailed', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, error, final: false, failed_at: at } };
  given(reportDecider, withEmail).when({ type: 'RecordReportEmail', runId, attempt: 1, outcome: { error, final: false }, now }).then([failed]);
  given(reportDecider, [...withEmail, failed]).when({ type: 'RecordReportEmail', runId, attempt: 1, outcome: { error, final: false }, now }).thenNothing();
  const sent: ReportEvent = { type: 'ReportEmailSent', data: { report_id: 'rpt_1', run_id: runId, attempt: 2, delivery: 'link', recipients: ['ops@example.com'], sent_at: at } };
  given(reportDecider, [...withEmail, failed]).when({ type: 'RecordReportEmail', runId, attempt: 2, outcome: { sent: 'link', recipients: ['ops@example.com'] }, now }).then([sent]);
  given(reportDecider, [...withEmail, failed, sent]).when({ type: 'RecordReportEmail', runId, attempt: 3, outcome: { sent: 'link', recipients: ['ops@example.com'] }, now }).thenNothing();
  const completedWithout: ReportEvent[] = [...started, { type: 'ReportRunCompleted', data: { report_id: 'rpt_1', run_id: runId, attempt: 1, output, completed_at: at } }];
  given(reportDecider, completedWithout).when({ type: 'RecordReportEmail', runId, attempt: 1, outcome: { error, final: true }, now }).thenNothing();
});

test.run();
