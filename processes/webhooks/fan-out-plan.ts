import type { CreateWebhookDelivery } from '../../domain/webhook-delivery.ts';
import { subscribesTo } from '../../domain/webhook.ts';
import { deterministicId } from '../../domain/shared/deterministic-id.ts';
import type { WebhookNotification } from './payloads.ts';

/**
 * The fan-out's choice, pure (tested given/when/then in tests/processes/webhooks/fan-out-plan.test.ts): which
 * deliveries one event creates. The process manager gathers the inputs (the event's notifications, the workspace's
 * live webhooks) and appends what this returns.
 */

/** The envelope id: the same for every webhook, retry and replay of one notification. */
export function webhookEventId(sourceEventId: string, event: string): string {
  // The event name is part of it: one CallEnded gives both call.completed and call.disposition_set, two
  // notifications a receiver must not deduplicate into one.
  return deterministicId('evt', sourceEventId, event);
}

export function webhookDeliveryId(eventId: string, webhookId: string): string {
  return deterministicId('dlv', eventId, webhookId);
}

/** A webhook as the fan-out sees it: who subscribes to what, since when. */
export interface Subscriber {
  webhook_id: string;
  events: readonly string[];
  /** Global position of its registration: it receives only events after it. */
  registered_position: number;
}

/** Webhooks of the event's workspace that registered before it and subscribe to one of `possible`. */
export function interestedSubscribers(subscribers: readonly Subscriber[], position: number, possible: readonly string[]): Subscriber[] {
  return subscribers.filter((webhook) => webhook.registered_position < position && possible.some((name) => subscribesTo(webhook.events, name)));
}

/**
 * One delivery per (notification, subscribed webhook registered before the event). The envelope of a notification
 * is built and serialised once and shared by all its webhooks; ids are derived from the event and the webhook, so
 * planning the same event again (after a crash) plans the same deliveries, which the deliveries refuse as duplicates.
 */
export function planDeliveries(
  event: { id: string; position: number; workspaceId: string },
  notifications: readonly WebhookNotification[],
  subscribers: readonly Subscriber[],
  now: Date,
): CreateWebhookDelivery[] {
  const planned: CreateWebhookDelivery[] = [];
  for (const notification of notifications) {
    const receivers = subscribers.filter((webhook) => webhook.registered_position < event.position && subscribesTo(webhook.events, notification.event));
    if (receivers.length === 0) continue;
    const eventId = webhookEventId(event.id, notification.event);
    const body = JSON.stringify({ event: notification.event, id: eventId, timestamp: now.toISOString(), data: notification.data });
    for (const webhook of receivers) {
      planned.push({
        type: 'CreateWebhookDelivery',
        data: {
          delivery_id: webhookDeliveryId(eventId, webhook.webhook_id),
          webhook_id: webhook.webhook_id,
          workspace_id: event.workspaceId,
          event_id: eventId,
          event: notification.event,
          body,
          source_event_id: event.id,
          source_position: event.position,
          created_at: now.toISOString(),
        },
      });
    }
  }
  return planned;
}
