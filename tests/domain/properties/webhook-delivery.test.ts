import * as fc from 'fast-check';
import { suite } from 'uvu';
import { MAX_AUTOMATIC_ATTEMPTS, webhookDeliveryDecider, type WebhookDeliveryCommand } from '../../../domain/webhook-delivery.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { id, plausibleTime, time, nullable } from './domain-values.ts';

const properties = suite('webhook delivery decider: properties');

const create: fc.Arbitrary<WebhookDeliveryCommand> = fc.record({
  type: fc.constant('CreateWebhookDelivery' as const),
  data: fc.record({
    delivery_id: id('dlv_1', 'dlv_2'),
    webhook_id: fc.constant('wh_1'),
    workspace_id: fc.constant('ws_1'),
    event_id: fc.constant('evt_1'),
    event: fc.constantFrom('call.completed', 'campaign.paused'),
    body: fc.constant('{"event":"call.completed"}'),
    source_event_id: fc.constant('e-1'),
    source_position: fc.nat(100),
    created_at: plausibleTime,
  }),
});
const attempt: fc.Arbitrary<WebhookDeliveryCommand> = fc.record({
  type: fc.constant('RecordWebhookDeliveryAttempt' as const),
  data: fc.record(
    {
      attempt: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: MAX_AUTOMATIC_ATTEMPTS + 2 }) }),
      attempted_at: time,
      http_status: nullable(fc.constantFrom(200, 204, 299, 300, 404, 500, 503)),
      error: nullable(fc.constantFrom('timeout', 'connection refused')),
      duration_ms: fc.nat(10_000),
      ended_at: time,
    },
    { requiredKeys: ['attempt', 'attempted_at', 'http_status', 'error', 'duration_ms'] },
  ),
});
const command: fc.Arbitrary<WebhookDeliveryCommand> = fc.oneof(
  create,
  { weight: 4, arbitrary: attempt },
  fc.record({ type: fc.constant('ReplayWebhookDelivery' as const), data: fc.record({ requested_at: time }) }),
  fc.record({ type: fc.constant('CancelWebhookDelivery' as const), data: fc.record({ cancelled_at: time, reason: fc.constant('webhook_deleted' as const) }) }),
);

properties('random command sequences: only domain refusals, attempts count up, a retry is always scheduled while retrying', () => {
  checkDeciderProperties({
    decider: webhookDeliveryDecider,
    command,
    opening: create,
    maxCommands: 30,
    invariants: [
      { name: 'cancellation is final', broken: (after, before) => (before.status === 'cancelled' && after.status !== 'cancelled' ? after.status : null) },
      { name: 'attempts never go back', broken: (after, before) => (after.attempts < before.attempts ? `${before.attempts} → ${after.attempts}` : null) },
      { name: 'at most six automatic attempts', broken: (after) => (after.automaticFailures > MAX_AUTOMATIC_ATTEMPTS ? String(after.automaticFailures) : null) },
      {
        name: 'retrying means a retry is due at a real instant',
        broken: (after) => (after.status === 'retrying' && (after.nextAttemptAt === null || Number.isNaN(Date.parse(after.nextAttemptAt))) ? String(after.nextAttemptAt) : null),
      },
    ],
  });
});

properties.run();
