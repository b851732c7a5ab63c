import { apiKeyDecider, apiKeyStream } from '../../domain/api-key.ts';
import { hashApiKeySecret, newApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import { countActiveAdminKeys, findApiKey, listApiKeys, type ApiKeyListItem } from '../../projections/api-keys.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { ApiError, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import { ApiKeyListSchema, ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema } from '../schemas/api-key.ts';
import { PaginationQuery, idParams } from '../schemas/common.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';

const TAG = 'API keys';

const createKey = defineRoute(
  {
    method: 'post',
    path: '/api-keys',
    operationId: 'createApiKey',
    tags: [TAG],
    summary: 'Create an API key',
    description: 'Admin only. The secret (`key`) is in this response only; it is stored as a SHA-256 hash.',
    request: { body: { content: { 'application/json': { schema: CreateApiKeyBody } }, required: true } },
    responses: { 201: { description: 'The key, with its secret.', content: { 'application/json': { schema: CreatedApiKeySchema } } } },
  },
  { scope: 'Admin' },
);

const listKeys = defineRoute(
  {
    method: 'get',
    path: '/api-keys',
    operationId: 'listApiKeys',
    tags: [TAG],
    summary: 'List the workspace\'s API keys',
    description: 'Admin only. Newest first, revoked keys included; never the secrets.',
    request: { query: PaginationQuery },
    responses: { 200: { description: 'A page of keys.', content: { 'application/json': { schema: ApiKeyListSchema } } } },
  },
  { scope: 'Admin' },
);

const revokeKey = defineRoute(
  {
    method: 'delete',
    path: '/api-keys/{id}',
    operationId: 'revokeApiKey',
    tags: [TAG],
    summary: 'Revoke an API key',
    description:
      'Admin only. Immediate and final: the next request with the key gets 401. Revoking a revoked key answers the ' +
      'same record again. The workspace\'s last active Admin key cannot be revoked (409 invalid_state).',
    request: { params: idParams('key_01jd8k3m9q2x7c4v5b6n8p0r2t') },
    responses: { 200: { description: 'The revoked key.', content: { 'application/json': { schema: ApiKeySchema } } } },
  },
  { scope: 'Admin', conflicts: 'invalid_state: the workspace\'s last active Admin key cannot be revoked; create another Admin key first.' },
);

function present(key: Omit<ApiKeyListItem, 'workspace_id'>) {
  return { id: key.key_id, name: key.name, scope: key.scope, created_at: key.created_at, last_used_at: key.last_used_at, revoked_at: key.revoked_at };
}

/** API key management through the API (the spec leaves it to the dashboard; we offer both). */
export function apiKeyRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();
  // Revocations of one workspace run one at a time: two concurrent requests must not revoke its last two Admin keys.
  const revocations = new Map<string, Promise<unknown>>();

  router.openapi(createKey, async (c) => {
    const { workspaceId, keyId: actor } = principalOf(c);
    const body = c.req.valid('json');
    const now = clock.now();
    const keyId = resourceId(c, 'key', now);
    const secret = newApiKeySecret();
    const result = await createOnce(
      commands,
      apiKeyDecider,
      apiKeyStream(keyId),
      { type: 'CreateApiKey', keyId, workspaceId, name: body.name, scope: body.scope, secretHash: hashApiKeySecret(secret), now },
      { workspaceId, actor, now },
    );
    await readYourWrites(result.position);
    const key = findApiKey(readDb, workspaceId, keyId) ?? { key_id: keyId, name: body.name, scope: body.scope, created_at: now.toISOString(), last_used_at: null, revoked_at: null };
    // The secret is shown once and stored nowhere (only its hash): a replay, or the retry of a request that died
    // after creating the key, answers the key with `key: null` (revoke it and create another if the secret was lost).
    const withoutSecret = { ...present(key), key: null };
    c.set('idempotentReplayBody', JSON.stringify(withoutSecret));
    return c.json(result.created ? { ...present(key), key: secret } : withoutSecret, 201);
  });

  router.openapi(listKeys, (c) => {
    const { workspaceId } = principalOf(c);
    const page = c.req.valid('query');
    const { data, total } = listApiKeys(readDb, workspaceId, page.limit, page.offset);
    return c.json(listBody(data.map(present), total, page), 200);
  });

  router.openapi(revokeKey, async (c) => {
    const { workspaceId, keyId: actor } = principalOf(c);
    const { id } = c.req.valid('param');
    const previous = revocations.get(workspaceId) ?? Promise.resolve();
    const run = previous.then(async () => {
      const key = findApiKey(readDb, workspaceId, id);
      if (!key) throw resourceNotFound('api_key', id);
      if (key.revoked_at === null && key.scope === 'Admin' && countActiveAdminKeys(readDb, workspaceId) <= 1) {
        throw new ApiError('invalid_state', 'This is the workspace\'s last active Admin key; create another Admin key before revoking it.', {
          resource_type: 'api_key',
          id,
        });
      }
      const now = clock.now();
      const result = await commands.handle(apiKeyDecider, apiKeyStream(id), { type: 'RevokeApiKey', now }, { workspaceId, actor, now });
      await readYourWrites(result.position);
      return findApiKey(readDb, workspaceId, id) ?? { ...key, revoked_at: key.revoked_at ?? now.toISOString() };
    });
    const settled = run.catch(() => undefined);
    revocations.set(workspaceId, settled);
    void settled.then(() => {
      if (revocations.get(workspaceId) === settled) revocations.delete(workspaceId);
    });
    return c.json(present(await run), 200);
  });

  return router;
}
