import type { Commands } from '../../commands/handler.ts';
import { attemptDue, webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { ClaimedWork, WorkQueue } from '../../infra/work-queue/port.ts';
import type { WorkOutcome } from '../work-queue/queue-consumer.ts';
import type { DeliveryAttempt } from './delivery-attempt.ts';

/**
 * Webhook deliveries in a cluster (docs/operations.md, "Webhook deliveries"): the leader's dispatcher still decides
 * *when* an attempt may start (its DeliveryQueue: workspaces in turn, at most `perWorkspace` attempts under way per
 * workspace, `perWebhook` per webhook, `total` in all), but instead of sending it, it admits it to the `webhooks`
 * work queue and holds the slot until the item is finished on whichever node claimed it. Every node of role `all`
 * or `worker` consumes the queue and makes the attempt (delivery-attempt.ts). The limits hold across the nodes
 * because one process, the leader, counts every attempt in flight, and the count is the queue's own state.
 */
export const WEBHOOKS_QUEUE = 'webhooks';

/** Claims of one attempt's item before it is parked (a node dying mid-attempt, a store error): the delivery's own retry schedule decides the rest. */
export const WEBHOOK_ITEM_ATTEMPTS = 10;

/** One item per delivery and attempt number: a new leader admitting the same attempt again finds the item already there. */
export function deliveryWorkItemId(deliveryId: string, attempt: number): string {
  return `${deliveryId}-${attempt}`;
}

/** What an admission came to: `due_again` when the attempt was recorded and another is due at once (a failed replay with its retry due). */
export type Admission = { kind: 'done' } | { kind: 'due_again'; workspaceId: string };

/**
 * The leader's side: the attempt due now is enqueued (its number from the delivery's stream) and its slot held until
 * the item is acked or parked. Nothing due: nothing enqueued. A parked item frees its slot; its delivery stays due
 * until the operator requeues the item (`cli queue requeue`) or a replay is asked for.
 */
export function admitOnWorkQueue(ports: { commands: Commands; clock: Clock; workQueue: WorkQueue }) {
  const { commands, clock, workQueue } = ports;
  return async (deliveryId: string, webhookId: string, signal: AbortSignal): Promise<Admission> => {
    const stream = webhookDeliveryStream(deliveryId);
    const { state } = await commands.load(webhookDeliveryDecider, stream);
    if (!state.created || !attemptDue(state, clock.now())) return { kind: 'done' };
    const attempt = state.attempts + 1;
    const id = deliveryWorkItemId(deliveryId, attempt);
    const workspaceId = state.created.workspace_id;
    await workQueue.enqueue(WEBHOOKS_QUEUE, { id, payload: { delivery_id: deliveryId, webhook_id: webhookId, workspace_id: workspaceId, attempt }, maxAttempts: WEBHOOK_ITEM_ATTEMPTS });
    if ((await workQueue.waitUntilFinished(WEBHOOKS_QUEUE, id, signal)) !== 'acked') return { kind: 'done' };
    const after = (await commands.load(webhookDeliveryDecider, stream)).state;
    // Only when this attempt was recorded: an item acked without a record (nothing was due) must not loop.
    return after.attempts >= attempt && attemptDue(after, clock.now()) ? { kind: 'due_again', workspaceId } : { kind: 'done' };
  };
}

/**
 * A node's side, the handler of its `webhooks` queue consumer: makes the attempt and acks the item; an attempt cut
 * short by this node stopping goes back to the queue at once for another node (the same attempt number, envelope
 * id and signature).
 */
export function deliverWorkItem(attempt: DeliveryAttempt, stopping: AbortSignal) {
  return async (item: ClaimedWork): Promise<WorkOutcome> => {
    const { delivery_id: deliveryId, webhook_id: webhookId } = item.payload;
    if (typeof deliveryId !== 'string' || typeof webhookId !== 'string') return { kind: 'park', reason: 'the item names no delivery_id and webhook_id' };
    const result = await attempt(deliveryId, webhookId, stopping);
    return result.kind === 'interrupted' ? { kind: 'nack', reason: 'the node stopped during the attempt' } : { kind: 'ack' };
  };
}
