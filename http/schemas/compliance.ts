import { z } from '@hono/zod-openapi';
import { RULE_PACK_IDS } from '../../domain/compliance/packs.ts';
import { CALL_PURPOSES } from '../../domain/compliance/rule.ts';
import { listEnvelope, PaginationQuery, Timestamp } from './common.ts';

/** The compliance endpoints' bodies and answers (issue 14; docs/compliance.md). */

const PackId = z.string().openapi({ enum: [...RULE_PACK_IDS], example: 'in-rbi-recovery' });
const Severity = z.enum(['critical', 'warning']);

const PackSettingInput = z
  .looseObject({
    id: PackId,
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "The pack's parameters (docs/compliance.md lists each pack's); omitted ones take their defaults.", example: { max_attempts_per_day: 2 } }),
  })
  .openapi('CompliancePackSettingInput');

export const ComplianceSettingsBody = z
  .strictObject({
    packs: z.array(PackSettingInput).openapi({
      description: 'Every pack to enable, each at most once; a pack left out is disabled. An empty array disables compliance checks.',
      example: [{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 2 } }, { id: 'in-trai' }, { id: 'in-dpdp', parameters: { sector: 'insurer' } }],
    }),
  })
  .openapi('ComplianceSettingsInput');

const RuleSchema = z
  .object({
    id: z.string().openapi({ example: 'in-rbi-recovery.calling_window' }),
    kind: z.enum(['pre-dial', 'post-call']),
    severity: z.string().openapi({ description: '`critical` or `warning`; `parameter` when a parameter decides it (in-dpdp recording disclosure).' }),
    description: z.string(),
  })
  .openapi('ComplianceRule');

const EnabledPackSchema = z
  .object({
    id: PackId,
    version: z.string().openapi({ example: '1.0.0' }),
    title: z.string(),
    purposes: z.array(z.enum(CALL_PURPOSES)).openapi({ description: 'The call purposes its rules apply to.' }),
    parameters: z.record(z.string(), z.unknown()).openapi({ description: 'Every parameter, defaults filled in.' }),
    rules: z.array(RuleSchema),
  })
  .openapi('CompliancePack');

export const ComplianceSettingsSchema = z
  .object({
    packs: z.array(EnabledPackSchema).openapi({ description: 'The enabled packs. A workspace that never set them has `general` only.' }),
    available_packs: z.array(EnabledPackSchema).openapi({ description: 'Every pack the service ships, with default parameters.' }),
    revision: z.int().openapi({ description: 'How many times the settings were changed (0: the defaults).' }),
    updated_at: Timestamp.nullable(),
  })
  .openapi('ComplianceSettings');

const EvidenceSchema = z
  .object({ speaker: z.string(), start_time: z.number(), end_time: z.number(), text: z.string() })
  .openapi('ComplianceEvidenceSegment', { description: 'The transcript segment that shows the violation (seconds from the call\'s start).' });

const RulePackRefSchema = z.object({ id: z.string(), version: z.string() }).openapi('ComplianceRulePackRef');

const ViolationSchema = z
  .object({
    check: z.string().openapi({ example: 'no_false_claims' }),
    description: z.string(),
    severity: Severity,
    rule_pack: RulePackRefSchema,
    evidence: EvidenceSchema.nullable(),
  })
  .openapi('ComplianceViolationItem');

export const ComplianceResultSchema = z
  .object({
    call_id: z.string().nullable().openapi({ description: 'Null for a standalone transcription job.' }),
    job_id: z.string().openapi({ description: 'The transcription job whose transcript was checked.' }),
    compliance_score: z.number().openapi({ description: '100 × (1 − weighted failed checks / weighted applicable checks); critical 3, warning 1; 100 when no check applied.' }),
    passed_checks: z.array(z.string()),
    violations: z.array(ViolationSchema).openapi({ description: 'One per finding: a check failed twice in a call is listed twice.' }),
    rule_packs: z.array(RulePackRefSchema).openapi({ description: 'The packs (and versions) the call was evaluated under.' }),
    classifier: z.string().nullable().openapi({
      description:
        'The trained model that judged the call on top of the rules (`COMPLIANCE_CLASSIFIER=on`): `compliance-classifier/1@` and the first 12 hex digits of the model file\'s SHA-256, so a retrained model is another id. Null: the rules alone, or a result recorded before the model was kept (2026-11-28).',
      example: 'compliance-classifier/1@3f9a0c21b7e4',
    }),
    evaluated_at: Timestamp,
  })
  .openapi('ComplianceResult');

export const ComplianceProcessingSchema = z
  .object({
    call_id: z.string().nullable(),
    job_id: z.string().nullable(),
    status: z.enum(['processing', 'not_applicable', 'failed']).openapi({
      description: '`processing`: not evaluated yet. `not_applicable`: the call ended without a conversation (not answered, failed): nothing to check. `failed`: the evaluation exceeded the analysis budget or failed (`error`); it is not retried.',
    }),
    error: z.object({ code: z.enum(['analysis_budget_exceeded', 'analysis_failed']), message: z.string() }).optional().openapi({ description: 'With `failed` only.' }),
  })
  .openapi('ComplianceResultPending');

