import type { z } from '@hono/zod-openapi';
import { validateLanguage } from '../../domain/campaign.ts';
import { POST_CALL_RULES } from '../../domain/compliance/post-call-rules.ts';
import { RULE_PACK_IDS, RULE_PACKS, defaultPack, type EnabledPack } from '../../domain/compliance/packs.ts';
import { PRE_DIAL_RULES } from '../../domain/compliance/pre-dial-rules.ts';
import { complianceSettingsDecider, complianceSettingsStream } from '../../domain/compliance/settings.ts';
import { addDays, localDateOf } from '../../domain/shared/time-zone.ts';
import { findCall } from '../../projections/calls.ts';
import { complianceAggregate, findComplianceFailure, findComplianceResult, type ComplianceResultRow } from '../../projections/compliance-results.ts';
import { findComplianceSettings } from '../../projections/compliance-settings.ts';
import { findTranscriptionJobDocument } from '../../projections/transcription-jobs.ts';
import { parseAnalyticsRange, parseTimezone } from '../analytics-range.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import { resourceId } from '../resource-id.ts';
import { idParams } from '../schemas/common.ts';
import { listBody } from '../list.ts';
import { createOnce } from '../../commands/create-once.ts';
import { complianceAuditDecider, complianceAuditStream } from '../../domain/compliance/audit.ts';
import { validatePacks } from '../../domain/compliance/settings.ts';
import { isRulePackId } from '../../domain/compliance/packs.ts';
import { findCampaign } from '../../projections/campaigns.ts';
import { countAuditSubjects, findComplianceAudit, listComplianceAudits, type ComplianceAuditRow } from '../../projections/compliance-audits.ts';
import type { ResourcePorts } from '../ports.ts';
import {
  ComplianceAuditBody,
  ComplianceAuditListQuery,
  ComplianceAuditListSchema,
  ComplianceAuditSchema,
  ComplianceAggregateSchema,
  ComplianceProcessingSchema,
  ComplianceQuery,
  ComplianceResultSchema,
  ComplianceSettingsBody,
  ComplianceSettingsSchema,
} from '../schemas/compliance.ts';

const TAG = 'Compliance';
const settingsJson = { 'application/json': { schema: ComplianceSettingsSchema } };

const getSettings = defineRoute({
  method: 'get',
  path: '/compliance/settings',
  operationId: 'getComplianceSettings',
  tags: [TAG],
  summary: "The workspace's compliance rule packs",
  description: 'The enabled packs with their versions, parameters (defaults filled in) and rules, and every pack available. A workspace that never set them has `general` only.',
  responses: { 200: { description: 'The settings.', content: settingsJson } },
});

const putSettings = defineRoute(
  {
    method: 'put',
    path: '/compliance/settings',
    operationId: 'putComplianceSettings',
    tags: [TAG],
    summary: 'Choose the rule packs and their parameters',
    description:
      'Admin only. Replaces the enabled packs as a whole. Each pack\'s parameters are checked against its schema: an unknown pack, a pack listed twice, ' +
      'an unknown parameter or a value out of range is 400 naming the field (e.g. `packs[0].parameters.max_attempts_per_day`). ' +
      'Pre-dial rules apply from the next attempt; post-call rules from the next evaluated call. Every change is kept as an event.',
    request: { body: { content: { 'application/json': { schema: ComplianceSettingsBody } }, required: true } },
    responses: { 200: { description: 'The settings now in force.', content: settingsJson } },
  },
  { scope: 'Admin' },
);

const getCompliance = defineRoute({
  method: 'get',
  path: '/analytics/compliance',
  operationId: 'getComplianceAnalytics',
  tags: ['Analytics'],
  summary: "A call's compliance result, or compliance aggregated over a range",
  description:
    'With `call_id` (or `job_id` for a standalone transcription job): that call\'s result (404 when the call does not exist; `{status: "processing"}` until it is evaluated; ' +
    '`{status: "not_applicable"}` for a call that ended without a conversation). Otherwise the aggregate over the calls that started between `from` and `to` ' +
    '(default: the last 30 days), optionally of one campaign or language (docs/compliance.md).',
  request: { query: ComplianceQuery },
  responses: {
    200: {
      description: 'A result, its pending status, or the aggregate.',
      content: { 'application/json': { schema: ComplianceResultSchema.or(ComplianceProcessingSchema).or(ComplianceAggregateSchema) } },
    },
  },
});

function ruleList(id: EnabledPack['id']) {
  return [
    ...PRE_DIAL_RULES[id].map((rule) => ({ id: rule.id, kind: rule.kind, severity: rule.severity, description: rule.description })),
    ...(POST_CALL_RULES[id] ?? []).map((rule) => ({ id: rule.id, kind: rule.kind, severity: typeof rule.severity === 'function' ? 'parameter' : rule.severity, description: rule.description })),
  ];
}

function packDocument(pack: EnabledPack) {
  const definition = RULE_PACKS[pack.id];
  return { id: pack.id, version: pack.version, title: definition.title, purposes: [...definition.purposes], parameters: pack.parameters, rules: ruleList(pack.id) };
}

