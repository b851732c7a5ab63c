import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState, notFound } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';
import { deterministicId } from './shared/deterministic-id.ts';

/**
 * A report (stream `report-<id>`, id `rpt_...`): what to report on (type, period, filters, zone, format), an
 * optional recurring schedule and e-mail delivery, and its runs. A one-time report has one run, queued when it is
 * requested; a scheduled one has that first run too and then one run per cron occurrence, each covering the period
 * that just ended (docs/reports.md). A run is generated in attempts (a crash is retried) and ends `completed`
 * with its output file, or `failed` with the reason. Run ids are derived from the report and the period
 * (`reportRunId`), so two schedulers queueing the same run append it once.
 */
export const REPORT_TYPES = ['call_summary', 'qa_performance', 'compliance_audit', 'agent_coaching', 'campaign_performance'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_STATUSES = ['generating', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The filters a report may carry (which apply depends on the type: processes/reports/types/). */
export interface ReportFilters {
  campaign_id?: string;
  agent_id?: string;
  language?: string;
  scorecard_id?: string;
}

/** A period of whole local days, both inclusive (`YYYY-MM-DD`). */
export interface ReportPeriod {
  from: string;
  to: string;
}

export interface ReportSchedule {
  cron: string;
  timezone: string;
}

export interface ReportEmail {
  to: string[];
  subject: string | null;
}

export interface ReportError {
  code: string;
  message: string;
}

/** The file a run produced, in the blob store. */
export interface ReportOutput {
  blob_key: string;
  content_type: string;
  file_name: string;
  size_bytes: number;
}

export type EmailDelivery = 'attachment' | 'link';

export interface ReportRequestedData {
  report_id: string;
  workspace_id: string;
  type: ReportType;
  period: ReportPeriod;
  timezone: string;
  filters: ReportFilters;
  format: ReportFormat;
  schedule: ReportSchedule | null;
  email: ReportEmail | null;
  requested_at: string;
}

export type ReportEvent =
  | DomainEvent<'ReportRequested', ReportRequestedData>
  | DomainEvent<'ReportRunQueued', { report_id: string; run_id: string; period: ReportPeriod; trigger: 'request' | 'schedule'; queued_at: string }>
  | DomainEvent<'ReportNextRunPlanned', { report_id: string; next_run_at: string }>
  | DomainEvent<'ReportRunStarted', { report_id: string; run_id: string; attempt: number; started_at: string }>
  | DomainEvent<'ReportRunCompleted', { report_id: string; run_id: string; attempt: number; output: ReportOutput; completed_at: string }>
  | DomainEvent<'ReportRunAttemptFailed', { report_id: string; run_id: string; attempt: number; error: ReportError; failed_at: string }>
  | DomainEvent<'ReportRunFailed', { report_id: string; run_id: string; attempt: number; error: ReportError; failed_at: string }>
  | DomainEvent<'ReportScheduleCancelled', { report_id: string; cancelled_at: string }>
  | DomainEvent<'ReportEmailSent', { report_id: string; run_id: string; attempt: number; delivery: EmailDelivery; recipients: string[]; sent_at: string }>
  | DomainEvent<'ReportEmailFailed', { report_id: string; run_id: string; attempt: number; error: ReportError; final: boolean; failed_at: string }>
  | DomainEvent<'ReportRunExpired', { report_id: string; run_id: string; expired_at: string }>;

export type ReportCommand =
  | { type: 'RequestReport'; data: ReportRequestedData; facts: { runId: string; nextRunAt: Date | null } }
  | { type: 'QueueScheduledRun'; workspaceId: string; runId: string; period: ReportPeriod; nextRunAt: Date | null; now: Date }
  | { type: 'StartReportRun'; runId: string; attempt: number; now: Date }
  | { type: 'CompleteReportRun'; runId: string; attempt: number; output: ReportOutput; now: Date }
  | { type: 'FailReportRunAttempt'; runId: string; attempt: number; error: ReportError; final: boolean; now: Date }
  | { type: 'CancelReportSchedule'; workspaceId: string; now: Date }
  | { type: 'RecordReportEmail'; runId: string; attempt: number; outcome: { sent: EmailDelivery; recipients: string[] } | { error: ReportError; final: boolean }; now: Date }
  | { type: 'ExpireReportRun'; runId: string; now: Date };

export type RunStatus = 'queued' | 'generating' | 'completed' | 'failed';

export interface ReportRunState {
  status: RunStatus;
  attempts: number;
  period: ReportPeriod;
  trigger: 'request' | 'schedule';
  output: ReportOutput | null;
  expired: boolean;
  emailAttempts: number;
  emailDone: boolean;
}

export interface ReportState {
  report: ReportRequestedData | null;
  scheduleActive: boolean;
  nextRunAt: string | null;
  runs: Record<string, ReportRunState>;
}

/** Attempts a run gets before it is `failed` (a crash of the generator, an unreadable read model, ...). */
export const MAX_RUN_ATTEMPTS = 3;

const reportStreams = streamCategory('report');
export const reportStream = reportStreams.stream;
export const reportIdOf = reportStreams.idOf;

export const reportDecider: Decider<ReportCommand, ReportEvent, ReportState> = {
  initialState: () => ({ report: null, scheduleActive: false, nextRunAt: null, runs: {} }),

  evolve(state, event) {
    const run = (runId: string, change: Partial<ReportRunState>): ReportState => {
      const current = state.runs[runId];
      if (!current) return state;
      return { ...state, runs: { ...state.runs, [runId]: { ...current, ...change } } };
    };
    switch (event.type) {
      case 'ReportRequested':
        return { ...state, report: event.data, scheduleActive: event.data.schedule !== null };
      case 'ReportRunQueued':
        return {
          ...state,
          runs: { ...state.runs, [event.data.run_id]: { status: 'queued', attempts: 0, period: event.data.period, trigger: event.data.trigger, output: null, expired: false, emailAttempts: 0, emailDone: false } },
        };
      case 'ReportNextRunPlanned':
        return { ...state, nextRunAt: event.data.next_run_at };
      case 'ReportRunStarted':
        return run(event.data.run_id, { status: 'generating', attempts: event.data.attempt });
      case 'ReportRunCompleted':
        return run(event.data.run_id, { status: 'completed', output: event.data.output });
      case 'ReportRunAttemptFailed':
        return run(event.data.run_id, { status: 'queued' });
      case 'ReportRunFailed':
        return run(event.data.run_id, { status: 'failed' });
      case 'ReportScheduleCancelled':
        return { ...state, scheduleActive: false, nextRunAt: null };
      case 'ReportEmailSent':
        return run(event.data.run_id, { emailAttempts: event.data.attempt, emailDone: true });
      case 'ReportEmailFailed':
        return run(event.data.run_id, { emailAttempts: event.data.attempt, emailDone: event.data.final });
      case 'ReportRunExpired':
        return run(event.data.run_id, { expired: true });
    }
  },

  decide(command, state) {
    if (command.type === 'RequestReport') {
      const data = command.data;
      if (state.report) throw alreadyDone(`Report ${state.report.report_id} already exists.`, { id: state.report.report_id });
      if (data.period.to < data.period.from) throw new DomainError('invalid_parameter', 'Invalid to: expected a date not before from.', { field: 'to', provided: data.period.to, expected: 'a date not before from' });
      if (data.schedule && command.facts.nextRunAt === null) {
        throw new DomainError('invalid_parameter', 'Invalid schedule.cron: it never runs.', { field: 'schedule.cron', provided: data.schedule.cron, expected: 'a cron expression with a future occurrence' });
      }
      const events: ReportEvent[] = [
        { type: 'ReportRequested', data },
        { type: 'ReportRunQueued', data: { report_id: data.report_id, run_id: command.facts.runId, period: data.period, trigger: 'request', queued_at: data.requested_at } },
      ];
      if (data.schedule && command.facts.nextRunAt) events.push({ type: 'ReportNextRunPlanned', data: { report_id: data.report_id, next_run_at: command.facts.nextRunAt.toISOString() } });
      return events;
    }
    const report = state.report;
    if (report === null) throw new DomainError('resource_not_found', 'No such report.', { resource_type: 'report' });
    const reportId = report.report_id;
    const now = command.now.toISOString();
    switch (command.type) {
      case 'QueueScheduledRun': {
        if (report.workspace_id !== command.workspaceId) throw notFound('report', reportId);
        // A cancelled schedule queues nothing: a timer that fires after the cancellation is a no-op.
        if (!state.scheduleActive) return [];
        const events: ReportEvent[] = [];
        // The same run queued again (two schedulers, a replayed timer) is appended once.
        if (!state.runs[command.runId]) {
          events.push({ type: 'ReportRunQueued', data: { report_id: reportId, run_id: command.runId, period: command.period, trigger: 'schedule', queued_at: now } });
        }
        const next = command.nextRunAt?.toISOString() ?? null;
        if (next !== null && next !== state.nextRunAt) events.push({ type: 'ReportNextRunPlanned', data: { report_id: reportId, next_run_at: next } });
        return events;
      }
      case 'CancelReportSchedule': {
        if (report.workspace_id !== command.workspaceId) throw notFound('report', reportId);
        if (report.schedule === null) throw invalidState(`Report ${reportId} has no schedule.`, { report_id: reportId });
        if (!state.scheduleActive) return [];
        return [{ type: 'ReportScheduleCancelled', data: { report_id: reportId, cancelled_at: now } }];
      }
    }
    const run = state.runs[command.runId];
    if (!run) throw new DomainError('resource_not_found', `Report ${reportId} has no run ${command.runId}.`, { resource_type: 'report_run', id: command.runId });
    const ids = { report_id: reportId, run_id: command.runId };
    switch (command.type) {
      case 'StartReportRun':
        // Only the next attempt of a run not yet finished: a replayed start, or a second generator, changes nothing.
        if (run.status === 'completed' || run.status === 'failed' || command.attempt !== run.attempts + 1) return [];
        return [{ type: 'ReportRunStarted', data: { ...ids, attempt: command.attempt, started_at: now } }];
      case 'CompleteReportRun':
        if (run.status !== 'generating' || command.attempt !== run.attempts) return [];
        return [{ type: 'ReportRunCompleted', data: { ...ids, attempt: command.attempt, output: command.output, completed_at: now } }];
      case 'FailReportRunAttempt': {
        if (run.status !== 'generating' || command.attempt !== run.attempts) return [];
        const final = command.final || command.attempt >= MAX_RUN_ATTEMPTS;
        const data = { ...ids, attempt: command.attempt, error: command.error, failed_at: now };
        return [final ? { type: 'ReportRunFailed', data } : { type: 'ReportRunAttemptFailed', data }];
      }
      case 'RecordReportEmail': {
        if (report.email === null || run.status !== 'completed' || run.emailDone || command.attempt !== run.emailAttempts + 1) return [];
        const outcome = command.outcome;
        if ('sent' in outcome) return [{ type: 'ReportEmailSent', data: { ...ids, attempt: command.attempt, delivery: outcome.sent, recipients: outcome.recipients, sent_at: now } }];
        return [{ type: 'ReportEmailFailed', data: { ...ids, attempt: command.attempt, error: outcome.error, final: outcome.final, failed_at: now } }];
      }
      case 'ExpireReportRun':
        if (run.status !== 'completed' || run.expired) return [];
        return [{ type: 'ReportRunExpired', data: { ...ids, expired_at: now } }];
    }
  },
};

/** The id of a report's run for a period: the same for every scheduler that queues it (docs/reports.md). */
export function reportRunId(reportId: string, period: ReportPeriod): string {
  return deterministicId('rrn', reportId, period.from, period.to);
}
