import type { z } from '@hono/zod-openapi';
import { agentDecider, agentStream, type AgentProfile, type AgentState } from '../../domain/agent.ts';
import { createOnce } from '../../commands/create-once.ts';
import { findAgent, listAgents, type AgentDocument } from '../../projections/agents.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import { idParams } from '../schemas/common.ts';
import { AgentListQuery, AgentListSchema, AgentSchema, CreateAgentBody, DeletedAgentSchema, UpdateAgentBody } from '../schemas/agent.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';

const TAG = 'Agents';
const ID_EXAMPLE = 'agt_01jd8k3m9q2x7c4v5b6n8p0r2t';
const agentJson = { 'application/json': { schema: AgentSchema } };

const createAgent = defineRoute({
  method: 'post',
  path: '/agents',
  operationId: 'createAgent',
  tags: [TAG],
  summary: 'Register a human agent',
  description: 'An agent takes over escalated calls in the languages they speak (an available agent, least recently assigned first) and may place single calls (`agent_id` on POST /v1/calls).',
  request: { body: { content: { 'application/json': { schema: CreateAgentBody } }, required: true } },
  responses: { 201: { description: 'The agent.', content: agentJson } },
});

const listAgentsRoute = defineRoute({
  method: 'get',
  path: '/agents',
  operationId: 'listAgents',
  tags: [TAG],
  summary: 'List agents',
  description: 'Newest first; `status` filters.',
  request: { query: AgentListQuery },
  responses: { 200: { description: 'A page of agents.', content: { 'application/json': { schema: AgentListSchema } } } },
});

const getAgent = defineRoute({
  method: 'get',
  path: '/agents/{id}',
  operationId: 'getAgent',
  tags: [TAG],
  summary: 'Get an agent',
  description: 'Including when the agent was last given an escalated call.',
  request: { params: idParams(ID_EXAMPLE) },
  responses: { 200: { description: 'The agent.', content: agentJson } },
});

const updateAgent = defineRoute({
  method: 'patch',
  path: '/agents/{id}',
  operationId: 'updateAgent',
  tags: [TAG],
  summary: 'Update an agent',
  description: 'Changes the fields given; `status: offline` stops new escalations to the agent.',
  request: { params: idParams(ID_EXAMPLE), body: { content: { 'application/json': { schema: UpdateAgentBody } }, required: true } },
  responses: { 200: { description: 'The agent.', content: agentJson } },
});

const deleteAgent = defineRoute({
  method: 'delete',
  path: '/agents/{id}',
  operationId: 'deleteAgent',
  tags: [TAG],
  summary: 'Remove an agent',
  description: 'The agent gets no more calls; calls they handled keep their `agent_id`.',
  request: { params: idParams(ID_EXAMPLE) },
  responses: { 200: { description: 'Removed.', content: { 'application/json': { schema: DeletedAgentSchema } } } },
});

/** The agent as the command left it; when it was last assigned comes from the read model. */
function documentOf(state: AgentState, found: AgentDocument | undefined): AgentDocument {
  return { id: state.agentId, ...state.profile!, created_at: state.createdAt, updated_at: state.updatedAt, last_assigned_at: found?.last_assigned_at ?? null };
}

export function agentRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  router.openapi(createAgent, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    const now = clock.now();
    const agentId = resourceId(c, 'agt', now);
    const profile: AgentProfile = { name: body.name, languages: body.languages, phone: body.phone ?? null, sip_uri: body.sip_uri ?? null, status: body.status ?? 'available' };
    const result = await createOnce(commands, agentDecider, agentStream(agentId), { type: 'RegisterAgent', agentId, workspaceId, profile, now }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json(documentOf(result.state, findAgent(readDb, workspaceId, agentId)) as z.infer<typeof AgentSchema>, 201);
  });

  router.openapi(listAgentsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    const { data, total } = listAgents(readDb, workspaceId, query.status, query.limit, query.offset);
    return c.json(listBody(data, total, query) as z.infer<typeof AgentListSchema>, 200);
  });

  router.openapi(getAgent, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const found = findAgent(readDb, workspaceId, id);
    if (found === undefined) throw resourceNotFound('agent', id);
    return c.json(found as z.infer<typeof AgentSchema>, 200);
  });

  router.openapi(updateAgent, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(agentDecider, agentStream(id), { type: 'UpdateAgent', agentId: id, workspaceId, changes: c.req.valid('json'), now }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json(documentOf(result.state, findAgent(readDb, workspaceId, id)) as z.infer<typeof AgentSchema>, 200);
  });

  router.openapi(deleteAgent, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(agentDecider, agentStream(id), { type: 'RemoveAgent', agentId: id, workspaceId, now }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json({ id, deleted: true as const }, 200);
  });

  return router;
}
