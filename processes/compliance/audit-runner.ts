import type { Database } from 'better-sqlite3';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { callDecider, callStream, type CallPlacement } from '../../domain/call.ts';
import { auditBatch, complianceAuditDecider, complianceAuditStream, type AuditCursor, type ComplianceAuditRequested } from '../../domain/compliance/audit.ts';
import type { ComplianceViolation } from '../../domain/compliance/evaluation.ts';
import { isEventOfType } from '../../domain/shared/decider.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobEvent } from '../../domain/transcription-job.ts';
import type { ComplianceEvaluator } from '../../infra/analysis/compliance-evaluation.ts';
import { AnalysisBudgetExceededError, AnalysisFailedError } from '../../infra/analysis/transcript-analysis.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { EventStore, Recorded } from '../../infra/eventstore/port.ts';
import { auditSubjects, runningComplianceAudits } from '../../projections/compliance-audits.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { evaluateSubject } from './post-call-evaluation.ts';
import { postCallSubject } from './post-call-subject.ts';

export const COMPLIANCE_AUDITS = 'compliance-audits';
/** Calls per recorded batch: a restart repeats at most this many evaluations. */
export const AUDIT_BATCH = 25;

export interface ComplianceAuditPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  store: Pick<EventStore, 'readStream' | 'headPosition'>;
  complianceEvaluator: ComplianceEvaluator;
}

/**
 * Runs re-audits in the background (issue 14). Each past call in the audit's range is rebuilt from its events (the
 * transcription job's submission and completion, the call's placement) into the same input the live evaluation
 * used, evaluated under the audit's packs on the analysis threads, and compared with the call's current result
 * (never changed). Batches are recorded on the audit's stream with a cursor; on start, audits still running (read
 * model) resume after their last batch. The CLI (`compliance audit`) drives the same runner to completion.
 */
export class ComplianceAuditRunner implements ProcessManager<ComplianceAuditRequested> {
  readonly name = COMPLIANCE_AUDITS;
  readonly eventTypes = ['ComplianceAuditRequested'] as const;
  private readonly running = new Map<string, Promise<void>>();
  private readonly lifetime = new AbortController();

  constructor(private readonly ports: ComplianceAuditPorts) {}

  start(): void {
    const recovery = (async () => {
      if (!(await readModelsCaughtUp(this.ports, this.lifetime.signal))) return;
      for (const audit of runningComplianceAudits(this.ports.readDb)) this.launch(audit.audit_id, audit.workspace_id);
    })();
    this.running.set('recovery', recovery.catch((error: unknown) => this.ports.logger.error({ err: error }, 'resuming compliance audits failed')));
  }

  async stop(): Promise<void> {
    this.lifetime.abort();
    await Promise.allSettled([...this.running.values()]);
  }

  async handle(event: Recorded<ComplianceAuditRequested>): Promise<void> {
    this.launch(event.data.audit_id, event.data.workspace_id);
  }

  private launch(auditId: string, workspaceId: string): void {
    if (this.running.has(auditId)) return;
    const run = this.runToCompletion(auditId, workspaceId)
      .catch((error: unknown) => this.ports.logger.error({ err: error, audit_id: auditId }, 'compliance audit failed; it resumes on the next start'))
      .finally(() => this.running.delete(auditId));
    this.running.set(auditId, run);
  }

  /** Works through the audit batch by batch until it is completed (or the runner stops). */
  async runToCompletion(auditId: string, workspaceId: string): Promise<void> {
    const stream = complianceAuditStream(auditId);
    const context = () => ({ workspaceId, actor: COMPLIANCE_AUDITS, now: this.ports.clock.now() });
    while (!this.lifetime.signal.aborted) {
      const { state } = await this.ports.commands.load(complianceAuditDecider, stream);
      if (state.status !== 'running' || state.request === null) return;
      const request = state.request;
      const page = auditSubjects(this.ports.readDb, { workspaceId, from: request.from, to: request.to, campaignId: request.campaign_id, after: state.cursor, limit: AUDIT_BATCH });
      const at = this.ports.clock.now().toISOString();
      if (page.length === 0) {
        await this.ports.commands.handle(complianceAuditDecider, stream, { type: 'CompleteComplianceAudit', data: { after: state.cursor, at } }, context(), { tolerate: ['invalid_state'] });
        return;
      }
      const reevaluated = [];
      for (const row of page) reevaluated.push({ row, proposed: await this.reevaluate(row.job_id, row.call_id, workspaceId, request) });
      // The model the evaluator judged with (all of a batch's calls are judged by the same threads' model).
      const classifier = reevaluated.find(({ proposed }) => proposed !== null)?.proposed?.classifier ?? null;
      const calls = reevaluated.map(({ row, proposed }) => {
        const current = JSON.parse(row.violations) as ComplianceViolation[];
        // A call whose events are gone (never, in an append-only store), or that could not be re-evaluated, keeps its
        // result: no change to report, and none from a model.
        if (proposed === null) return { subject_id: row.subject_id, current, proposed: current, current_classifier: classifier };
        return { subject_id: row.subject_id, current, proposed: proposed.violations, current_classifier: row.classifier };
      });
      const last = page[page.length - 1]!;
      const cursor: AuditCursor = { occurred_at: last.occurred_at, subject_id: last.subject_id };
      const result = await this.ports.commands.handle(
        complianceAuditDecider,
        stream,
        { type: 'RecordComplianceAuditProgress', data: { after: state.cursor, cursor, batch: auditBatch(calls, classifier), at } },
        context(),
        // Another runner (the CLI and the server on one audit) recorded this batch first: reload and go on.
        { tolerate: ['invalid_state'] },
      );
      if (wasRefused(result)) continue;
    }
  }

  private async reevaluate(jobId: string, callId: string | null, workspaceId: string, request: ComplianceAuditRequested['data']): Promise<{ violations: ComplianceViolation[]; classifier: string | null } | null> {
    const { state: job } = await this.ports.commands.load(transcriptionJobDecider, transcriptionJobStream(jobId));
    if (job.job === null) return null;
    const events = await this.ports.store.readStream(transcriptionJobStream(jobId));
    const completed = events.filter((event) => isEventOfType<TranscriptionJobEvent, 'TranscriptionJobCompleted'>(event, 'TranscriptionJobCompleted'))[0];
    if (completed === undefined) return null;
    let call: CallPlacement | null = null;
    if (callId !== null) {
      call = (await this.ports.commands.load(callDecider, callStream(callId))).state.placed;
      if (call === null) return null;
    }
    const subject = postCallSubject(completed.data, job.job, workspaceId, call);
    try {
      const { violations, classifier } = await evaluateSubject(this.ports.complianceEvaluator, subject, request.packs, this.ports.clock.now());
      return { violations, classifier: classifier ?? null };
    } catch (error) {
      // The same transcript would fail again on every resume: counted as unchanged, so the audit can finish.
      if (!(error instanceof AnalysisBudgetExceededError || error instanceof AnalysisFailedError)) throw error;
      this.ports.logger.warn({ err: error, subject_id: subject.subject_id, audit_id: request.audit_id }, 'a call could not be re-evaluated in an audit');
      return null;
    }
  }
}

export function createComplianceAuditRunner(ports: ComplianceAuditPorts): ComplianceAuditRunner {
  return new ComplianceAuditRunner(ports);
}
