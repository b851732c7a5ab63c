import { test } from 'uvu';
import { workspaceDecider as decider } from '../../domain/workspace.ts';
import { given } from './given-when-then.ts';

const now = new Date('2026-03-01T10:00:00Z');
const created = {
  type: 'WorkspaceCreated' as const,
  data: { workspace_id: 'ws_1', name: 'Acme', rate_limit_per_minute: 1000, dialing_concurrency: 10, created_at: now.toISOString() },
};

test('creates a workspace with default limits', () => {
  given(decider).when({ type: 'CreateWorkspace', workspaceId: 'ws_1', name: 'Acme', now }).then([created]);
});
test('refuses to create it twice', () => {
  given(decider, [created]).when({ type: 'CreateWorkspace', workspaceId: 'ws_1', name: 'Acme', now }).thenThrows('invalid_state');
});
test('refuses an empty name', () => {
  given(decider).when({ type: 'CreateWorkspace', workspaceId: 'ws_1', name: ' ', now }).thenThrows('invalid_parameter', { field: 'name' });
});
test('renames; the same name changes nothing', () => {
  given(decider, [created]).when({ type: 'RenameWorkspace', name: 'Acme Ltd' }).then([{ type: 'WorkspaceRenamed', data: { workspace_id: 'ws_1', name: 'Acme Ltd' } }]);
  given(decider, [created]).when({ type: 'RenameWorkspace', name: 'Acme' }).thenNothing();
});
test('sets the rate limit and dialing concurrency; refuses nonsense', () => {
  given(decider, [created]).when({ type: 'SetRateLimit', perMinute: 5000 }).then([{ type: 'WorkspaceRateLimitSet', data: { workspace_id: 'ws_1', rate_limit_per_minute: 5000 } }]);
  given(decider, [created]).when({ type: 'SetRateLimit', perMinute: 0 }).thenThrows('invalid_parameter', { field: 'per_minute', provided: 0 });
  given(decider, [created]).when({ type: 'SetDialingConcurrency', limit: 25 }).then([{ type: 'WorkspaceDialingConcurrencySet', data: { workspace_id: 'ws_1', dialing_concurrency: 25 } }]);
  given(decider, [created]).when({ type: 'SetDialingConcurrency', limit: 1.5 }).thenThrows('invalid_parameter');
});
test('commands on a missing workspace are refused', () => {
  given(decider).when({ type: 'SetRateLimit', perMinute: 10 }).thenThrows('resource_not_found');
});
test.run();
