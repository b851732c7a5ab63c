import { test } from 'uvu';
import { apiKeyDecider as decider } from '../../domain/api-key.ts';
import { given } from './given-when-then.ts';

const now = new Date('2026-03-01T10:00:00Z');
const create = { type: 'CreateApiKey' as const, keyId: 'key_1', workspaceId: 'ws_1', name: 'CI', scope: 'Read-Write' as const, secretHash: 'abc', now };
const created = {
  type: 'ApiKeyCreated' as const,
  data: { key_id: 'key_1', workspace_id: 'ws_1', name: 'CI', scope: 'Read-Write' as const, secret_hash: 'abc', created_at: now.toISOString() },
};
const revoked = { type: 'ApiKeyRevoked' as const, data: { key_id: 'key_1', workspace_id: 'ws_1', revoked_at: now.toISOString() } };

test('creates a key with only the hash of its secret', () => {
  given(decider).when(create).then([created]);
});
test('refuses a duplicate key id', () => {
  given(decider, [created]).when(create).thenThrows('already_exists');
});
test('refuses an unknown scope and an empty name', () => {
  given(decider).when({ ...create, scope: 'Root' as never }).thenThrows('invalid_parameter', { field: 'scope', provided: 'Root' });
  given(decider).when({ ...create, name: '' }).thenThrows('invalid_parameter', { field: 'name' });
});
test('revokes; revoking again changes nothing (revocation is final)', () => {
  given(decider, [created]).when({ type: 'RevokeApiKey', now }).then([revoked]);
  given(decider, [created, revoked]).when({ type: 'RevokeApiKey', now }).thenNothing();
});
test('revoking a missing key is not found', () => {
  given(decider).when({ type: 'RevokeApiKey', now }).thenThrows('resource_not_found');
});
test.run();
