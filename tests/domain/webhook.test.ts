import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { subscribesTo, webhookDecider, type WebhookEvent } from '../../domain/webhook.ts';
import { upcast } from '../../domain/upcasters.ts';
import { given } from './given-when-then.ts';

const webhooks = suite('webhook decider');
const at = '2026-03-01T10:00:00.000Z';
// What the route records: the secret sealed (commands/register-webhook.ts); the decider keeps it as given.
const SEALED = 'v1.aXY.dGFn.Y2lwaGVy';
const registered: WebhookEvent = {
  type: 'WebhookRegistered',
  data: { webhook_id: 'wh_1', workspace_id: 'ws_1', url: 'https://hooks.example.com/a', events: ['call.completed'], secret: SEALED, secret_sealed: true, created_at: at },
};
const register = () => ({
  type: 'RegisterWebhook' as const,
  data: { webhook_id: 'wh_1', workspace_id: 'ws_1', url: 'https://hooks.example.com/a', events: ['call.completed'], secret: SEALED, secret_sealed: true as const, created_at: at },
});

webhooks('given nothing, when registered, then WebhookRegistered keeps the sealed secret (the sender opens it to sign)', () => {
  given(webhookDecider).when(register()).then([registered]);
  const state = webhookDecider.evolve(webhookDecider.initialState(), registered);
  assert.equal([state.secret, state.secretSealed], [SEALED, true]);
});

webhooks('a registration recorded before sealing existed: its plain secret is kept as plain text', () => {
  // As stored (no secret_sealed), read through the upcaster as every reader does.
  const stored = {
    type: 'WebhookRegistered',
    data: { webhook_id: 'wh_0', workspace_id: 'ws_1', url: 'https://hooks.example.com/a', events: ['*'], secret: 's3cret', created_at: at } as Record<string, unknown>,
    metadata: { schema_version: 1 },
  };
  const legacy = upcast(stored) as unknown as WebhookEvent;
  const state = webhookDecider.evolve(webhookDecider.initialState(), legacy);
  assert.equal([state.secret, state.secretSealed], ['s3cret', false]);
});

webhooks('given a registered webhook, when registered again with the same id, then already_exists', () => {
  given(webhookDecider, [registered]).when(register()).thenThrows('already_exists');
});

webhooks('given a registered webhook, when deleted, then WebhookDeleted; deleted again, then resource_not_found', () => {
  const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { webhook_id: 'wh_1', deleted_at: at } };
  given(webhookDecider, [registered]).when({ type: 'DeleteWebhook', data: { webhook_id: 'wh_1', workspace_id: 'ws_1', deleted_at: at } }).then([deleted]);
  given(webhookDecider, [registered, deleted])
    .when({ type: 'DeleteWebhook', data: { webhook_id: 'wh_1', workspace_id: 'ws_1', deleted_at: at } })
    .thenThrows('resource_not_found', { resource_type: 'webhook', id: 'wh_1' });
});

webhooks('given another workspace\'s webhook or none, when deleted, then resource_not_found', () => {
  given(webhookDecider, [registered])
    .when({ type: 'DeleteWebhook', data: { webhook_id: 'wh_1', workspace_id: 'ws_2', deleted_at: at } })
    .thenThrows('resource_not_found', { id: 'wh_1' });
  given(webhookDecider).when({ type: 'DeleteWebhook', data: { webhook_id: 'wh_9', workspace_id: 'ws_1', deleted_at: at } }).thenThrows('resource_not_found', { id: 'wh_9' });
});

webhooks('a deleted webhook forgets its secret in memory', () => {
  const state = [registered, { type: 'WebhookDeleted', data: { webhook_id: 'wh_1', deleted_at: at } } as WebhookEvent].reduce(webhookDecider.evolve, webhookDecider.initialState());
  assert.is(state.status, 'deleted');
  assert.is(state.secret, null);
});

webhooks('subscriptions: a name, or * for everything', () => {
  assert.ok(subscribesTo(['call.completed'], 'call.completed'));
  assert.not.ok(subscribesTo(['call.completed'], 'call.escalated'));
  assert.ok(subscribesTo(['*'], 'transcription.failed'));
});

webhooks.run();
