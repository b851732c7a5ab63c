import type { z } from '@hono/zod-openapi';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import { findQaScorecard } from '../../projections/qa-scorecards.ts';
import { findWorkspace, type WorkspaceRow } from '../../projections/workspaces.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import type { ResourcePorts } from '../ports.ts';
import { UpdateWorkspaceBody, WorkspaceSchema } from '../schemas/workspace.ts';

const TAG = 'Workspace';
const workspaceJson = { 'application/json': { schema: WorkspaceSchema } };

const getWorkspace = defineRoute({
  method: 'get',
  path: '/workspace',
  operationId: 'getWorkspace',
  tags: [TAG],
  summary: "Get the key's workspace",
  description: 'Its name, the limits the operator set (rate limit, dialing concurrency) and its default QA scorecard.',
  responses: { 200: { description: 'The workspace.', content: workspaceJson } },
});

const updateWorkspace = defineRoute(
  {
    method: 'patch',
    path: '/workspace',
    operationId: 'updateWorkspace',
    tags: [TAG],
    summary: "Change the workspace's analysis defaults",
    description: 'Admin only. `default_qa_scorecard_id`: the scorecard connected calls are scored against when neither the call nor its campaign names one (applies to calls that end from now on).',
    request: { body: { content: { 'application/json': { schema: UpdateWorkspaceBody } }, required: true } },
    responses: { 200: { description: 'The workspace.', content: workspaceJson } },
  },
  { scope: 'Admin' },
);

function documentOf(row: WorkspaceRow): z.infer<typeof WorkspaceSchema> {
  return {
    id: row.workspace_id,
    name: row.name,
    rate_limit_per_minute: row.rate_limit_per_minute,
    dialing_concurrency: row.dialing_concurrency,
    default_qa_scorecard_id: row.default_qa_scorecard_id,
    created_at: row.created_at,
  };
}

export function workspaceRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  router.openapi(getWorkspace, (c) => {
    const { workspaceId } = principalOf(c);
    const row = findWorkspace(readDb, workspaceId);
    if (!row) throw resourceNotFound('workspace', workspaceId);
    return c.json(documentOf(row), 200);
  });

  router.openapi(updateWorkspace, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { default_qa_scorecard_id: scorecardId } = c.req.valid('json');
    const now = clock.now();
    const scorecardFound = scorecardId !== null && findQaScorecard(readDb, workspaceId, scorecardId) !== undefined;
    const result = await commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'SetDefaultQaScorecard', scorecardId, scorecardFound }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    const row = findWorkspace(readDb, workspaceId);
    if (!row) throw resourceNotFound('workspace', workspaceId);
    return c.json(documentOf(row), 200);
  });

  return router;
}
