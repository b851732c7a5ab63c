import type { Runtime } from '../../composition.ts';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import { subscribesTo, type WebhookRegistered } from '../../domain/webhook.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { deterministicId } from '../../infra/ids.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import { webhooksRegisteredBefore, type WebhookRow } from '../../projections/webhooks.ts';
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

/** Called with each delivery as soon as it is created, to send it without waiting for the store's followers. */
export type DeliveryCreated = (webhookId: string, deliveryId: string) => void;

/**
 * Fan-out: for each domain event that produces webhook notifications, the workspace's live webhooks registered
 * before it (by global position) that subscribe to the notification (or to `*`) each get a delivery. The envelope
 * is built and serialised once and shared by all of them. Delivery ids are derived from the event and the webhook,
 * so handling an event again after a crash creates nothing twice.
 *
 * The webhooks of a workspace are read from the read model once (after it has caught up with the first event of
 * that workspace seen since start) and then kept up to date from the WebhookRegistered / WebhookDeleted events,
 * which this follower sees in global order with the others: waiting for every read model at every event made the
 * fan-out as slow as the slowest projection. The deliveries of one event are independent streams, so they are
 * appended together, and each is handed to the dispatcher (`onCreated`) at once; the dispatcher's own follower
 * still queues it from the store too (the queue drops the duplicate or the attempt finds nothing due), so a crash
 * between the append and the hand-off loses nothing.
 */
export function webhookFanOut(runtime: Runtime, sources: PayloadSources, onCreated: DeliveryCreated = () => undefined): ProcessManager {
  const webhooksByWorkspace = new Map<string, WebhookRow[]>();

  async function liveWebhooks(workspaceId: string, position: number): Promise<WebhookRow[]> {
    let webhooks = webhooksByWorkspace.get(workspaceId);
    if (!webhooks) {
      // The webhooks read model must have seen everything registered or deleted before this event.
      if (!(await runtime.projections.waitForPosition(position, READ_MODEL_WAIT_MS))) throw new Error('read models are behind');
      webhooks = webhooksRegisteredBefore(runtime.readDb, workspaceId, Number.MAX_SAFE_INTEGER);
      webhooksByWorkspace.set(workspaceId, webhooks);
    }
    return webhooks;
  }

  function track(event: RecordedEvent): void {
    if (event.type === 'WebhookRegistered') {
      const data = event.data as WebhookRegistered['data'];
      const webhooks = webhooksByWorkspace.get(data.workspace_id);
      // Not loaded yet: the read model has it when the workspace is first loaded.
      if (!webhooks || webhooks.some((webhook) => webhook.webhook_id === data.webhook_id)) return;
      webhooks.push({ webhook_id: data.webhook_id, workspace_id: data.workspace_id, url: data.url, events: data.events, created_at: data.created_at, registered_position: event.position });
    } else {
      const webhookId = String(event.data.webhook_id);
      for (const [workspaceId, webhooks] of webhooksByWorkspace) {
        const index = webhooks.findIndex((webhook) => webhook.webhook_id === webhookId);
        if (index !== -1) webhooksByWorkspace.set(workspaceId, webhooks.filter((_, at) => at !== index));
      }
    }
  }

  async function create(workspaceId: string, event: RecordedEvent, webhookId: string, eventId: string, notificationEvent: string, body: string, now: Date): Promise<void> {
    const deliveryId = webhookDeliveryId(eventId, webhookId);
    try {
      await runtime.commands.handle(
        webhookDeliveryDecider,
        webhookDeliveryStream(deliveryId),
        {
          type: 'CreateWebhookDelivery',
          data: {
            delivery_id: deliveryId,
            webhook_id: webhookId,
            workspace_id: workspaceId,
            event_id: eventId,
            event: notificationEvent,
            body,
            source_event_id: event.id,
            source_position: event.position,
            created_at: now.toISOString(),
          },
        },
        { workspaceId, actor: ACTOR, now, causationId: event.id, correlationId: event.metadata.correlation_id },
      );
      onCreated(webhookId, deliveryId);
    } catch (error) {
      // Created before a crash: the others of this event still need theirs.
      if (!(error instanceof DomainError && error.code === 'already_exists')) throw error;
    }
  }

  return {
    name: 'webhook-fan-out',
    eventTypes: [...WEBHOOK_SOURCE_EVENT_TYPES, 'WebhookRegistered', 'WebhookDeleted'],
    async handle(event: RecordedEvent) {
      if (event.type === 'WebhookRegistered' || event.type === 'WebhookDeleted') return track(event);
      const workspaceId = event.metadata.workspace_id;
      if (!workspaceId) return;
      const possible = WEBHOOK_EVENTS_BY_SOURCE[event.type as keyof typeof WEBHOOK_EVENTS_BY_SOURCE] ?? [];
      const webhooks = (await liveWebhooks(workspaceId, event.position)).filter(
        (webhook) => webhook.registered_position < event.position && possible.some((name) => subscribesTo(webhook.events, name)),
      );
      if (webhooks.length === 0) return;
      const now = runtime.clock.now();
      const creations: Promise<void>[] = [];
      for (const notification of await notificationsFor(event, sources)) {
        const subscribers = webhooks.filter((webhook) => subscribesTo(webhook.events, notification.event));
        if (subscribers.length === 0) continue;
        const eventId = webhookEventId(event.id, notification.event);
        const body = JSON.stringify({ event: notification.event, id: eventId, timestamp: now.toISOString(), data: notification.data });
        for (const webhook of subscribers) creations.push(create(workspaceId, event, webhook.webhook_id, eventId, notification.event, body, now));
      }
      // All settle before the checkpoint moves; the first failure is rethrown and the event handled again.
      const failed = (await Promise.allSettled(creations)).find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