function settingsDocument(row: { packs: EnabledPack[]; revision: number; updated_at: string | null }): z.infer<typeof ComplianceSettingsSchema> {
  return {
    packs: row.packs.map(packDocument),
    available_packs: RULE_PACK_IDS.map((id) => packDocument(defaultPack(id))),
    revision: row.revision,
    updated_at: row.updated_at,
  };
}

function resultDocument(result: ComplianceResultRow): z.infer<typeof ComplianceResultSchema> {
  return {
    call_id: result.call_id,
    job_id: result.job_id,
    compliance_score: result.compliance_score,
    passed_checks: result.passed_checks,
    violations: result.violations.map(({ check, description, severity, rule_pack, evidence }) => ({ check, description, severity, rule_pack, evidence })),
    rule_packs: result.rule_packs,
    classifier: result.classifier,
    evaluated_at: result.evaluated_at,
  };
}

const createAudit = defineRoute(
  {
    method: 'post',
    path: '/compliance/audits',
    operationId: 'createComplianceAudit',
    tags: [TAG],
    summary: 'Re-audit past calls under other rules',
    description:
      'Re-evaluates, in the background, every call with a compliance result that started in the range (optionally of one campaign) from its events, under ' +
      '`settings` or a `rule_pack_version`, without changing any current result; GET /v1/compliance/audits/{id} reports progress and what would change. ' +
      'Survives a restart (it resumes after its last recorded batch). Also: `npm run -s cli -- compliance audit`.',
    request: { body: { content: { 'application/json': { schema: ComplianceAuditBody } }, required: true } },
    responses: { 202: { description: 'The audit, running.', content: { 'application/json': { schema: ComplianceAuditSchema } } } },
  },
  { scope: 'Admin', references: 'resource_not_found: `campaign_id` names no campaign of this workspace.' },
);

const getAudit = defineRoute({
  method: 'get',
  path: '/compliance/audits/{id}',
  operationId: 'getComplianceAudit',
  tags: [TAG],
  summary: 'A re-audit: progress and what would change',
  description: '`progress` while `running`; the counts grow batch by batch and are final once `completed`. Another workspace\'s audit is 404.',
  request: { params: idParams('aud_01jd8k3m9q2x7c4v5b6n8p0r2t') },
  responses: { 200: { description: 'The audit.', content: { 'application/json': { schema: ComplianceAuditSchema } } } },
});

const listAudits = defineRoute({
  method: 'get',
  path: '/compliance/audits',
  operationId: 'listComplianceAudits',
  tags: [TAG],
  summary: "The workspace's re-audits",
  description: 'Newest first (by request time; requested in the same millisecond, the later first), running and completed, each as GET /v1/compliance/audits/{id} answers it.',
  request: { query: ComplianceAuditListQuery },
  responses: { 200: { description: 'A page of audits.', content: { 'application/json': { schema: ComplianceAuditListSchema } } } },
});

export function auditDocument(row: ComplianceAuditRow): z.infer<typeof ComplianceAuditSchema> {
  return {
    id: row.audit_id,
    status: row.status,
    basis: row.basis,
    rule_packs: row.packs,
    from: row.from,
    to: row.to,
    campaign_id: row.campaign_id,
    progress: { processed: row.processed, total: row.total },
    calls_newly_failing: row.newly_failing,
    newly_failing_call_ids: row.newly_failing_ids,
    calls_newly_passing: row.newly_passing,
    calls_changed: row.changed,
    violations_by_check: row.by_check,
    classifiers: row.classifiers,
    calls_judged_by_other_model: row.judged_by_other_model,
    requested_at: row.requested_at,
    completed_at: row.completed_at,
  };
}

/** The packs an audit request names: its own settings, or the workspace's with one pack at a given version. */
function auditPacks(body: z.infer<typeof ComplianceAuditBody>, current: readonly EnabledPack[]): { basis: 'settings' | 'rule_pack_version'; packs: EnabledPack[] } {
  if ((body.settings === undefined) === (body.rule_pack_version === undefined)) {
    throw invalidParameter('settings', body.settings ?? null, 'exactly one of settings and rule_pack_version');
  }
  if (body.settings !== undefined) return { basis: 'settings', packs: validatePacks(body.settings.packs) };
  const { id, version } = body.rule_pack_version!;
  if (!isRulePackId(id)) throw invalidParameter('rule_pack_version.id', id, `one of ${RULE_PACK_IDS.join(', ')}`);
  if (version !== RULE_PACKS[id].version) throw invalidParameter('rule_pack_version.version', version, `a version of ${id} this service ships: ${RULE_PACKS[id].version}`);
  const packs = current.some((pack) => pack.id === id) ? current.map((pack) => (pack.id === id ? { ...pack, version } : pack)) : [...current, defaultPack(id)];
  return { basis: 'rule_pack_version', packs };
}

const errorOf = (failure: { code: string; message: string }) => ({
  code: failure.code === 'analysis_budget_exceeded' ? ('analysis_budget_exceeded' as const) : ('analysis_failed' as const),
  message: failure.message,
});

