import type { z } from '@hono/zod-openapi';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import { webhookPlacesDecider, webhookPlacesStream } from '../../domain/webhook-places.ts';
import { ALL_WEBHOOK_EVENTS, MAX_WEBHOOKS_PER_WORKSPACE, webhookDecider, webhookStream, type WebhookState } from '../../domain/webhook.ts';
import { registerWebhookCommand } from '../../commands/register-webhook.ts';
import { deliveryCounts, findDelivery, lastDelivery, listDeliveries } from '../../projections/webhook-deliveries.ts';
import { liveWebhookIds, findWebhook, listWebhooks, type WebhookRow } from '../../projections/webhooks.ts';
import { principalOf } from '../context.ts';
import { checkOutboundTarget } from '../outbound-target-check.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import { PaginationQuery, idParams } from '../schemas/common.ts';
import {
  CreateWebhookBody,
  DeletedWebhookSchema,
  DeliveryListQuery,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  ReplayBody,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithDeliveriesSchema,
} from '../schemas/webhook.ts';
import type { SecretBox } from '../../infra/crypto/secret-box.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';

const TAG = 'Webhooks';
const WEBHOOK_ID_EXAMPLE = 'wh_01jd8k3m9q2x7c4v5b6n8p0r2t';
const json = <Schema>(schema: Schema) => ({ 'application/json': { schema } });

const createWebhook = defineRoute({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags: [TAG],
  summary: 'Register a webhook',
  description:
    `The URL must be https:// and resolve only to public addresses (checked now and at every delivery). ` +
    `At most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace (409 limit_exceeded). The secret is never returned.`,
  request: { body: { content: json(CreateWebhookBody), required: true } },
  responses: { 201: { description: 'The webhook.', content: json(WebhookSchema) } },
}, { conflicts: `limit_exceeded: the workspace already has ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks (\`details.limit\`).` });

const listWebhooksRoute = defineRoute({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags: [TAG],
  summary: 'List webhooks',
  description: 'Newest first, each with its last delivery and counts of failed and retrying deliveries.',
  request: { query: PaginationQuery },
  responses: { 200: { description: 'A page of webhooks.', content: json(WebhookListSchema) } },
});

const getWebhook = defineRoute({
  method: 'get',
  path: '/webhooks/{id}',
  operationId: 'getWebhook',
  tags: [TAG],
  summary: 'Get a webhook',
  description: 'The webhook with its last delivery and counts of failed and retrying deliveries.',
  request: { params: idParams(WEBHOOK_ID_EXAMPLE) },
  responses: { 200: { description: 'The webhook.', content: json(WebhookWithDeliveriesSchema) } },
});

const deleteWebhook = defineRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags: [TAG],
  summary: 'Delete a webhook permanently',
  description: 'Delivery stops at once and pending retries are cancelled; to restore it, register again.',
  request: { params: idParams(WEBHOOK_ID_EXAMPLE) },
  responses: { 200: { description: 'Deleted.', content: json(DeletedWebhookSchema) } },
});

const listDeliveriesRoute = defineRoute({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: [TAG],
  summary: 'The delivery log of a webhook',
  description: 'Newest first, each delivery with every attempt (time, HTTP status or error, duration).',
  request: { params: idParams(WEBHOOK_ID_EXAMPLE), query: PaginationQuery.extend(DeliveryListQuery.shape) },
  responses: { 200: { description: 'A page of deliveries.', content: json(DeliveryListSchema) } },
});

const replayDelivery = defineRoute({
  method: 'post',
  path: '/webhooks/{id}/deliveries/{delivery_id}/replay',
  operationId: 'replayWebhookDelivery',
  tags: [TAG],
  summary: 'Send a delivery again now',
  description:
    'A manual attempt with the same body, envelope id and signature, outside the retry schedule. Refused with ' +
    '409 invalid_state while an attempt of the delivery is pending.',
  request: { params: DeliveryParams, body: { content: json(ReplayBody), required: true } },
  responses: { 202: { description: 'The delivery, pending its replay.', content: json(DeliverySchema) } },
}, { conflicts: 'invalid_state: an attempt of the delivery is under way, or the delivery was cancelled (`details.status`).' });

function webhookDocument(row: WebhookRow): z.infer<typeof WebhookSchema> {
  return { id: row.webhook_id, url: row.url, events: row.events, status: 'active', created_at: row.created_at };
}

/** The https:// URL, resolved and checked against the outbound address policy. */
async function checkUrl(url: string, allowPrivateTargets: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParameter('url', url, 'an https:// URL');
  }
  if (parsed.protocol !== 'https:') throw invalidParameter('url', url, 'an https:// URL', 'Webhook URLs must use https://.');
  await checkOutboundTarget(url, { field: 'url', expected: 'an https:// URL', protocols: ['https:'], allowPrivateTargets });
}

