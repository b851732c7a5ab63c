import type { Database } from 'better-sqlite3';
import { setMaxListeners } from 'node:events';
import { timerDecider, timerStream, type TimerEvent } from '../../domain/timer.ts';
import {
  attemptDue,
  WEBHOOK_RETRY_TIMER_KIND,
  webhookDeliveryDecider,
  webhookDeliveryIdOf,
  webhookDeliveryStream,
  type WebhookDeliveryEvent,
} from '../../domain/webhook-delivery.ts';
import type { WebhookEvent } from '../../domain/webhook.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { WorkQueue } from '../../infra/work-queue/port.ts';
import { dueDeliveries, openDeliveryIds } from '../../projections/webhook-deliveries.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { deliveryAttempt, type DeliveryAttemptPorts } from './delivery-attempt.ts';
import { DEFAULT_QUEUE_LIMITS, DeliveryQueue, type QueueLimits } from './delivery-queue.ts';
import { admitOnWorkQueue } from './work-queue-delivery.ts';

const ACTOR = 'webhook-dispatcher';
const RECOVERY_BATCH = 1_000;
const READ_MODEL_WAIT_MS = 30_000;

/** The events the dispatcher reacts to. */
export type DispatcherEvent =
  | Extract<WebhookDeliveryEvent, { type: 'WebhookDeliveryCreated' | 'WebhookDeliveryReplayRequested' | 'WebhookDeliveryAttemptFailed' | 'WebhookDeliveryCancelled' }>
  | Extract<TimerEvent, { type: 'TimerFired' }>
  | Extract<WebhookEvent, { type: 'WebhookDeleted' }>;

export interface DispatcherPorts extends ReadModelsCatchUpPorts, DeliveryAttemptPorts {
  readDb: Database;
  /** A cluster's work queue: attempts are admitted to it and made by any node (work-queue-delivery.ts). Null on a lone node. */
  workQueue: WorkQueue | null;
}

/** The payload of a webhook retry timer as the dispatcher scheduled it, read back field by field. */
function retryTimerPayload(payload: Record<string, unknown>): { delivery_id: string; webhook_id: string } {
  const { delivery_id: deliveryId, webhook_id: webhookId } = payload;
  if (typeof deliveryId !== 'string' || typeof webhookId !== 'string') throw new Error('a webhook retry timer without its delivery');
  return { delivery_id: deliveryId, webhook_id: webhookId };
}

export interface WebhookDispatcher extends ProcessManager<DispatcherEvent> {
  /** Resolves when no attempt is queued or under way (tests, benchmarks). */
  idle(): Promise<void>;
  /** Queues a delivery just created (the fan-out's hand-off, ahead of this follower reading it back). */
  enqueue(workspaceId: string, webhookId: string, deliveryId: string): void;
}

/**
 * Delivers: reacts to new deliveries, replays and due retry timers by queueing an attempt; schedules the durable
 * retry timer a failed attempt asks for and cancels it when the delivery is cancelled; cancels a deleted webhook's
 * open deliveries.
 *
 * Restart semantics: the queue lives in memory, so on start the dispatcher re-queues every delivery the read model
 * shows as due (pending, or a retry whose time has passed). An attempt is recorded after the receiver answered; one
 * under way when the process died was not recorded and is sent again with the same attempt number, envelope id
 * and signature (at-least-once: the receiver may see that one attempt twice, and deduplicates on the envelope id).
 * Before each send the attempt is checked against the delivery's own stream, so nothing else repeats.
 *
 * In a cluster (`workQueue` set) this runs on the leader and the attempts themselves run on every worker node
 * (work-queue-delivery.ts); a new leader's restart re-admits the due deliveries, finding the items of attempts
 * still under way on other nodes and holding their slots until they finish.
 */
