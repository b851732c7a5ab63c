import type { Database } from 'better-sqlite3';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import type { WebhookEvent } from '../../domain/webhook.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { ReadModelProgress } from '../../projections/read-model-progress.ts';
import { webhooksRegisteredBefore, type WebhookRow } from '../../projections/webhooks.ts';
import type { ProcessManager } from '../process-manager.ts';
import { interestedSubscribers, planDeliveries } from './fan-out-plan.ts';
import { notificationsFor, WEBHOOK_EVENTS_BY_SOURCE, WEBHOOK_SOURCE_EVENT_TYPES, type PayloadSources, type WebhookSourceEvent } from './payloads.ts';

export { webhookDeliveryId, webhookEventId } from './fan-out-plan.ts';

const ACTOR = 'webhook-fan-out';
const READ_MODEL_WAIT_MS = 30_000;

/** Called with each delivery as soon as it is created, to send it without waiting for the store's followers. */
export type DeliveryCreated = (workspaceId: string, webhookId: string, deliveryId: string) => void;

export interface FanOutPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  projections: ReadModelProgress;
}

/**
 * Fan-out: for each domain event that produces webhook notifications, the workspace's live webhooks registered
 * before it (by global position) that subscribe to the notification (or to `*`) each get a delivery: the choice is
 * `planDeliveries` (pure); this process gathers its inputs and appends the result.
 *
 * The webhooks of a workspace are read from the read model once (after it has caught up with the first event of
 * that workspace seen since start) and then kept up to date from the WebhookRegistered / WebhookDeleted events,
 * which this follower sees in global order with the others: waiting for every read model at every event made the
 * fan-out as slow as the slowest projection. The deliveries of one event are independent streams, so they are
 * appended together, and each is handed to the dispatcher (`onCreated`) at once; the dispatcher's own follower
 * still queues it from the store too (the queue drops the duplicate or the attempt finds nothing due), so a crash
 * between the append and the hand-off loses nothing.
 */
export function webhookFanOut(ports: FanOutPorts, sources: PayloadSources, onCreated: DeliveryCreated = () => undefined): ProcessManager<WebhookSourceEvent | WebhookEvent> {
  const { commands, clock, readDb, projections } = ports;
  const webhooksByWorkspace = new Map<string, WebhookRow[]>();

  async function liveWebhooks(workspaceId: string, position: number): Promise<WebhookRow[]> {
    let webhooks = webhooksByWorkspace.get(workspaceId);
    if (!webhooks) {
      // The webhooks read model must have seen everything registered or deleted before this event.
      if (!(await projections.waitForPosition(position, READ_MODEL_WAIT_MS))) throw new Error('read models are behind');
      webhooks = webhooksRegisteredBefore(readDb, workspaceId, Number.MAX_SAFE_INTEGER);
      webhooksByWorkspace.set(workspaceId, webhooks);
    }
    return webhooks;
  }

  function track(event: Recorded<WebhookEvent>): void {
    if (event.type === 'WebhookRegistered') {
      const data = event.data;
      const webhooks = webhooksByWorkspace.get(data.workspace_id);
      // Not loaded yet: the read model has it when the workspace is first loaded.
      if (!webhooks || webhooks.some((webhook) => webhook.webhook_id === data.webhook_id)) return;
      webhooks.push({ webhook_id: data.webhook_id, workspace_id: data.workspace_id, url: data.url, events: data.events, created_at: data.created_at, registered_position: event.position });
    } else {
      const webhookId = event.data.webhook_id;
      for (const [workspaceId, webhooks] of webhooksByWorkspace) {
        const index = webhooks.findIndex((webhook) => webhook.webhook_id === webhookId);
        if (index !== -1) webhooksByWorkspace.set(workspaceId, webhooks.filter((_, at) => at !== index));
      }
    }
  }

  return {
    name: 'webhook-fan-out',
    eventTypes: [...WEBHOOK_SOURCE_EVENT_TYPES, 'WebhookRegistered', 'WebhookDeleted'],
    async handle(event) {
      if (event.type === 'WebhookRegistered' || event.type === 'WebhookDeleted') return track(event);
      const workspaceId = event.metadata.workspace_id;
      if (!workspaceId) return;
      const subscribers = interestedSubscribers(await liveWebhooks(workspaceId, event.position), event.position, WEBHOOK_EVENTS_BY_SOURCE[event.type]);
      if (subscribers.length === 0) return;
      const now = clock.now();
      const planned = planDeliveries({ id: event.id, position: event.position, workspaceId }, await notificationsFor(event, sources), subscribers, now);
      const context = { workspaceId, actor: ACTOR, now, causationId: event.id, correlationId: event.metadata.correlation_id };
      // All settle before the checkpoint moves; the first failure is rethrown and the event handled again. A
      // delivery created before a crash is refused as already_exists, and the others of the event still get theirs.
      const created = await Promise.allSettled(
        planned.map(async (command) => {
          const result = await commands.handle(webhookDeliveryDecider, webhookDeliveryStream(command.data.delivery_id), command, context, { tolerate: ['already_exists'] });
          if (!wasRefused(result)) onCreated(workspaceId, command.data.webhook_id, command.data.delivery_id);
        }),
      );
      const failed = created.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
