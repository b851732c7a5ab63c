import type { Database } from 'better-sqlite3';
import { setMaxListeners } from 'node:events';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { timerDecider, timerStream, type TimerEvent } from '../../domain/timer.ts';
import {
  attemptDue,
  WEBHOOK_RETRY_TIMER_KIND,
  webhookDeliveryDecider,
  webhookDeliveryIdOf,
  webhookDeliveryStream,
  type WebhookDeliveryEvent,
} from '../../domain/webhook-delivery.ts';
import { webhookDecider, webhookStream, type WebhookEvent, type WebhookState } from '../../domain/webhook.ts';
import type { Clock } from '../../infra/clock/port.ts';
import { UnreadableSecret, type SecretBox } from '../../infra/crypto/secret-box.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import { dueDeliveries, openDeliveryIds } from '../../projections/webhook-deliveries.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { DEFAULT_QUEUE_LIMITS, DeliveryQueue, type QueueLimits } from './delivery-queue.ts';
import { sendDelivery, type SendResult } from './sender.ts';

const ACTOR = 'webhook-dispatcher';
const RECOVERY_BATCH = 1_000;
const READ_MODEL_WAIT_MS = 30_000;

/** The events the dispatcher reacts to. */
export type DispatcherEvent =
  | Extract<WebhookDeliveryEvent, { type: 'WebhookDeliveryCreated' | 'WebhookDeliveryReplayRequested' | 'WebhookDeliveryAttemptFailed' | 'WebhookDeliveryCancelled' }>
  | Extract<TimerEvent, { type: 'TimerFired' }>
  | Extract<WebhookEvent, { type: 'WebhookDeleted' }>;

export interface DispatcherPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  /** Opens the sealed signing secrets. */
  secrets: SecretBox;
  /** ALLOW_PRIVATE_TARGETS: deliver to private addresses too (tests, on-premises receivers). */
  allowPrivateTargets: boolean;
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
 */
export function webhookDispatcher(ports: DispatcherPorts, limits: QueueLimits = DEFAULT_QUEUE_LIMITS): WebhookDispatcher {
  const { commands, clock, readDb, logger } = ports;
  const shutdown = new AbortController();
  // Every attempt under way listens for the shutdown (the outbound client, and http.request itself): up to two
  // listeners per slot, which is expected, not a leak.
  setMaxListeners(2 * limits.total + 10, shutdown.signal);
  const queue = new DeliveryQueue(
    (deliveryId, webhookId) => attempt(deliveryId, webhookId),
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

  async function attempt(deliveryId: string, webhookId: string): Promise<void> {
    const stream = webhookDeliveryStream(deliveryId);
    const { state } = await commands.load(webhookDeliveryDecider, stream);
    const now = clock.now();
    if (!attemptDue(state, now) || !state.created) return;
    const webhook = (await commands.load(webhookDecider, webhookStream(webhookId))).state;
    // Deleted: delivery stops at once (the WebhookDeleted handler cancels what is left).
    if (webhook.status !== 'active') return;
    const number = state.attempts + 1;
    const secret = signingSecretOf(webhook);
    // A secret that cannot be opened (the key changed) fails the attempt: a delivery is never sent unsigned when
    // the webhook has a secret. It is retried on the usual schedule, so restoring the key lets it through.
    const result: SendResult =
      secret instanceof UnreadableSecret
        ? { interrupted: false, http_status: null, error: secret.message, duration_ms: 0 }
        : await sendDelivery(
            {
              url: webhook.url,
              secret,
              body: state.created.body,
              event: state.created.event,
              eventId: state.created.event_id,
              deliveryId,
              attempt: number,
            },
            { allowPrivateTargets: ports.allowPrivateTargets, signal: shutdown.signal, workspaceId: state.created.workspace_id },
          );
    if (result.interrupted) return;
    if (result.refusalDetail) logger.debug({ delivery_id: deliveryId, webhook_id: webhookId, detail: result.refusalDetail }, 'webhook target refused');
    const recorded = await commands.handle(
      webhookDeliveryDecider,
      stream,
      {
        type: 'RecordWebhookDeliveryAttempt',
        data: {
          attempt: number,
          attempted_at: now.toISOString(),
          http_status: result.http_status,
          error: result.error,
          duration_ms: result.duration_ms,
          // The retry's delay counts from the end of the attempt (a slow receiver still gets the whole pause).
          ended_at: clock.now().toISOString(),
        },
      },
      { workspaceId: state.created.workspace_id, actor: ACTOR, now: clock.now() },
      // Recorded meanwhile (the same attempt ran twice: a replay and its retry), or the delivery was cancelled.
      { tolerate: ['already_exists', 'invalid_state'] },
    );
    if (wasRefused(recorded)) {
      logger.debug({ delivery_id: deliveryId, code: recorded.refused.code }, 'attempt not recorded (already recorded?)');
      return;
    }
    // A replay that failed while a retry had come due: the retry goes now (its timer fired during the replay).
    if (attemptDue(recorded.state, clock.now())) queue.enqueue(state.created.workspace_id, webhookId, deliveryId);
  }

  /** The plain signing secret (null: none), opening a sealed one; UnreadableSecret when it cannot be opened. */
  function signingSecretOf(webhook: WebhookState): string | null | UnreadableSecret {
    if (webhook.secret === null || !webhook.secretSealed) return webhook.secret;
    try {
      return ports.secrets.open(webhook.secret, webhook.webhookId);
    } catch (error) {
      if (!(error instanceof UnreadableSecret)) throw error;
      logger.error({ webhook_id: webhook.webhookId }, error.message);
      return error;
    }
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
