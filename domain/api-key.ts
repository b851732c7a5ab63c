import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

export const API_KEY_SCOPES = ['Read-Only', 'Read-Write', 'Admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * An API key. Only the SHA-256 hash of its secret is ever stored (the secret has 200 random bits, so a plain hash
 * cannot be brute-forced and lets the auth path look a key up by hash in one indexed read). Revocation is final.
 */
export type ApiKeyEvent =
  | DomainEvent<'ApiKeyCreated', { key_id: string; workspace_id: string; name: string; scope: ApiKeyScope; secret_hash: string; created_at: string }>
  | DomainEvent<'ApiKeyRevoked', { key_id: string; workspace_id: string; revoked_at: string }>;

export type ApiKeyCommand =
  | { type: 'CreateApiKey'; keyId: string; workspaceId: string; name: string; scope: ApiKeyScope; secretHash: string; now: Date }
  | { type: 'RevokeApiKey'; now: Date };

export interface ApiKeyState {
  status: 'none' | 'active' | 'revoked';
  keyId: string;
  workspaceId: string;
  scope: ApiKeyScope;
}

const apiKeyStreams = streamCategory('apikey');
export const apiKeyStream = apiKeyStreams.stream;
export const apiKeyIdOf = apiKeyStreams.idOf;

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: () => ({ status: 'none', keyId: '', workspaceId: '', scope: 'Read-Only' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return { status: 'active', keyId: event.data.key_id, workspaceId: event.data.workspace_id, scope: event.data.scope };
      case 'ApiKeyRevoked':
        return { ...state, status: 'revoked' };
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.status !== 'none') throw alreadyDone(`API key ${state.keyId} already exists`, { id: state.keyId });
        const name = command.name.trim();
        if (name.length === 0 || name.length > 255) {
          throw new DomainError('invalid_parameter', 'A key name has 1 to 255 characters.', {
            field: 'name',
            provided: command.name,
            expected: 'a string of 1 to 255 characters',
          });
        }
        if (!API_KEY_SCOPES.includes(command.scope)) {
          throw new DomainError('invalid_parameter', 'Unknown scope.', { field: 'scope', provided: command.scope, expected: API_KEY_SCOPES.join(' | ') });
        }
        return [
          {
            type: 'ApiKeyCreated',
            data: {
              key_id: command.keyId,
              workspace_id: command.workspaceId,
              name,
              scope: command.scope,
              secret_hash: command.secretHash,
              created_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RevokeApiKey':
        if (state.status === 'none') throw new DomainError('resource_not_found', 'No such API key.', { resource_type: 'api_key' });
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { key_id: state.keyId, workspace_id: state.workspaceId, revoked_at: command.now.toISOString() } }];
    }
  },
};
