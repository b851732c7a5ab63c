import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ComplianceViolation } from '../../domain/compliance/evaluation.ts';
import { defaultPack } from '../../domain/compliance/packs.ts';
import { complianceResultDecider, complianceResultStream, type ComplianceEvaluatedData } from '../../domain/compliance/result.ts';
import { complianceAggregate, complianceCheckResults, complianceViolationLog } from '../../projections/compliance-results.ts';
import { testRuntime } from '../support/runtime.ts';

/**
 * The queries behind the compliance_audit report over the real projection: every check with its passes, and the
 * violation log bounded by its limit (oldest call first) with the total of all findings.
 */
const threat = (index: number): ComplianceViolation => ({
  check: 'no_threats',
  description: `threat ${index}`,
  severity: 'critical',
  rule_id: 'in-rbi-recovery.no_threats',
  rule_pack: { id: 'in-rbi-recovery', version: '1.0.0' },
  evidence: { speaker: 'agent', start_time: index, end_time: index + 1, text: `threat number ${index}` },
});

function evaluation(index: number, failed: boolean, campaignId: string | null): ComplianceEvaluatedData {
  const subject = `cal_${String(index).padStart(3, '0')}`;
  // A failing call carries two findings of the same check (two threats).
  const violations = failed ? [threat(index * 10), threat(index * 10 + 1)] : [];
  return {
    subject_id: subject,
    call_id: subject,
    job_id: `job_${index}`,
    workspace_id: 'ws_a',
    campaign_id: campaignId,
    language: 'hi-IN',
    purpose: 'recovery',
    occurred_at: `2026-03-02T06:${String(index).padStart(2, '0')}:00.000Z`,
    packs: [defaultPack('in-rbi-recovery')],
    opt_out: null,
    evaluated_at: '2026-03-02T07:00:00.000Z',
    compliance_score: failed ? 40 : 100,
    passed_checks: failed ? ['recording_disclosure'] : ['recording_disclosure', 'no_threats'],
    violations,
    checks: [
      { rule_id: 'in-rbi-recovery.recording_disclosure', check: 'recording_disclosure', severity: 'warning', passed: true },
      { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: !failed },
    ],
  };
}

test('compliance_audit queries: check results with passes, a violation log cut at its limit with the total', async () => {
  const { runtime, remove } = testRuntime();
  try {
    // Calls 0..9: the even ones fail (5 calls, 10 findings); calls 0..4 belong to cmp_a.
    for (let index = 0; index < 10; index += 1) {
      const data = evaluation(index, index % 2 === 0, index < 5 ? 'cmp_a' : null);
      await runtime.commands.handle(complianceResultDecider, complianceResultStream(data.subject_id), { type: 'RecordComplianceEvaluation', data }, { workspaceId: 'ws_a', actor: 'test', now: new Date() });
    }
    await runtime.projections.catchUp();
    const filter = { fromInstant: '2026-03-02T00:00:00.000Z', toInstant: '2026-03-02T23:59:59.999Z' };
    assert.equal(complianceCheckResults(runtime.readDb, 'ws_a', filter), [
      { check: 'no_threats', severity: 'critical', calls_evaluated: 10, failed_calls: 5, violations: 10 },
      { check: 'recording_disclosure', severity: 'warning', calls_evaluated: 10, failed_calls: 0, violations: 0 },
    ]);
    assert.equal(complianceAggregate(runtime.readDb, 'ws_a', filter).violations_by_severity, { critical: 10, warning: 0 });

    const cut = complianceViolationLog(runtime.readDb, 'ws_a', filter, 3);
    assert.is(cut.total, 10);
    assert.equal(cut.entries.map((entry) => [entry.call_id, entry.violation.description]), [['cal_000', 'threat 0'], ['cal_000', 'threat 1'], ['cal_002', 'threat 20']]);
    const all = complianceViolationLog(runtime.readDb, 'ws_a', filter, 500);
    assert.equal([all.total, all.entries.length, all.entries.at(-1)!.call_id], [10, 10, 'cal_008']);

    const campaign = complianceViolationLog(runtime.readDb, 'ws_a', { ...filter, campaign_id: 'cmp_a' }, 500);
    assert.equal([campaign.total, [...new Set(campaign.entries.map((entry) => entry.call_id))]], [6, ['cal_000', 'cal_002', 'cal_004']]);
    assert.equal(complianceCheckResults(runtime.readDb, 'ws_a', { ...filter, campaign_id: 'cmp_a' })[0], { check: 'no_threats', severity: 'critical', calls_evaluated: 5, failed_calls: 3, violations: 6 });
    assert.equal(complianceViolationLog(runtime.readDb, 'ws_b', filter, 500), { total: 0, entries: [] }, 'per workspace');
    assert.equal(complianceViolationLog(runtime.readDb, 'ws_a', { ...filter, language: 'ta-IN' }, 500), { total: 0, entries: [] });
  } finally {
    await runtime.close();
    remove();
  }
});

test.run();