const DEFAULT_RANGE_DAYS = 30;
const rateOf = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export function complianceRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  router.openapi(getSettings, (c) => {
    const { workspaceId } = principalOf(c);
    return c.json(settingsDocument(findComplianceSettings(readDb, workspaceId)), 200);
  });

  router.openapi(putSettings, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { packs } = c.req.valid('json');
    const now = clock.now();
    const result = await commands.handle(
      complianceSettingsDecider,
      complianceSettingsStream(workspaceId),
      { type: 'SetComplianceSettings', data: { workspace_id: workspaceId, packs, at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(settingsDocument(result.state), 200);
  });

  router.openapi(getCompliance, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    if (query.call_id !== undefined) {
      const call = findCall(readDb, workspaceId, query.call_id);
      if (!call) throw resourceNotFound('call', query.call_id);
      const result = findComplianceResult(readDb, workspaceId, query.call_id);
      if (result) return c.json(resultDocument(result), 200);
      const failure = findComplianceFailure(readDb, workspaceId, query.call_id);
      if (failure) return c.json({ call_id: query.call_id, job_id: call.transcript_job_id, status: 'failed' as const, error: errorOf(failure) }, 200);
      // Only an answered call has a conversation (and a transcript job) to check.
      const pending = call.status === 'in_progress' || call.transcript_job_id !== null;
      return c.json({ call_id: query.call_id, job_id: call.transcript_job_id, status: pending ? ('processing' as const) : ('not_applicable' as const) }, 200);
    }
    if (query.job_id !== undefined) {
      if (findTranscriptionJobDocument(readDb, workspaceId, query.job_id) === undefined) throw resourceNotFound('transcription_job', query.job_id);
      const result = findComplianceResult(readDb, workspaceId, query.job_id);
      if (result) return c.json(resultDocument(result), 200);
      const failure = findComplianceFailure(readDb, workspaceId, query.job_id);
      if (failure) return c.json({ call_id: null, job_id: query.job_id, status: 'failed' as const, error: errorOf(failure) }, 200);
      return c.json({ call_id: null, job_id: query.job_id, status: 'processing' as const }, 200);
    }
    const timezone = parseTimezone(query.timezone);
    const to = query.to ?? localDateOf(clock.now(), timezone);
    const from = query.from ?? addDays(localDateOf(clock.now(), timezone), -(DEFAULT_RANGE_DAYS - 1));
    const range = parseAnalyticsRange({ from, to, timezone });
    if (query.language !== undefined) validateLanguage(query.language);
    const aggregate = complianceAggregate(readDb, workspaceId, { fromInstant: range.fromInstant, toInstant: range.toInstant, campaign_id: query.campaign_id, language: query.language });
    const body: z.infer<typeof ComplianceAggregateSchema> = {
      from,
      to,
      timezone: range.timezone,
      calls_evaluated: aggregate.calls_evaluated,
      avg_compliance_score: aggregate.avg_compliance_score,
      pass_rate: rateOf(aggregate.passed_calls, aggregate.calls_evaluated),
      violations_by_severity: aggregate.violations_by_severity,
      violations_by_check: aggregate.violations_by_check.map((row) => ({ ...row, severity: row.severity === 'critical' ? 'critical' : 'warning' })),
      blocked_attempts_by_rule: aggregate.blocked_attempts_by_rule.map((row) => ({ ...row, severity: row.severity === 'critical' ? 'critical' : 'warning' })),
    };
    return c.json(body, 200);
  });

  router.openapi(createAudit, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    const now = clock.now();
    const { basis, packs } = auditPacks(body, findComplianceSettings(readDb, workspaceId).packs);
    const range = parseAnalyticsRange({ from: body.from, to: body.to, timezone: body.timezone });
    const campaignId = body.campaign_id ?? null;
    if (campaignId !== null && !findCampaign(readDb, workspaceId, campaignId)) throw resourceNotFound('campaign', campaignId);
    const auditId = resourceId(c, 'aud', now);
    const total = countAuditSubjects(readDb, { workspaceId, from: range.fromInstant, to: range.toInstant, campaignId });
    const result = await createOnce(
      commands,
      complianceAuditDecider,
      complianceAuditStream(auditId),
      {
        type: 'RequestComplianceAudit',
        data: { audit_id: auditId, workspace_id: workspaceId, basis, packs, from: range.fromInstant, to: range.toInstant, campaign_id: campaignId, total, requested_at: now.toISOString() },
      },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    const row = findComplianceAudit(readDb, workspaceId, auditId);
    if (!row) throw resourceNotFound('compliance_audit', auditId);
    return c.json(auditDocument(row), 202);
  });

  router.openapi(listAudits, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    const { data, total } = listComplianceAudits(readDb, workspaceId, query.limit, query.offset);
    return c.json(listBody(data.map(auditDocument), total, query), 200);
  });

  router.openapi(getAudit, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const row = findComplianceAudit(readDb, workspaceId, id);
    if (!row) throw resourceNotFound('compliance_audit', id);
    return c.json(auditDocument(row), 200);
  });

  return router;
}
