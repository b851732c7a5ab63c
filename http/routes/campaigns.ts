import type { CallPurpose } from '../../domain/compliance/rule.ts';
import type { VoicemailAction } from '../../domain/campaign/types.ts';
import { findQaScorecard } from '../../projections/qa-scorecards.ts';
import {
  campaignDecider,
  campaignProgress,
  campaignStream,
  type CampaignCommand,
  type CampaignState,
  type ContactsRemoved,
} from '../../domain/campaign.ts';
import { E164_DESCRIPTION, isE164 } from '../../domain/shared/phone.ts';
import { findCampaign, listCampaigns, type CampaignDocument } from '../../projections/campaigns.ts';
import { findScriptVersion } from '../../projections/scripts.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';
import {
  CampaignActionBody,
  CampaignListQuery,
  CampaignListSchema,
  CampaignSchema,
  CreateCampaignBody,
  RemoveContactsBody,
  RemovedContactsSchema,
} from '../schemas/campaign.ts';
import { idParams } from '../schemas/common.ts';
import { checkTimeRange } from '../schemas/time-range.ts';

const TAG = 'Campaigns';
const CAMPAIGN_ID_EXAMPLE = 'cmp_01jd8k3m9q2x7c4v5b6n8p0r2t';
const campaignJson = { 'application/json': { schema: CampaignSchema } };

const createCampaign = defineRoute({
  method: 'post',
  path: '/campaigns',
  operationId: 'createCampaign',
  tags: [TAG],
  summary: 'Create a campaign',
  description:
    'Status `scheduled`. With a schedule it starts at `start_time`; without one it waits for the `start` action. ' +
    'The script\'s current version is pinned. Every `{variable}` the script uses must be on every contact; phones ' +
    'must be unique. At most 100,000 contacts per request.',
  request: { body: { content: { 'application/json': { schema: CreateCampaignBody } }, required: true } },
  responses: {
    201: { description: 'The campaign.', content: campaignJson },
  },
}, { references: 'resource_not_found: `script_id` names no script of this workspace.' });

const listCampaignsRoute = defineRoute({
  method: 'get',
  path: '/campaigns',
  operationId: 'listCampaigns',
  tags: [TAG],
  summary: 'List campaigns',
  description: 'Newest first (by creation). `from` / `to` bound `created_at`, both inclusive.',
  request: { query: CampaignListQuery },
  responses: { 200: { description: 'A page of campaigns.', content: { 'application/json': { schema: CampaignListSchema } } } },
});

const getCampaign = defineRoute({
  method: 'get',
  path: '/campaigns/{id}',
  operationId: 'getCampaign',
  tags: [TAG],
  summary: 'Get a campaign with its progress',
  description: 'The campaign as created, its status, and its progress: calls made and connected, and the disposition of each contact counted once.',
  request: { params: idParams(CAMPAIGN_ID_EXAMPLE) },
  responses: { 200: { description: 'The campaign.', content: campaignJson } },
});

const actOnCampaign = defineRoute({
  method: 'patch',
  path: '/campaigns/{id}',
  operationId: 'changeCampaignStatus',
  tags: [TAG],
  summary: 'Start, pause, resume or stop a campaign',
  description:
    '`start` from scheduled; `pause` from running; `resume` from paused; `stop` from scheduled, running or paused. ' +
    'Any other move is 409 `invalid_state` with `status` and `action`. Calls in progress finish.',
  request: { params: idParams(CAMPAIGN_ID_EXAMPLE), body: { content: { 'application/json': { schema: CampaignActionBody } }, required: true } },
  responses: { 200: { description: 'The campaign after the action.', content: campaignJson } },
}, { conflicts: 'invalid_state: the action is not possible in the campaign\'s status (`details.status`, `action`).' });

const removeContacts = defineRoute({
  method: 'delete',
  path: '/campaigns/{id}/contacts',
  operationId: 'removeCampaignContacts',
  tags: [TAG],
  summary: 'Remove contacts from a campaign',
  description:
    'Takes a JSON body. Contacts not yet called (or awaiting a retry) are removed; contacts on a call or finished ' +
    'stay with their call data (`already_called`). Allowed while scheduled, running or paused; `total_contacts` ' +
    'keeps counting removed contacts.',
  request: { params: idParams(CAMPAIGN_ID_EXAMPLE), body: { content: { 'application/json': { schema: RemoveContactsBody } }, required: true } },
  responses: { 200: { description: 'What happened to the phones.', content: { 'application/json': { schema: RemovedContactsSchema } } } },
}, { conflicts: 'invalid_state: the campaign has finished (completed or stopped).' });

