import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { auditBatch } from '../../../domain/compliance/audit.ts';
import { complianceOutcome, packsFor } from '../../../domain/compliance/evaluation.ts';
import { defaultPack } from '../../../domain/compliance/packs.ts';

const packs = [defaultPack('in-rbi-recovery'), defaultPack('general')];
const evidence = { speaker: 'agent', start_time: 3, end_time: 5, text: 'Police will arrest you today.' };

test('score: 100 × (1 − weighted failed / weighted applicable), critical 3, warning 1; a check counts once', () => {
  const outcome = complianceOutcome(
    [
      { rule_id: 'in-rbi-recovery.no_false_claims', check: 'no_false_claims', severity: 'critical', passed: false, findings: [{ description: 'police', evidence }, { description: 'arrest', evidence }] },
      { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: true, findings: [] },
      { rule_id: 'general.dead_air', check: 'dead_air', severity: 'warning', passed: false, findings: [{ description: 'silence', evidence: null }] },
      { rule_id: 'general.agent_talk_share', check: 'agent_talk_share', severity: 'warning', passed: true, findings: [] },
    ],
    packs,
  );
  // applicable 3 + 3 + 1 + 1 = 8, failed 3 + 1 = 4
  assert.is(outcome.compliance_score, 50);
  assert.equal(outcome.passed_checks, ['no_threats', 'agent_talk_share']);
  assert.equal(outcome.violations.map((violation) => [violation.check, violation.severity, violation.rule_pack.id, violation.rule_pack.version]), [
    ['no_false_claims', 'critical', 'in-rbi-recovery', '1.0.0'],
    ['no_false_claims', 'critical', 'in-rbi-recovery', '1.0.0'],
    ['dead_air', 'warning', 'general', '1.0.0'],
  ]);
  assert.equal(outcome.violations[0]!.evidence, evidence);
  assert.is(complianceOutcome([], packs).compliance_score, 100, 'nothing applicable');
  assert.is(complianceOutcome([{ rule_id: 'general.dead_air', check: 'dead_air', severity: 'warning', passed: false, findings: [] }], packs).compliance_score, 0);
});

test('packs apply by purpose', () => {
  assert.equal(packsFor(packs, 'service').map((pack) => pack.id), ['general']);
  assert.equal(packsFor(packs, 'recovery').map((pack) => pack.id), ['in-rbi-recovery', 'general']);
});

test('an audit batch: violations added and removed per check, calls newly failing and passing, calls judged by another model', () => {
  const critical = (check: string) => ({ check, severity: 'critical' as const });
  const warning = (check: string) => ({ check, severity: 'warning' as const });
  const model = 'compliance-classifier/1@000000000001';
  assert.equal(
    auditBatch(
      [
        { subject_id: 'cal_a', current: [], proposed: [critical('no_threats')], current_classifier: model },
        { subject_id: 'cal_b', current: [critical('no_threats'), warning('dead_air')], proposed: [warning('dead_air'), warning('dead_air')], current_classifier: 'compliance-classifier/1@000000000000' },
        { subject_id: 'cal_c', current: [warning('dead_air')], proposed: [warning('dead_air')], current_classifier: null },
      ],
      model,
    ),
    {
      processed: 3,
      newly_failing: ['cal_a'],
      newly_passing: ['cal_b'],
      changed: 2,
      by_check: [
        { check: 'no_threats', severity: 'critical', added: 1, removed: 1 },
        { check: 'dead_air', severity: 'warning', added: 1, removed: 0 },
      ],
      classifier: model,
      // cal_b by an older model, cal_c by the rules alone (or before the model was recorded).
      judged_by_other_model: 2,
    },
  );
});

test.run();
