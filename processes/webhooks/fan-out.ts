import type { Runtime } from '../../composition.ts';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import { subscribesTo } from '../../domain/webhook.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { deterministicId } from '../../infra/ids.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import { webhooksRegisteredBefore } from '../../projections/webhooks.ts';
import type { ProcessManager } from '../process-manager.ts';
import { notificationsFor, WEBHOOK_EVENTS_BY_SOURCE, WEBHOOK_SOURCE_EVENT_TYPES, type PayloadSources } from './payloads.ts';

const ACTOR = 'webhook-fan-out';
const READ_MODEL_WAIT_MS = 30_000;

/** The envelope id: the same for every webhook, retry and replay of one notification. */
export function webhookEventId(sourceEventId: string, event: string): string {
  // The event name is part of it: one CallEnded gives both call.completed and call.disposition_set, two
  // notifications a receiver must not deduplicate into one.
  return deterministicId('evt', sourceEventId, event);
}

export function webhookDeliveryId(eventId: string, webhookId: string): string {
  return deterministicId('dlv', eventId, webhookId);
}

/**
 * Fan-out: for each domain event that produces webhook notifications, the workspace's live webhooks registered
 * before it (by global position) that subscribe to the notification (or to `*`) each get a delivery. The envelope
 * is built and serialised once and shared by all of them. Delivery ids are derived from the event and the webhook,
 * so handling an event again after a crash creates nothing twice.
 */
export function webhookFanOut(runtime: Runtime, sources: PayloadSources): ProcessManager {
  return {
    name: 'webhook-fan-out',
    eventTypes: WEBHOOK_SOURCE_EVENT_TYPES,
    async handle(event: RecordedEvent) {
      const workspaceId = event.metadata.workspace_id;
      if (!workspaceId) return;
      // The webhooks read model must have seen everything registered or deleted before this event.
      if (!(await runtime.projections.waitForPosition(event.position, READ_MODEL_WAIT_MS))) throw new Error('read models are behind');
      const possible = WEBHOOK_EVENTS_BY_SOURCE[event.type as keyof typeof WEBHOOK_EVENTS_BY_SOURCE] ?? [];
      const webhooks = webhooksRegisteredBefore(runtime.readDb, workspaceId, event.position).filter((webhook) =>
        possible.some((name) => subscribesTo(webhook.events, name)),
      );
      if (webhooks.length === 0) return;
      const now = runtime.clock.now();
      for (const notification of await notificationsFor(event, sources)) {
        const subscribers = webhooks.filter((webhook) => subscribesTo(webhook.events, notification.event));
        if (subscribers.length === 0) continue;
        const eventId = webhookEventId(event.id, notification.event);
        const body = JSON.stringify({ event: notification.event, id: eventId, timestamp: now.toISOString(), data: notification.data });
        for (const webhook of subscribers) {
          const deliveryId = webhookDeliveryId(eventId, webhook.webhook_id);
          try {
            await runtime.commands.handle(
              webhookDeliveryDecider,
              webhookDeliveryStream(deliveryId),
              {
                type: 'CreateWebhookDelivery',
                data: {
                  delivery_id: deliveryId,
                  webhook_id: webhook.webhook_id,
                  workspace_id: workspaceId,
                  event_id: eventId,
                  event: notification.event,
                  body,
                  source_event_id: event.id,
                  source_position: event.position,
                  created_at: now.toISOString(),
                },
              },
              { workspaceId, actor: ACTOR, now, causationId: event.id, correlationId: event.metadata.correlation_id },
            );
          } catch (error) {
            // Created before a crash: the others of this event still need theirs.
            if (!(error instanceof DomainError && error.code === 'already_exists')) throw error;
          }
        }
      }
    },
  };
}
