import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interestedSubscribers, planDeliveries, webhookDeliveryId, webhookEventId, type Subscriber } from '../../../processes/webhooks/fan-out-plan.ts';
import type { WebhookNotification } from '../../../processes/webhooks/payloads.ts';

// The fan-out's choice: which deliveries an event creates, given its notifications and the workspace's webhooks.

const now = new Date('2026-03-01T10:00:00.000Z');
const event = { id: 'evt-source-1', position: 100, workspaceId: 'ws_1' };
// Only the event name matters to the plan: the data is cut short.
const completed = { event: 'call.completed', data: { call_id: 'cal_1' } } as WebhookNotification;
const dispositionSet = { event: 'call.disposition_set', data: { call_id: 'cal_1', disposition: 'interested' } } as WebhookNotification;
const webhook = (id: string, events: string[], registeredAt = 10): Subscriber => ({ webhook_id: id, events, registered_position: registeredAt });

test('given webhooks subscribed to each notification, then one delivery per (notification, webhook), sharing one envelope per notification', () => {
  const planned = planDeliveries(event, [completed, dispositionSet], [webhook('wh_a', ['call.completed']), webhook('wh_b', ['*'])], now);
  assert.equal(
    planned.map((command) => [command.data.webhook_id, command.data.event]),
    [['wh_a', 'call.completed'], ['wh_b', 'call.completed'], ['wh_b', 'call.disposition_set']],
  );
  const [first, second] = planned;
  assert.is(first!.data.body, second!.data.body, 'one serialised envelope per notification');
  const eventId = webhookEventId(event.id, 'call.completed');
  assert.equal(JSON.parse(first!.data.body), { event: 'call.completed', id: eventId, timestamp: now.toISOString(), data: { call_id: 'cal_1' } });
  assert.equal(first!.data, {
    delivery_id: webhookDeliveryId(eventId, 'wh_a'),
    webhook_id: 'wh_a',
    workspace_id: 'ws_1',
    event_id: eventId,
    event: 'call.completed',
    body: first!.data.body,
    source_event_id: event.id,
    source_position: 100,
    created_at: now.toISOString(),
  });
});

test('given a webhook registered after the event, or subscribed to other events, then it gets nothing', () => {
  const late = webhook('wh_late', ['*'], 101);
  const other = webhook('wh_other', ['campaign.started']);
  assert.equal(planDeliveries(event, [completed], [late, other], now), []);
  assert.equal(interestedSubscribers([late, other, webhook('wh_a', ['call.completed'])], event.position, ['call.completed', 'call.disposition_set']).map((w) => w.webhook_id), ['wh_a']);
});

test('planning the same event again plans the same delivery ids (a replay after a crash creates nothing twice)', () => {
  const subscribers = [webhook('wh_a', ['*'])];
  const ids = (at: Date) => planDeliveries(event, [completed, dispositionSet], subscribers, at).map((command) => command.data.delivery_id);
  assert.equal(ids(now), ids(new Date(now.getTime() + 60_000)));
  assert.is(new Set(ids(now)).size, 2, 'call.completed and call.disposition_set of one event are two notifications');
});

test.run();
