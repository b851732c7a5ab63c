import { askPreDialRules } from '../../commands/compliance-pre-dial.ts';
import { CALL_PURPOSE_DESCRIPTION, isCallPurpose, validateReservedFields } from '../../domain/compliance/contact-fields.ts';
import { findAgent } from '../../projections/agents.ts';
import { findQaScorecard } from '../../projections/qa-scorecards.ts';
import type { z } from '@hono/zod-openapi';
import { callDecider, callStream, type CallPlacement, type PlaceCall } from '../../domain/call.ts';
import { validateLanguage } from '../../domain/campaign.ts';
import { isSuppressed, suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import type { RecordingLinks } from '../../infra/blobs/recording-links.ts';
import { findCall, listCalls, type CallRecord } from '../../projections/calls.ts';
import { findScriptVersion } from '../../projections/scripts.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';
import { CallListQuery, CallListSchema, CallSchema, PlaceCallBody, PlacedCallSchema } from '../schemas/call.ts';
import { idParams } from '../schemas/common.ts';
import { checkTimeRange } from '../schemas/time-range.ts';

const TAG = 'Calls';
const CALL_ID_EXAMPLE = 'cal_01jd8k3m9q2x7c4v5b6n8p0r2t';

const listCallsRoute = defineRoute({
  method: 'get',
  path: '/calls',
  operationId: 'listCalls',
  tags: [TAG],
  summary: 'List calls',
  description: 'Newest first (by started_at). `from` / `to` bound `started_at`, both inclusive. Items carry the spec\'s list fields.',
  request: { query: CallListQuery },
  responses: { 200: { description: 'A page of calls.', content: { 'application/json': { schema: CallListSchema } } } },
});

const getCall = defineRoute({
  method: 'get',
  path: '/calls/{id}',
  operationId: 'getCall',
  tags: [TAG],
  summary: 'Get a call',
  description: '`recording_url` is signed afresh on every read and works for one hour.',
  request: { params: idParams(CALL_ID_EXAMPLE) },
  responses: { 200: { description: 'The call.', content: { 'application/json': { schema: CallSchema } } } },
});

const placeCall = defineRoute({
  method: 'post',
  path: '/calls',
  operationId: 'createCall',
  tags: [TAG],
  summary: 'Place a single call now, outside any campaign',
  description:
    'Answers at once with status `in_progress`; poll GET /v1/calls/{id} or wait for `call.completed`. The script ' +
    'must have `single_call_enabled` (else 400 on `script_id`); a number on the workspace\'s do-not-call list is ' +
    '409 `number_suppressed`; a call the workspace\'s pre-dial compliance rules refuse (outside the calling window, ' +
    'no consent for a promotional call, an opted-out number, ...) is 409 `compliance_blocked` (docs/compliance.md).',
  request: { body: { content: { 'application/json': { schema: PlaceCallBody } }, required: true } },
  responses: { 201: { description: 'The call, in progress.', content: { 'application/json': { schema: PlacedCallSchema } } } },
}, { conflicts: 'number_suppressed: the number is on the workspace\'s do-not-call list (`details.phone`). compliance_blocked: a pre-dial compliance rule refuses the call (`details.rule_id`, `check`, `severity`, `rule_pack`, `reason`, `retry_after`).', references: 'resource_not_found: `script_id` names no script of this workspace.' });

type CallDocument = z.infer<typeof CallSchema>;

export function callDocument(recordingLinks: RecordingLinks, call: CallRecord): CallDocument {
  return {
    id: call.id,
    campaign_id: call.campaign_id,
    contact: call.contact,
    status: call.status,
    disposition: call.disposition,
    duration_seconds: call.duration_seconds,
    language: call.language,
    started_at: call.started_at,
    ended_at: call.ended_at,
    transcript_job_id: call.transcript_job_id,
    recording_url: recordingLinks.urlFor(call.id, call.recording_blob_key),
    script_id: call.script_id,
    script_version: call.script_version,
    attempt: call.attempt,
    answered_at: call.answered_at,
    caller_id: call.caller_id,
    answered_by: call.answered_by,
    agent_id: call.agent_id,
    escalation: call.escalation,
    transfer: call.transfer,
    failure_reason: call.failure_reason,
  };
}

/** What POST /v1/calls answers: the call as placed (all fields but duration_seconds). */
function placedDocument(placed: CallPlacement): z.infer<typeof PlacedCallSchema> {
  return {
    id: placed.call_id,
    campaign_id: null,
    contact: placed.contact,
    status: 'in_progress',
    disposition: null,
    language: placed.language,
    started_at: placed.started_at,
    ended_at: null,
    transcript_job_id: null,
    recording_url: null,
    script_id: placed.script_id,
    script_version: placed.script_version,
    attempt: null,
    answered_at: null,
    caller_id: placed.caller_id ?? null,
    answered_by: null,
    agent_id: placed.agent_id ?? null,
    escalation: null,
    transfer: null,
    failure_reason: null,
  };
}

export function callRoutes({ commands, clock, readDb, readYourWrites, recordingLinks }: ResourcePorts & { recordingLinks: RecordingLinks }) {
  const router = createRouter();

  router.openapi(listCallsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    checkTimeRange(query, { to: c.req.query('to') });
    if (query.language !== undefined) validateLanguage(query.language);
    const { data, total } = listCalls(readDb, workspaceId, query, query.limit, query.offset);
    return c.json(listBody(data, total, query), 200);
  });

  router.openapi(getCall, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const call = findCall(readDb, workspaceId, id);
    if (!call) throw resourceNotFound('call', id);
    return c.json(callDocument(recordingLinks, call), 200);
  });

  router.openapi(placeCall, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    // The outside facts the call decider decides with: the script as it is now, and the do-not-call list from its
    // own stream (not the read model: a number suppressed a moment ago by a call that just ended counts).
    const script = findScriptVersion(readDb, workspaceId, body.script_id);
    const { state: suppressions } = await commands.load(suppressionDecider, suppressionStream(workspaceId));
    const now = clock.now();
    const fields = { ...(body.timezone === undefined ? {} : { timezone: body.timezone }), ...(body.consent === undefined ? {} : { consent: body.consent }) };
    validateReservedFields(fields, '');
    const purpose = body.purpose ?? 'service';
    if (!isCallPurpose(purpose)) throw invalidParameter('purpose', body.purpose, CALL_PURPOSE_DESCRIPTION);
    const compliance = await askPreDialRules({ commands, readDb }, { workspaceId, phone: body.phone, purpose, fields, campaignTimezone: null, now, callerId: body.caller_id ?? null });
    const placed: PlaceCall['data'] = {
      call_id: resourceId(c, 'cal', now),
      workspace_id: workspaceId,
      campaign_id: null,
      contact_index: null,
      attempt: null,
      contact: { phone: body.phone, name: body.name },
      language: body.language,
      script_id: body.script_id,
      script_version: script?.version ?? 0,
      variables: body.metadata ?? {},
      recording_enabled: body.recording_enabled ?? true,
      started_at: now.toISOString(),
      agent_id: body.agent_id ?? null,
      qa_scorecard_id: body.qa_scorecard_id ?? null,
      purpose,
      caller_id: body.caller_id ?? null,
    };
    const facts: PlaceCall['facts'] = {
      suppressed: isSuppressed(suppressions, body.phone),
      script: script && !script.deleted ? { version: script.version, single_call_enabled: script.definition.single_call_enabled === true, variables: script.variables } : null,
      agent_found: body.agent_id ? findAgent(readDb, workspaceId, body.agent_id) !== undefined : undefined,
      scorecard_found: body.qa_scorecard_id ? findQaScorecard(readDb, workspaceId, body.qa_scorecard_id) !== undefined : undefined,
      compliance,
    };
    const result = await createOnce(commands, callDecider, callStream(placed.call_id), { type: 'PlaceCall', facts, data: placed }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json(placedDocument(result.state.placed!), 201);
  });

  return router;
}
