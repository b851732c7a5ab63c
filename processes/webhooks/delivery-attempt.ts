import { wasRefused, type Commands } from '../../commands/handler.ts';
import { attemptDue, webhookDeliveryDecider, webhookDeliveryStream, type WebhookDeliveryState } from '../../domain/webhook-delivery.ts';
import { webhookDecider, webhookStream, type WebhookState } from '../../domain/webhook.ts';
import type { Clock } from '../../infra/clock/port.ts';
import { UnreadableSecret, type SecretBox } from '../../infra/crypto/secret-box.ts';
import type { Logger } from '../../infra/logger.ts';
import { sendDelivery, type SendResult } from './sender.ts';

const ACTOR = 'webhook-dispatcher';

export interface DeliveryAttemptPorts {
  commands: Commands;
  clock: Clock;
  logger: Logger;
  /** Opens the sealed signing secrets. */
  secrets: SecretBox;
  /** ALLOW_PRIVATE_TARGETS: deliver to private addresses too (tests, on-premises receivers). */
  allowPrivateTargets: boolean;
}

/**
 * What one attempt came to: `not_due` (nothing to send: delivered, cancelled, its retry not yet due, the webhook
 * deleted, or another node recorded it first), `interrupted` (this process is stopping: nothing recorded, the
 * attempt is made again), or `recorded` with the delivery's state after it (a replay that failed while a retry
 * came due is due again at once).
 */
export type DeliveryAttemptResult = { kind: 'not_due' } | { kind: 'interrupted' } | { kind: 'recorded'; state: WebhookDeliveryState };

export type DeliveryAttempt = (deliveryId: string, webhookId: string, signal: AbortSignal) => Promise<DeliveryAttemptResult>;

/**
 * One delivery attempt, wherever it runs (the lone node's dispatcher, or any cluster node's consumer of the
 * `webhooks` queue): checks against the delivery's own stream that an attempt is due, sends it (SSRF rules in
 * sender.ts), and records the outcome on the stream. An attempt is recorded after the receiver answered; one under
 * way when the process died was not recorded and is sent again with the same attempt number, envelope id and
 * signature (at-least-once: the receiver may see that one attempt twice, and deduplicates on the envelope id).
 */
export function deliveryAttempt(ports: DeliveryAttemptPorts): DeliveryAttempt {
  const { commands, clock, logger } = ports;

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

  return async (deliveryId, webhookId, signal) => {
    const stream = webhookDeliveryStream(deliveryId);
    const { state } = await commands.load(webhookDeliveryDecider, stream);
    const now = clock.now();
    if (!attemptDue(state, now) || !state.created) return { kind: 'not_due' };
    const webhook = (await commands.load(webhookDecider, webhookStream(webhookId))).state;
    // Deleted: delivery stops at once (the WebhookDeleted handler cancels what is left).
    if (webhook.status !== 'active') return { kind: 'not_due' };
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
            { allowPrivateTargets: ports.allowPrivateTargets, signal, workspaceId: state.created.workspace_id },
          );
    if (result.interrupted) return { kind: 'interrupted' };
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
      // Recorded meanwhile (the same attempt ran twice: a replay and its retry, or two nodes), or the delivery was cancelled.
      { tolerate: ['already_exists', 'invalid_state'] },
    );
    if (wasRefused(recorded)) {
      logger.debug({ delivery_id: deliveryId, code: recorded.refused.code }, 'attempt not recorded (already recorded?)');
      return { kind: 'not_due' };
    }
    return { kind: 'recorded', state: recorded.state };
  };
}
