import { z } from '@hono/zod-openapi';
import { DELIVERY_STATUSES } from '../../domain/webhook-delivery.ts';
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_NAMES } from '../../domain/webhook.ts';
import { Timestamp, listEnvelope } from './common.ts';

/**
 * POST /v1/webhooks. Shapes only: that the URL is https and resolves to public addresses, and that `*` stands
 * alone, are checked by the route (400 with the same details).
 */
export const CreateWebhookBody = z
  .strictObject({
    // The route refuses any other scheme (400 on `url`); the pattern says so to clients.
    url: z.string().min(1).max(2_048).openapi({ description: 'An https:// URL on a public address.', format: 'uri', pattern: '^https://', example: 'https://crm.example.com/hooks/calls' }),
    events: z
      .array(z.enum([...WEBHOOK_EVENT_NAMES, ALL_WEBHOOK_EVENTS]))
      .min(1)
      .max(WEBHOOK_EVENT_NAMES.length)
      .openapi({ description: 'Event names, or `["*"]` for every event.', example: ['call.completed', 'campaign.completed'] }),
    secret: z.string().min(1).max(256).optional().openapi({ description: 'Signs every delivery (X-Service-Signature). Never returned.' }),
  })
  .openapi('WebhookInput');

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: 'wh_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    url: z.string(),
    events: z.array(z.string()),
    status: z.literal('active'),
    created_at: Timestamp,
  })
  .openapi('Webhook');

const DeliveryStatus = z.enum(DELIVERY_STATUSES as unknown as [string, ...string[]]);

export const LastDeliverySchema = z
  .object({
    event_id: z.string().openapi({ example: 'evt_4f3k2m9q2x7c4v5b6n8p0r2t1a' }),
    event: z.string(),
    status: DeliveryStatus,
    http_status: z.int().nullable().openapi({ description: 'Null when no response arrived.' }),
    attempted_at: Timestamp,
  })
  .openapi('LastDelivery');

export const WebhookWithDeliveriesSchema = WebhookSchema.extend({
  last_delivery: LastDeliverySchema.nullable().openapi({ description: 'The delivery attempted most recently; null before the first attempt.' }),
  failed_deliveries: z.int().openapi({ description: 'Deliveries that failed for good (retries exhausted, or a failed replay).' }),
  retrying_deliveries: z.int().openapi({ description: 'Deliveries waiting for an automatic retry.' }),
}).openapi('WebhookWithDeliveries');

export const WebhookListSchema = listEnvelope(WebhookWithDeliveriesSchema, 'WebhookList');

export const DeletedWebhookSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedWebhook');

export const DeliveryAttemptSchema = z
  .object({
    attempt: z.int().openapi({ description: 'From 1, over automatic attempts and replays.' }),
    kind: z.enum(['automatic', 'replay']),
    attempted_at: Timestamp,
    http_status: z.int().nullable(),
    error: z.string().nullable().openapi({ description: 'Why no response counted (timeout, connection refused, ...).', example: 'timeout: no response within 10 s' }),
    duration_ms: z.int(),
    succeeded: z.boolean(),
  })
  .openapi('WebhookDeliveryAttempt');

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'dlv_8c4v5b6n8p0r2t4f3k2m9q2x7c' }),
    event_id: z.string().openapi({ description: 'The envelope `id`: the same on every attempt.' }),
    event: z.string(),
    status: DeliveryStatus,
    created_at: Timestamp,
    next_attempt_at: Timestamp.nullable().openapi({ description: 'When the next automatic retry is due.' }),
    attempts: z.array(DeliveryAttemptSchema),
  })
  .openapi('WebhookDelivery');

export const DeliveryListSchema = listEnvelope(DeliverySchema, 'WebhookDeliveryList');

export const DeliveryListQuery = z.object({
  status: DeliveryStatus.optional().openapi({ description: 'Only deliveries in this status.' }),
});

export const DeliveryParams = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'wh_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  delivery_id: z.string().min(1).max(100).openapi({ param: { name: 'delivery_id', in: 'path' }, example: 'dlv_8c4v5b6n8p0r2t4f3k2m9q2x7c' }),
});

export const ReplayBody = z.strictObject({}).openapi('WebhookReplayInput');
