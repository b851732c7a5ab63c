import { scriptDecider, scriptStream, scriptVariables, type ScriptState } from '../../domain/script.ts';
import { ReadModelCache } from '../../projections/read-model-version.ts';
import { findScriptDocument, listScriptSummaries, scriptDocument, type ScriptDocument } from '../../projections/scripts.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import type { HttpDependencies } from '../dependencies.ts';
import { resourceNotFound } from '../errors.ts';
import { listEnvelopeText, prebuiltJson } from '../list.ts';
import { PaginationQuery, idParams } from '../schemas/common.ts';
import { DeletedScriptSchema, ScriptBody, ScriptListSchema, ScriptSchema, ScriptVersionQuery } from '../schemas/script.ts';
import type { z } from '@hono/zod-openapi';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';

const TAG = 'Scripts';
const SCRIPT_ID_EXAMPLE = 'scr_01jd8k3m9q2x7c4v5b6n8p0r2t';
const scriptJson = { 'application/json': { schema: ScriptSchema } };
const scriptBody = { body: { content: { 'application/json': { schema: ScriptBody } }, required: true } };

const createScript = defineRoute({
  method: 'post',
  path: '/scripts',
  operationId: 'createScript',
  tags: [TAG],
  summary: 'Create a script (version 1)',
  description: 'The graph is checked as a whole (step ids unique, every `next` names a step, every step reachable, one ends the call); a problem is 400 with the path of the offending field.',
  request: scriptBody,
  responses: { 201: { description: 'The script.', content: scriptJson } },
});

const listScripts = defineRoute({
  method: 'get',
  path: '/scripts',
  operationId: 'listScripts',
  tags: [TAG],
  summary: 'List scripts',
  description: 'Newest first; each at its latest version, without its steps (GET /v1/scripts/{id} has them).',
  request: { query: PaginationQuery },
  responses: { 200: { description: 'A page of scripts.', content: { 'application/json': { schema: ScriptListSchema } } } },
});

const getScript = defineRoute({
  method: 'get',
  path: '/scripts/{id}',
  operationId: 'getScript',
  tags: [TAG],
  summary: 'Get a script',
  description: 'The latest version, or the one named by `version`.',
  request: { params: idParams(SCRIPT_ID_EXAMPLE), query: ScriptVersionQuery },
  responses: { 200: { description: 'The script version.', content: scriptJson } },
});

const replaceScript = defineRoute({
  method: 'put',
  path: '/scripts/{id}',
  operationId: 'replaceScript',
  tags: [TAG],
  summary: 'Publish a new version of a script',
  description:
    'Replaces the whole script and increments `version`. Campaigns keep the version they pinned when created. ' +
    'A body equal to the latest version changes nothing and answers that version.',
  request: { params: idParams(SCRIPT_ID_EXAMPLE), ...scriptBody },
  responses: { 200: { description: 'The latest version.', content: scriptJson } },
});

const deleteScript = defineRoute({
  method: 'delete',
  path: '/scripts/{id}',
  operationId: 'deleteScript',
  tags: [TAG],
  summary: 'Delete a script',
  description: 'Refused with 409 invalid_state while a campaign that has not finished uses it.',
  request: { params: idParams(SCRIPT_ID_EXAMPLE) },
  responses: { 200: { description: 'Deleted.', content: { 'application/json': { schema: DeletedScriptSchema } } } },
}, { conflicts: 'invalid_state: a campaign that has not finished uses the script (`details.active_campaigns`).' });

/** The document of the latest version, from the aggregate's state (no read model needed to answer a write). */
function documentOf(state: ScriptState): ScriptDocument {
  const script = state.latest!;
  return scriptDocument(
    {
      script_id: state.scriptId,
      workspace_id: state.workspaceId,
      version: state.version,
      name: script.name,
      single_call_enabled: script.single_call_enabled,
      steps: script.steps,
      variables: scriptVariables(script),
    },
    state.createdAt,
    state.updatedAt,
  );
}

const utf8 = new TextEncoder();

export function scriptRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts, dependencies: HttpDependencies) {
  const router = createRouter();

  router.openapi(createScript, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const now = clock.now();
    const scriptId = resourceId(c, 'scr', now);
    const result = await createOnce(
      commands,
      scriptDecider,
      scriptStream(scriptId),
      { type: 'CreateScript', scriptId, workspaceId, script: c.req.valid('json'), now },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(documentOf(result.state), 201);
  });

  // Response bodies of list pages, kept until anything is committed to the read models (scripts are read far
  // more often than they change); a create, a new version or a delete empties it before its response is sent.
  const pages = new ReadModelCache<string, Uint8Array<ArrayBuffer>>(1_000);

  router.openapi(listScripts, (c) => {
    const { workspaceId } = principalOf(c);
    const page = c.req.valid('query');
    const body = pages.get(c.get('readModelGeneration'), `${workspaceId} ${page.limit} ${page.offset}`, () => {
      const { summaries, total } = listScriptSummaries(readDb, workspaceId, page.limit, page.offset);
      return utf8.encode(listEnvelopeText(summaries, total, page));
    });
    return prebuiltJson<z.infer<typeof ScriptListSchema>>(c, body);
  });

  router.openapi(getScript, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const { version } = c.req.valid('query');
    const document = findScriptDocument(readDb, workspaceId, id, version);
    if (document === undefined) {
      if (version !== undefined && findScriptDocument(readDb, workspaceId, id) !== undefined) {
        throw resourceNotFound('script_version', id, { version });
      }
      throw resourceNotFound('script', id);
    }
    return prebuiltJson<z.infer<typeof ScriptSchema>>(c, document);
  });

  router.openapi(replaceScript, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(
      scriptDecider,
      scriptStream(id),
      { type: 'PublishScriptVersion', scriptId: id, workspaceId, script: c.req.valid('json'), now },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(documentOf(result.state), 200);
  });

  router.openapi(deleteScript, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const activeCampaigns = dependencies.countActiveCampaignsUsingScript(readDb, workspaceId, id);
    const result = await commands.handle(
      scriptDecider,
      scriptStream(id),
      { type: 'DeleteScript', scriptId: id, workspaceId, activeCampaigns, now },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json({ id, deleted: true as const }, 200);
  });

  return router;
}
