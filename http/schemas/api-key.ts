import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES } from '../../domain/api-key.ts';
import { Timestamp, listEnvelope, nameText } from './common.ts';

export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES).openapi({ description: 'Read-Only: GET only. Read-Write: also POST, PUT, PATCH, DELETE. Admin: also API keys.' });

export const CreateApiKeyBody = z
  .strictObject({
    name: nameText().openapi({ example: 'CRM integration' }),
    scope: ApiKeyScopeSchema,
  })
  .openapi('CreateApiKey');

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: 'key_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    name: z.string(),
    scope: ApiKeyScopeSchema,
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().openapi({ description: 'Updated at most once a minute.' }),
    revoked_at: Timestamp.nullable(),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z
    .string()
    .nullable()
    .openapi({
      description:
        'The secret. Shown once, in this response only; store it now. Null when the response is replayed for an Idempotency-Key (`Idempotent-Replayed: true`): the secret is never stored, so a client that lost it revokes the key and creates another.',
      example: 'vcs_0123456789abcdefghijklmnopqrstuv01234567',
    }),
}).openapi('CreatedApiKey');

export const ApiKeyListSchema = listEnvelope(ApiKeySchema, 'ApiKeyList');