export function webhookDispatcher(ports: DispatcherPorts, limits: QueueLimits = DEFAULT_QUEUE_LIMITS): WebhookDispatcher {
  const { commands, clock, readDb, logger } = ports;
  const shutdown = new AbortController();
  // Every attempt under way listens for the shutdown (the outbound client, and http.request itself): up to two
  // listeners per slot, which is expected, not a leak.
  setMaxListeners(2 * limits.total + 10, shutdown.signal);
  const sendAttempt = deliveryAttempt(ports);
  const admit = ports.workQueue ? admitOnWorkQueue({ commands, clock, workQueue: ports.workQueue }) : null;
  const queue = new DeliveryQueue(
    (deliveryId, webhookId) => (admit ? admitToCluster(deliveryId, webhookId) : attemptHere(deliveryId, webhookId)),
    limits,
    (error, deliveryId) => logger.error({ err: error, delivery_id: deliveryId }, 'webhook delivery attempt failed to run'),
  );
  let recovery: Promise<void> = Promise.resolve();
  /**
   * Deliveries the fan-out handed over that this follower has not read back yet: reading one back queues nothing
   * more (it would only load the delivery to find its attempt already made). Lost on a crash, so everything is
   * queued from the store after a restart.
   */
  const handedOver = new Set<string>();

  /** A lone node sends the attempt itself; a failed replay whose retry came due meanwhile goes again at once. */
  async function attemptHere(deliveryId: string, webhookId: string): Promise<void> {
    const result = await sendAttempt(deliveryId, webhookId, shutdown.signal);
    if (result.kind === 'recorded' && result.state.created && attemptDue(result.state, clock.now())) queue.enqueue(result.state.created.workspace_id, webhookId, deliveryId);
  }

  /** A cluster's leader admits the attempt to the `webhooks` queue and holds its slot until a node has made it. */
  async function admitToCluster(deliveryId: string, webhookId: string): Promise<void> {
    const admission = await admit!(deliveryId, webhookId, shutdown.signal);
    if (admission.kind === 'due_again') queue.enqueue(admission.workspaceId, webhookId, deliveryId);
  }

  /** After a restart: everything due according to the read model, once it has caught up with the store. */
  async function recover(): Promise<void> {
    if (!(await readModelsCaughtUp(ports, shutdown.signal))) return;
    const due = dueDeliveries(readDb, clock.now().getTime(), Number.MAX_SAFE_INTEGER);
    for (let index = 0; index < due.length; index += RECOVERY_BATCH) {
      for (const { delivery_id: deliveryId, webhook_id: webhookId, workspace_id: workspaceId } of due.slice(index, index + RECOVERY_BATCH)) {
        queue.enqueue(workspaceId, webhookId, deliveryId);
      }
    }
    if (due.length > 0) logger.info({ deliveries: due.length }, 'webhook deliveries re-queued after start');
  }

  async function webhookOf(deliveryStream: string): Promise<{ webhookId: string; workspaceId: string } | null> {
    const { state } = await commands.load(webhookDeliveryDecider, deliveryStream);
    return state.created ? { webhookId: state.created.webhook_id, workspaceId: state.created.workspace_id } : null;
  }

  async function handle(event: Recorded<DispatcherEvent>): Promise<void> {
    const context = { workspaceId: event.metadata.workspace_id, actor: ACTOR, now: clock.now(), causationId: event.id, correlationId: event.metadata.correlation_id };
    switch (event.type) {
      case 'WebhookDeliveryCreated': {
        const data = event.data;
        if (handedOver.delete(data.delivery_id)) return;
        queue.enqueue(data.workspace_id, data.webhook_id, data.delivery_id);
        return;
      }
      case 'WebhookDeliveryReplayRequested': {
        const owner = await webhookOf(event.stream);
        if (owner) queue.enqueue(owner.workspaceId, owner.webhookId, webhookDeliveryIdOf(event.stream));
        return;
      }
      case 'WebhookDeliveryAttemptFailed': {
        const data = event.data;
        if (data.retry_timer_id === null || data.next_attempt_at === null) return;
        const owner = await webhookOf(event.stream);
        if (!owner) return;
        const deliveryId = webhookDeliveryIdOf(event.stream);
        await commands.handle(
          timerDecider,
          timerStream(data.retry_timer_id),
          {
            type: 'ScheduleTimer',
            timerId: data.retry_timer_id,
            kind: WEBHOOK_RETRY_TIMER_KIND,
            dueAt: new Date(data.next_attempt_at),
            payload: { delivery_id: deliveryId, webhook_id: owner.webhookId, retry: data.retry },
          },
          context,
        );
        return;
      }
      case 'WebhookDeliveryCancelled': {
        const data = event.data;
        if (data.retry_timer_id === null) return;
        await commands.handle(timerDecider, timerStream(data.retry_timer_id), { type: 'CancelTimer', now: context.now, reason: 'webhook_deleted' }, context);
        return;
      }
      case 'TimerFired': {
        if (event.data.kind !== WEBHOOK_RETRY_TIMER_KIND) return;
        const payload = retryTimerPayload(event.data.payload);
        // The timer is recorded in the delivery's workspace; only a timer without one needs the delivery loaded.
        const workspaceId = event.metadata.workspace_id ?? (await webhookOf(webhookDeliveryStream(payload.delivery_id)))?.workspaceId;
        if (workspaceId) queue.enqueue(workspaceId, payload.webhook_id, payload.delivery_id);
        return;
      }
      case 'WebhookDeleted': {
        // The delivery log must include every delivery created before the deletion.
        if (!(await ports.projections.waitForPosition(event.position, READ_MODEL_WAIT_MS))) throw new Error('read models are behind');
        for (const deliveryId of openDeliveryIds(readDb, event.data.webhook_id)) {
          await commands.handle(
            webhookDeliveryDecider,
            webhookDeliveryStream(deliveryId),
            { type: 'CancelWebhookDelivery', data: { cancelled_at: context.now.toISOString(), reason: 'webhook_deleted' } },
            context,
          );
        }
        return;
      }
    }
  }

  return {
    name: 'webhook-dispatcher',
    eventTypes: [
      'WebhookDeliveryCreated',
      'WebhookDeliveryReplayRequested',
      'WebhookDeliveryAttemptFailed',
      'WebhookDeliveryCancelled',
      'TimerFired',
      'WebhookDeleted',
    ],
    handle,
    start() {
      recovery = recover().catch((error: unknown) => logger.error({ err: error }, 'webhook delivery recovery failed'));
    },
    async stop() {
      shutdown.abort();
      await recovery;
      await queue.stop();
    },
    idle: () => queue.idle(),
    enqueue(workspaceId, webhookId, deliveryId) {
      handedOver.add(deliveryId);
      queue.enqueue(workspaceId, webhookId, deliveryId);
    },
  };
}
