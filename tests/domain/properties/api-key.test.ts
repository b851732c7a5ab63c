import * as fc from 'fast-check';
import { suite } from 'uvu';
import { API_KEY_SCOPES, apiKeyDecider, type ApiKeyCommand, type ApiKeyScope } from '../../../domain/api-key.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { date, id, name } from './domain-values.ts';

const properties = suite('api key decider: properties');

const scope = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...API_KEY_SCOPES) }, { weight: 1, arbitrary: fc.constantFrom('Owner', '', 'admin') as fc.Arbitrary<string> as fc.Arbitrary<ApiKeyScope> });
const create: fc.Arbitrary<ApiKeyCommand> = fc.record({
  type: fc.constant('CreateApiKey' as const),
  keyId: id('key_1', 'key_2'),
  workspaceId: id('ws_1', 'ws_2'),
  name,
  scope,
  secretHash: fc.constantFrom('hash-a', 'hash-b'),
  now: date,
});
const revoke: fc.Arbitrary<ApiKeyCommand> = fc.record({ type: fc.constant('RevokeApiKey' as const), now: date });

properties('random command sequences: only domain refusals, a revoked key stays revoked, scope and owner never change', () => {
  checkDeciderProperties({
    decider: apiKeyDecider,
    command: fc.oneof(create, revoke),
    opening: create,
    invariants: [
      { name: 'revocation is final', broken: (after, before) => (before.status === 'revoked' && after.status !== 'revoked' ? `back to ${after.status}` : null) },
      {
        name: 'identity and scope are fixed at creation',
        broken: (after, before) =>
          before.status !== 'none' && (after.keyId !== before.keyId || after.workspaceId !== before.workspaceId || after.scope !== before.scope) ? 'changed' : null,
      },
      { name: 'a known scope', broken: (after) => (API_KEY_SCOPES.includes(after.scope) ? null : `scope ${after.scope}`) },
    ],
  });
});

properties.run();