export const ComplianceQuery = z.object({
  call_id: z.string().optional().openapi({ description: 'That call\'s result; every other filter is ignored.' }),
  job_id: z.string().optional().openapi({ description: 'A standalone transcription job\'s result (submitted with the `compliance` feature); every other filter is ignored.' }),
  from: z.string().optional().openapi({ description: 'Inclusive date (or date-time) in `timezone`; default 29 days before `to`.', example: '2026-03-01' }),
  to: z.string().optional().openapi({ description: 'Inclusive; default today.', example: '2026-03-30' }),
  campaign_id: z.string().optional(),
  language: z.string().optional().openapi({ example: 'hi-IN' }),
  timezone: z.string().optional().openapi({ description: 'IANA zone of the date bounds (default UTC).', example: 'Asia/Kolkata' }),
});

export const ComplianceAggregateSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    calls_evaluated: z.int().openapi({ description: 'Calls (and standalone jobs) evaluated that started in the range.' }),
    avg_compliance_score: z.number().nullable().openapi({ description: 'Null when nothing was evaluated.' }),
    pass_rate: z.number().openapi({ description: 'Fraction of evaluated calls without a critical violation; 0 when none.' }),
    violations_by_severity: z.object({ critical: z.int(), warning: z.int() }),
    violations_by_check: z
      .array(z.object({ check: z.string(), severity: Severity, count: z.int().openapi({ description: 'Violations.' }), calls: z.int().openapi({ description: 'Calls with at least one.' }) }))
      .openapi({ description: 'Most frequent first.' }),
    blocked_attempts_by_rule: z
      .array(
        z.object({
          rule_id: z.string().openapi({ example: 'in-rbi-recovery.calling_window' }),
          severity: Severity,
          count: z.int().openapi({ description: 'Attempts the rule blocked in the range (campaign attempts; single calls refused with 409 are not recorded).' }),
          final: z.int().openapi({ description: 'Of those, how many ended the contact (`dnd`, never called) rather than making it wait.' }),
        }),
      )
      .openapi({ description: 'From the pre-dial side, by the time the attempt was blocked.' }),
  })
  .openapi('ComplianceAggregate');

export const ComplianceAuditBody = z
  .strictObject({
    settings: z
      .object({ packs: z.array(PackSettingInput) })
      .optional()
      .openapi({ description: 'Re-audit under these packs and parameters (the shape of PUT /v1/compliance/settings). Exactly one of `settings` and `rule_pack_version`.' }),
    rule_pack_version: z
      .strictObject({ id: PackId, version: z.string().openapi({ example: '1.0.0' }) })
      .optional()
      .openapi({ description: "Re-audit under the workspace's current settings with this pack at this version (added with its defaults when not enabled): what a new version of the pack's code would change. The version must be one this service ships." }),
    from: z.string().openapi({ description: 'Calls that started from this date (or date-time), inclusive.', example: '2026-03-01' }),
    to: z.string().openapi({ description: 'Inclusive; at most 366 days after `from`.', example: '2026-03-31' }),
    timezone: z.string().optional().openapi({ description: 'IANA zone of the date bounds (default UTC).', example: 'Asia/Kolkata' }),
    campaign_id: z.string().optional(),
  })
  .openapi('ComplianceAuditInput');

export const ComplianceAuditSchema = z
  .object({
    id: z.string().openapi({ example: 'aud_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    status: z.enum(['running', 'completed']),
    basis: z.enum(['settings', 'rule_pack_version']),
    rule_packs: z.array(z.object({ id: PackId, version: z.string(), parameters: z.record(z.string(), z.unknown()) })).openapi({ description: 'The packs the calls are re-evaluated under.' }),
    from: Timestamp.openapi({ description: 'The range as instants.' }),
    to: Timestamp,
    campaign_id: z.string().nullable(),
    progress: z.object({
      processed: z.int().openapi({ description: 'Calls re-evaluated so far.' }),
      total: z.int().openapi({ description: 'Calls with a result in the range when the audit was requested.' }),
    }),
    calls_newly_failing: z.int().openapi({ description: 'Calls without a critical violation now that would have one.' }),
    newly_failing_call_ids: z.array(z.string()).openapi({ description: 'The first 100 of them (call ids; job ids for standalone jobs).' }),
    calls_newly_passing: z.int().openapi({ description: 'Calls with a critical violation now that would have none.' }),
    calls_changed: z.int().openapi({ description: 'Calls whose violations would differ at all.' }),
    violations_by_check: z
      .array(z.object({ check: z.string(), severity: Severity, added: z.int(), removed: z.int() }))
      .openapi({ description: 'Violations that would be added and removed, per check.' }),
    classifiers: z.array(z.string()).openapi({
      description: 'The trained models the audit judged with on top of the rules (`compliance-classifier/1@` and the first 12 hex digits of the model file\'s SHA-256); empty: the rules alone.',
      example: ['compliance-classifier/1@3f9a0c21b7e4'],
    }),
    calls_judged_by_other_model: z.int().openapi({
      description: 'Calls whose current result another model judged (or the rules alone, or a model not recorded: results before 2026-11-28): part of what would change for them may come from the model rather than the rules.',
    }),
    requested_at: Timestamp,
    completed_at: Timestamp.nullable(),
  })
  .openapi('ComplianceAudit');

export const ComplianceAuditListSchema = listEnvelope(ComplianceAuditSchema, 'ComplianceAuditList');

export const ComplianceAuditListQuery = PaginationQuery;