function checkEvents(events: readonly string[]): void {
  if (events.includes(ALL_WEBHOOK_EVENTS) && events.length > 1) {
    throw invalidParameter('events', events, '["*"] alone, or a list of event names');
  }
  events.forEach((event, index) => {
    if (events.indexOf(event) !== index) throw invalidParameter(`events[${index}]`, event, 'each event name once');
  });
}

export function webhookRoutes({ commands, clock, readDb, readYourWrites, allowPrivateTargets, secrets }: ResourcePorts & { allowPrivateTargets: boolean; secrets: SecretBox }) {
  const router = createRouter();

  const withDeliveries = (row: WebhookRow): z.infer<typeof WebhookWithDeliveriesSchema> => {
    const counts = deliveryCounts(readDb, row.webhook_id);
    return {
      ...webhookDocument(row),
      last_delivery: lastDelivery(readDb, row.webhook_id),
      failed_deliveries: counts.failed,
      retrying_deliveries: counts.retrying,
    };
  };

  const liveWebhook = (workspaceId: string, id: string): WebhookRow => {
    const row = findWebhook(readDb, workspaceId, id);
    if (!row) throw resourceNotFound('webhook', id);
    return row;
  };

  router.openapi(createWebhook, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    checkEvents(body.events);
    await checkUrl(body.url, allowPrivateTargets);
    const now = clock.now();
    const webhookId = resourceId(c, 'wh', now);
    const webhook = await register(webhookId, body, workspaceId, keyId, now);
    return c.json({ id: webhookId, url: webhook.url, events: webhook.events, status: 'active' as const, created_at: webhook.createdAt }, 201);
  });

  async function register(webhookId: string, body: z.infer<typeof CreateWebhookBody>, workspaceId: string, keyId: string, now: Date): Promise<WebhookState> {
    // The place first (the per-workspace limit, exact on every node of a cluster: domain/webhook-places.ts), then
    // the webhook. A retried request takes the same place again, which changes nothing.
    await commands.handle(
      webhookPlacesDecider,
      webhookPlacesStream(workspaceId),
      { type: 'TakeWebhookPlace', facts: { live_webhooks: liveWebhookIds(readDb, workspaceId) }, data: { workspace_id: workspaceId, webhook_id: webhookId, at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    const result = await createOnce(
      commands,
      webhookDecider,
      webhookStream(webhookId),
      registerWebhookCommand(secrets, {
        webhook_id: webhookId,
        workspace_id: workspaceId,
        url: body.url,
        events: body.events,
        secret: body.secret ?? null,
        created_at: now.toISOString(),
      }),
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return result.state;
  }

  router.openapi(listWebhooksRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const page = c.req.valid('query');
    const { webhooks, total } = listWebhooks(readDb, workspaceId, page.limit, page.offset);
    return c.json(listBody(webhooks.map(withDeliveries), total, page), 200);
  });

  router.openapi(getWebhook, (c) => {
    const { workspaceId } = principalOf(c);
    return c.json(withDeliveries(liveWebhook(workspaceId, c.req.valid('param').id)), 200);
  });

  router.openapi(deleteWebhook, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    const now = clock.now();
    const result = await commands.handle(
      webhookDecider,
      webhookStream(id),
      { type: 'DeleteWebhook', data: { webhook_id: id, workspace_id: workspaceId, deleted_at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    // The webhook first, then its place: a process that dies between the two leaves a place the next registration
    // gives up (webhook-places.ts), never a live webhook without a place.
    const released = await commands.handle(
      webhookPlacesDecider,
      webhookPlacesStream(workspaceId),
      { type: 'ReleaseWebhookPlace', data: { workspace_id: workspaceId, webhook_id: id, at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(Math.max(result.position, released.position));
    return c.json({ id, deleted: true as const }, 200);
  });

  router.openapi(listDeliveriesRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const { status, ...page } = c.req.valid('query');
    liveWebhook(workspaceId, id);
    const { deliveries, total } = listDeliveries(readDb, id, status as Parameters<typeof listDeliveries>[2], page.limit, page.offset);
    return c.json(listBody(deliveries, total, page), 200);
  });

  router.openapi(replayDelivery, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id, delivery_id: deliveryId } = c.req.valid('param');
    liveWebhook(workspaceId, id);
    if (!findDelivery(readDb, id, deliveryId)) throw resourceNotFound('webhook_delivery', deliveryId);
    const now = clock.now();
    const result = await commands.handle(
      webhookDeliveryDecider,
      webhookDeliveryStream(deliveryId),
      { type: 'ReplayWebhookDelivery', data: { requested_at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json(findDelivery(readDb, id, deliveryId)!, 202);
  });

  return router;
}