/** The campaign document from the aggregate's state: a write answers without waiting on a query. */
function documentOf(state: CampaignState): CampaignDocument {
  return {
    id: state.campaign_id,
    name: state.name,
    status: state.status!,
    script_id: state.script_id,
    script_version: state.script_version,
    language: state.language,
    max_attempts: state.max_attempts,
    retry_interval_minutes: state.retry_interval_minutes,
    schedule: state.schedule,
    calling_hours: state.calling_hours,
    recording_enabled: state.recording_enabled,
    purpose: state.purpose,
    caller_id: state.caller_id,
    voicemail: state.voicemail,
    created_at: state.created_at,
    started_at: state.started_at,
    ended_at: state.ended_at,
    completion_reason: state.completion_reason,
    ...campaignProgress(state),
  };
}

const ACTIONS: Record<'start' | 'pause' | 'resume' | 'stop', (at: string) => CampaignCommand> = {
  start: (at) => ({ type: 'StartCampaign', data: { at, trigger: 'manual' } }),
  pause: (at) => ({ type: 'PauseCampaign', data: { at } }),
  resume: (at) => ({ type: 'ResumeCampaign', data: { at } }),
  stop: (at) => ({ type: 'StopCampaign', data: { at } }),
};

export function campaignRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  const requireCampaign = (workspaceId: string, campaignId: string): void => {
    if (!findCampaign(readDb, workspaceId, campaignId)) throw resourceNotFound('campaign', campaignId);
  };

  router.openapi(createCampaign, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    const now = clock.now();
    const campaignId = resourceId(c, 'cmp', now);
    const script = findScriptVersion(readDb, workspaceId, body.script_id);
    const result = await createOnce(
      commands,
      campaignDecider,
      campaignStream(campaignId),
      {
        type: 'CreateCampaign',
        facts: {
          script: script && !script.deleted ? { version: script.version, variables: script.variables, has_voicemail_step: script.definition.steps.some((step) => step.id === 'voicemail') } : null,
          scorecard_found: body.qa_scorecard_id ? findQaScorecard(readDb, workspaceId, body.qa_scorecard_id) !== undefined : undefined,
        },
        data: {
          campaign_id: campaignId,
          workspace_id: workspaceId,
          name: body.name,
          script_id: body.script_id,
          language: body.language,
          contacts: body.contacts,
          schedule: body.schedule ?? null,
          calling_hours: body.calling_hours ?? null,
          max_attempts: body.max_attempts,
          retry_interval_minutes: body.retry_interval_minutes,
          recording_enabled: body.recording_enabled,
          qa_scorecard_id: body.qa_scorecard_id ?? null,
          purpose: body.purpose as CallPurpose | undefined,
          caller_id: body.caller_id ?? null,
          voicemail: body.voicemail as VoicemailAction | undefined,
          created_at: now.toISOString(),
        },
      },
      { workspaceId, actor: keyId, now },
    );
    const document = documentOf(result.state);
    await readYourWrites(result.position);
    return c.json(document, 201);
  });

  router.openapi(listCampaignsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    checkTimeRange(query, { to: c.req.query('to') });
    const { data, total } = listCampaigns(readDb, workspaceId, query, query.limit, query.offset);
    return c.json(listBody(data, total, query), 200);
  });

  router.openapi(getCampaign, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const campaign = findCampaign(readDb, workspaceId, id);
    if (!campaign) throw resourceNotFound('campaign', id);
    return c.json(campaign, 200);
  });

  router.openapi(actOnCampaign, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const { action } = c.req.valid('json');
    requireCampaign(workspaceId, id);
    const now = clock.now();
    const result = await commands.handle(campaignDecider, campaignStream(id), ACTIONS[action](now.toISOString()), { workspaceId, actor: keyId, now });
    const document = documentOf(result.state);
    await readYourWrites(result.position);
    return c.json(document, 200);
  });

  router.openapi(removeContacts, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const { phones } = c.req.valid('json');
    const invalid = phones.findIndex((phone) => !isE164(phone));
    if (invalid !== -1) throw invalidParameter(`phones[${invalid}]`, phones[invalid], E164_DESCRIPTION);
    requireCampaign(workspaceId, id);
    const now = clock.now();
    const result = await commands.handle(campaignDecider, campaignStream(id), { type: 'RemoveContacts', data: { phones, at: now.toISOString() } }, { workspaceId, actor: keyId, now });
    const removed = result.events.find((event): event is ContactsRemoved => event.type === 'ContactsRemoved')!.data;
    await readYourWrites(result.position);
    return c.json({ removed: removed.removed, not_found: removed.not_found, already_called: removed.already_called }, 200);
  });

  return router;
}
