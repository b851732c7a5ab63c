/**
 * A re-audit (stream `compliance-audit-<aud_id>`, issue 14): past calls re-evaluated from their events under other
 * rules (settings, or a pack version), without touching their current results; the audit reports what would change.
 * It advances in batches, each an event with a cursor (the last call it covered, in (occurred_at, subject_id)
 * order), so a restart resumes after the last recorded batch, and two runners cannot both record the same batch:
 * a batch must start where the audit stands.
 */
import type { Decider, DomainEvent } from '../shared/decider.ts';
import { alreadyDone, DomainError, invalidState } from '../shared/errors.ts';
import { streamCategory } from '../shared/stream-name.ts';
import type { EnabledPack } from './packs.ts';
import type { ComplianceSeverity } from './rule.ts';

export interface AuditCursor {
  occurred_at: string;
  subject_id: string;
}

/** What one batch found, against the calls' current results. */
export interface AuditBatch {
  /** Calls in the batch. */
  processed: number;
  /** Calls without a critical violation now that would have one under the audit's rules (call or job ids). */
  newly_failing: string[];
  /** The reverse. */
  newly_passing: string[];
  /** Calls whose violations would differ at all. */
  changed: number;
  /** Violations that would be added or removed, per check. */
  by_check: Array<{ check: string; severity: ComplianceSeverity; added: number; removed: number }>;
  /**
   * The trained model this batch judged with on top of the rules (null: the rules alone). Absent from batches
   * recorded before it was kept (2026-11-28).
   */
  classifier?: string | null;
  /**
   * Calls of the batch whose current result another model judged (or the rules alone, or a model not recorded):
   * part of what changed for them may come from the model, not the rules.
   */
  judged_by_other_model?: number;
}

export type ComplianceAuditRequested = DomainEvent<
  'ComplianceAuditRequested',
  {
    audit_id: string;
    workspace_id: string;
    /** `settings`: packs given with the request; `rule_pack_version`: the workspace's settings with that pack version. */
    basis: 'settings' | 'rule_pack_version';
    packs: EnabledPack[];
    /** Instants bounding the calls' start times, both inclusive. */
    from: string;
    to: string;
    campaign_id: string | null;
    /** Calls with a result in the range when the audit was requested. */
    total: number;
    requested_at: string;
  }
>;
export type ComplianceAuditProgressed = DomainEvent<'ComplianceAuditProgressed', AuditBatch & { cursor: AuditCursor; at: string }>;
export type ComplianceAuditCompleted = DomainEvent<'ComplianceAuditCompleted', { completed_at: string }>;
export type ComplianceAuditEvent = ComplianceAuditRequested | ComplianceAuditProgressed | ComplianceAuditCompleted;

export type ComplianceAuditCommand =
  | { type: 'RequestComplianceAudit'; data: ComplianceAuditRequested['data'] }
  | { type: 'RecordComplianceAuditProgress'; data: { after: AuditCursor | null; cursor: AuditCursor; batch: AuditBatch; at: string } }
  | { type: 'CompleteComplianceAudit'; data: { after: AuditCursor | null; at: string } };

export interface ComplianceAuditState {
  status: 'running' | 'completed' | null;
  request: ComplianceAuditRequested['data'] | null;
  cursor: AuditCursor | null;
  processed: number;
}

const sameCursor = (a: AuditCursor | null, b: AuditCursor | null) => (a === null || b === null ? a === b : a.occurred_at === b.occurred_at && a.subject_id === b.subject_id);

export const complianceAuditDecider: Decider<ComplianceAuditCommand, ComplianceAuditEvent, ComplianceAuditState> = {
  initialState: () => ({ status: null, request: null, cursor: null, processed: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'ComplianceAuditRequested':
        return { status: 'running', request: event.data, cursor: null, processed: 0 };
      case 'ComplianceAuditProgressed':
        return { ...state, cursor: event.data.cursor, processed: state.processed + event.data.processed };
      case 'ComplianceAuditCompleted':
        return { ...state, status: 'completed' };
    }
  },
  decide(command, state) {
    if (command.type === 'RequestComplianceAudit') {
      if (state.status !== null) throw alreadyDone('The audit was already requested.', { audit_id: command.data.audit_id });
      if (Date.parse(command.data.to) < Date.parse(command.data.from)) {
        throw new DomainError('invalid_parameter', 'to: expected a time not before from', { field: 'to', provided: command.data.to, expected: 'a time not before from' });
      }
      return [{ type: 'ComplianceAuditRequested', data: command.data }];
    }
    if (state.status === null) throw new DomainError('resource_not_found', 'No such audit.', { resource_type: 'compliance_audit' });
    if (state.status === 'completed') throw invalidState('The audit is completed.', { status: state.status });
    // Another runner recorded this batch already: the caller reloads and carries on from there.
    if (!sameCursor(command.data.after, state.cursor)) throw invalidState('The audit has moved on.', { cursor: state.cursor });
    if (command.type === 'CompleteComplianceAudit') return [{ type: 'ComplianceAuditCompleted', data: { completed_at: command.data.at } }];
    return [{ type: 'ComplianceAuditProgressed', data: { ...command.data.batch, cursor: command.data.cursor, at: command.data.at } }];
  },
};

const auditStreams = streamCategory('compliance-audit');
export const complianceAuditStream = auditStreams.stream;
export const complianceAuditIdOf = auditStreams.idOf;

type ViolationLike = { check: string; severity: ComplianceSeverity };

/**
 * What re-evaluating calls changes, batch by batch: current violations against the audit's. Pure. `classifier`: the
 * model the audit judges with; each call's `current_classifier` the one its current result was judged by (null: the
 * rules alone, or not recorded).
 */
export function auditBatch(
  calls: ReadonlyArray<{ subject_id: string; current: readonly ViolationLike[]; proposed: readonly ViolationLike[]; current_classifier: string | null }>,
  classifier: string | null,
): AuditBatch {
  const byCheck = new Map<string, { check: string; severity: ComplianceSeverity; added: number; removed: number }>();
  const batch: AuditBatch = { processed: calls.length, newly_failing: [], newly_passing: [], changed: 0, by_check: [], classifier, judged_by_other_model: 0 };
  for (const call of calls) {
    if (call.current_classifier !== classifier) batch.judged_by_other_model! += 1;
    const counts = new Map<string, { severity: ComplianceSeverity; delta: number }>();
    for (const violation of call.current) {
      const entry = counts.get(violation.check) ?? { severity: violation.severity, delta: 0 };
      entry.delta--;
      counts.set(violation.check, entry);
    }
    for (const violation of call.proposed) {
      const entry = counts.get(violation.check) ?? { severity: violation.severity, delta: 0 };
      entry.delta++;
      entry.severity = violation.severity;
      counts.set(violation.check, entry);
    }
    let changed = false;
    for (const [check, { severity, delta }] of counts) {
      if (delta === 0) continue;
      changed = true;
      const total = byCheck.get(check) ?? { check, severity, added: 0, removed: 0 };
      if (delta > 0) total.added += delta;
      else total.removed -= delta;
      byCheck.set(check, total);
    }
    const failedBefore = call.current.some((violation) => violation.severity === 'critical');
    const failsNow = call.proposed.some((violation) => violation.severity === 'critical');
    if (!failedBefore && failsNow) batch.newly_failing.push(call.subject_id);
    if (failedBefore && !failsNow) batch.newly_passing.push(call.subject_id);
    if (changed) batch.changed++;
  }
  batch.by_check = [...byCheck.values()];
  return batch;
}
