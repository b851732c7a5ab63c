import type { z } from '@hono/zod-openapi';
import { qaScorecardDecider, qaScorecardStream, type QaScorecardState } from '../../domain/qa-scorecard.ts';
import { findQaScorecard, listQaScorecards, scorecardDocument } from '../../projections/qa-scorecards.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import { prebuiltJson, prebuiltListJson } from '../list.ts';
import { PaginationQuery, idParams } from '../schemas/common.ts';
import { DeletedQaScorecardSchema, QaScorecardBody, QaScorecardListSchema, QaScorecardSchema } from '../schemas/qa-scorecard.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';

const TAG = 'QA scorecards';
const ID_EXAMPLE = 'qsc_01jd8k3m9q2x7c4v5b6n8p0r2t';
const scorecardJson = { 'application/json': { schema: QaScorecardSchema } };
const scorecardBody = { body: { content: { 'application/json': { schema: QaScorecardBody } }, required: true } };

const createScorecard = defineRoute({
  method: 'post',
  path: '/qa/scorecards',
  operationId: 'createQaScorecard',
  tags: [TAG],
  summary: 'Create a QA scorecard',
  description: 'Parameters with checks on the transcript (agent_says, agent_avoids, customer_says, talk_ratio, max_silence); used by transcription jobs with the `qa_scoring` feature.',
  request: scorecardBody,
  responses: { 201: { description: 'The scorecard (version 1).', content: scorecardJson } },
});

const listScorecards = defineRoute({
  method: 'get',
  path: '/qa/scorecards',
  operationId: 'listQaScorecards',
  tags: [TAG],
  summary: 'List QA scorecards',
  description: 'Newest first.',
  request: { query: PaginationQuery },
  responses: { 200: { description: 'A page of scorecards.', content: { 'application/json': { schema: QaScorecardListSchema } } } },
});

const getScorecard = defineRoute({
  method: 'get',
  path: '/qa/scorecards/{id}',
  operationId: 'getQaScorecard',
  tags: [TAG],
  summary: 'Get a QA scorecard',
  description: 'Its latest version, parameters as submitted.',
  request: { params: idParams(ID_EXAMPLE) },
  responses: { 200: { description: 'The scorecard.', content: scorecardJson } },
});

const replaceScorecard = defineRoute({
  method: 'put',
  path: '/qa/scorecards/{id}',
  operationId: 'replaceQaScorecard',
  tags: [TAG],
  summary: 'Replace a QA scorecard',
  description: 'Replaces the whole definition and increments `version` when it changes. Jobs already submitted keep the version they pinned.',
  request: { params: idParams(ID_EXAMPLE), ...scorecardBody },
  responses: { 200: { description: 'The scorecard.', content: scorecardJson } },
});

const deleteScorecard = defineRoute({
  method: 'delete',
  path: '/qa/scorecards/{id}',
  operationId: 'deleteQaScorecard',
  tags: [TAG],
  summary: 'Delete a QA scorecard',
  description: 'New jobs can no longer use it; jobs already submitted keep their pinned copy.',
  request: { params: idParams(ID_EXAMPLE) },
  responses: { 200: { description: 'Deleted.', content: { 'application/json': { schema: DeletedQaScorecardSchema } } } },
});

function documentOf(state: QaScorecardState) {
  const data = { scorecard_id: state.scorecardId, workspace_id: state.workspaceId, version: state.version, definition: state.definition! };
  return scorecardDocument(data, state.createdAt, state.updatedAt);
}

export function qaScorecardRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  router.openapi(createScorecard, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const now = clock.now();
    const scorecardId = resourceId(c, 'qsc', now);
    const result = await createOnce(
      commands,
      qaScorecardDecider,
      qaScorecardStream(scorecardId),
      { type: 'CreateQaScorecard', scorecardId, workspaceId, definition: c.req.valid('json'), now },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(documentOf(result.state) as z.infer<typeof QaScorecardSchema>, 201);
  });

  router.openapi(listScorecards, (c) => {
    const { workspaceId } = principalOf(c);
    const page = c.req.valid('query');
    const { documents, total } = listQaScorecards(readDb, workspaceId, page.limit, page.offset);
    return prebuiltListJson<z.infer<typeof QaScorecardListSchema>>(c, documents, total, page);
  });

  router.openapi(getScorecard, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const found = findQaScorecard(readDb, workspaceId, id);
    if (found === undefined) throw resourceNotFound('qa_scorecard', id);
    return prebuiltJson<z.infer<typeof QaScorecardSchema>>(c, found.document);
  });

  router.openapi(replaceScorecard, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(
      qaScorecardDecider,
      qaScorecardStream(id),
      { type: 'ReplaceQaScorecard', scorecardId: id, workspaceId, definition: c.req.valid('json'), now },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(documentOf(result.state) as z.infer<typeof QaScorecardSchema>, 200);
  });

  router.openapi(deleteScorecard, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(qaScorecardDecider, qaScorecardStream(id), { type: 'DeleteQaScorecard', scorecardId: id, workspaceId, now }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json({ id, deleted: true as const }, 200);
  });

  return router;
}
