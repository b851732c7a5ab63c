import type { Database } from 'better-sqlite3';
import type { Commands } from '../../commands/handler.ts';
import { reportDecider, reportStream, type ReportEvent } from '../../domain/report.ts';
import { timerDecider, timerStream, type TimerEvent } from '../../domain/timer.ts';
import { MAX_AUTOMATIC_ATTEMPTS, RETRY_DELAYS_MS } from '../../domain/webhook-delivery.ts';
import type { BlobStore } from '../../infra/blobs/port.ts';
import { REPORT_EMAIL_LINK_VALIDITY_MS, type ReportLinks } from '../../infra/blobs/report-links.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { Mailer } from '../../infra/mail/port.ts';
import { runsAwaitingEmail } from '../../projections/reports.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { reportTypeDefinition } from './types/index.ts';

export const REPORT_MAILER = 'report-mailer';
export const REPORT_EMAIL_TIMER_KIND = 'report-email';
/** Files up to this size are attached; larger ones are linked (a signed URL valid 7 days). */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface ReportMailerPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  blobs: BlobStore;
  reportLinks: ReportLinks;
  /** Null without SMTP_URL: then no report carries `email` (POST refuses it). */
  mailer: Mailer | null;
  mailFrom: string;
  maxAttachmentBytes: number;
}

type HandledEvent = Extract<ReportEvent, { type: 'ReportRunCompleted' }> | Extract<TimerEvent, { type: 'TimerFired' }>;

async function readAll(blobs: BlobStore, key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.read(key)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * E-mails each completed run of a report with `email` (docs/reports.md, "E-mail"): the file attached when it is at
 * most `maxAttachmentBytes`, else a signed link valid 7 days. A failed send is retried on the webhook schedule
 * (1 min, 5 min, 30 min, 2 h, 8 h) through durable timers, then given up; each try is recorded on the report's
 * stream (`email_status` of the run). Every try of a run carries the same Message-ID.
 */
export function createReportMailer(ports: ReportMailerPorts): ProcessManager<HandledEvent> {
  const { commands, clock, logger, mailer } = ports;
  const lifetime = new AbortController();

  async function attempt(reportId: string, runId: string, number: number, causationId: string | null): Promise<void> {
    if (!mailer) return;
    const { state } = await commands.load(reportDecider, reportStream(reportId));
    const report = state.report;
    const run = state.runs[runId];
    if (!report?.email || !run || run.status !== 'completed' || run.emailDone || run.expired || number !== run.emailAttempts + 1) return;
    const completed = run.output;
    if (!completed) return;
    const context = { workspaceId: report.workspace_id, actor: REPORT_MAILER, now: clock.now(), causationId };
    const title = reportTypeDefinition(report.type)?.title ?? report.type;
    const attach = completed.size_bytes <= ports.maxAttachmentBytes;
    const lines = [`${title}, ${run.period.from} to ${run.period.to} (${report.timezone}).`, `Report ${reportId}, run ${runId}.`, ''];
    if (attach) lines.push(`The report is attached (${completed.file_name}).`);
    else lines.push(`The report (${completed.file_name}, ${Math.ceil(completed.size_bytes / 1024)} KB) is too large to attach; download it within 7 days:`, ports.reportLinks.urlFor(runId, REPORT_EMAIL_LINK_VALIDITY_MS).url);
    try {
      await mailer.send({
        from: ports.mailFrom,
        to: report.email.to,
        subject: report.email.subject ?? `${title}: ${run.period.from} to ${run.period.to}`,
        text: `${lines.join('\n')}\n`,
        messageId: `<${runId}@reports>`,
        headers: { 'X-Report-Id': reportId, 'X-Report-Run-Id': runId },
        attachments: attach ? [{ filename: completed.file_name, content: await readAll(ports.blobs, completed.blob_key), contentType: completed.content_type }] : [],
      });
      await commands.handle(reportDecider, reportStream(reportId), { type: 'RecordReportEmail', runId, attempt: number, outcome: { sent: attach ? 'attachment' : 'link', recipients: report.email.to }, now: clock.now() }, context);
      logger.info({ report_id: reportId, run_id: runId, attempt: number, delivery: attach ? 'attachment' : 'link' }, 'report e-mailed');
    } catch (error) {
      const final = number >= MAX_AUTOMATIC_ATTEMPTS;
      const message = error instanceof Error ? error.message : String(error);
      await commands.handle(reportDecider, reportStream(reportId), { type: 'RecordReportEmail', runId, attempt: number, outcome: { error: { code: 'email_failed', message }, final }, now: clock.now() }, context);
      logger.warn({ report_id: reportId, run_id: runId, attempt: number, err: error, final }, final ? 'report e-mail failed for good' : 'report e-mail failed; retrying');
      if (final) return;
      const timerId = `report-email-${runId}-${number + 1}`;
      await commands.handle(
        timerDecider,
        timerStream(timerId),
        { type: 'ScheduleTimer', timerId, kind: REPORT_EMAIL_TIMER_KIND, dueAt: new Date(clock.now().getTime() + RETRY_DELAYS_MS[number - 1]!), payload: { report_id: reportId, run_id: runId, attempt: number + 1 } },
        context,
      );
    }
  }

  async function timerFired(event: Recorded<Extract<TimerEvent, { type: 'TimerFired' }>>): Promise<void> {
    const { report_id: reportId, run_id: runId, attempt: number } = event.data.payload;
    if (typeof reportId !== 'string' || typeof runId !== 'string' || typeof number !== 'number') return;
    await attempt(reportId, runId, number, event.id);
  }

  return {
    name: REPORT_MAILER,
    eventTypes: ['ReportRunCompleted', 'TimerFired'],
    async handle(event) {
      if (event.type === 'ReportRunCompleted') return attempt(event.data.report_id, event.data.run_id, 1, event.id);
      if (event.data.kind === REPORT_EMAIL_TIMER_KIND) return timerFired(event);
    },
    start() {
      if (!mailer) return;
      // A send interrupted by a stop (or a crash) before its outcome was recorded is tried again.
      void (async () => {
        if (!(await readModelsCaughtUp(ports, lifetime.signal))) return;
        for (const run of runsAwaitingEmail(ports.readDb)) {
          if (lifetime.signal.aborted) return;
          await attempt(run.report_id, run.run_id, 1, null).catch((error: unknown) => logger.error({ err: error, run_id: run.run_id }, 'report e-mail recovery failed'));
        }
      })();
    },
    stop() {
      lifetime.abort();
      mailer?.close();
    },
  };
}
