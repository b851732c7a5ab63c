import type { OpenAPIHono } from '@hono/zod-openapi';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../domain/webhook.ts';
import { RETRY_DELAYS_MS } from '../../domain/webhook-delivery.ts';
import { DELIVERY_HEADER_DESCRIPTIONS } from '../../processes/webhooks/delivery-headers.ts';
import { WEBHOOK_ENVELOPES, WEBHOOK_EVENT_DESCRIPTIONS } from '../../processes/webhooks/payload-schemas.ts';
import { DELIVERY_TIMEOUT_MS } from '../../processes/webhooks/sender.ts';

/** `call.disposition_set` → `CallDispositionSet`. */
function pascal(event: WebhookEventName): string {
  return event
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

const DELIVERY =
  `Sent as an HTTPS POST of the JSON envelope to every webhook subscribed to the event (or to \`*\`). Any 2xx within ` +
  `${DELIVERY_TIMEOUT_MS / 1000} s acknowledges it; anything else (another status, a redirect, no answer) fails the attempt, ` +
  `retried ${RETRY_DELAYS_MS.length} times (docs/webhooks.md). The same event can rarely arrive twice: deduplicate on \`id\`.`;

/**
 * The OpenAPI 3.1 `webhooks`: one entry per event the service emits, its body the envelope schema the sender's
 * payloads are typed by and tested against (processes/webhooks/payload-schemas.ts), its headers the ones the
 * sender sets (delivery-headers.ts), shared as `components/parameters`.
 */
export function registerWebhooks(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const [name, header] of Object.entries(DELIVERY_HEADER_DESCRIPTIONS)) {
    registry.registerComponent('parameters', name, {
      name,
      in: 'header',
      required: header.required,
      description: header.description,
      schema: { type: 'string', ...(header.pattern ? { pattern: header.pattern } : {}), example: header.example },
    });
  }
  for (const event of WEBHOOK_EVENT_NAMES) {
    registry.registerWebhook({
      method: 'post',
      path: event,
      operationId: `receive${pascal(event)}`,
      tags: ['Webhooks'],
      summary: event,
      description: `${WEBHOOK_EVENT_DESCRIPTIONS[event]} ${DELIVERY}`,
      // Deliveries carry no API key: a receiver checks X-Service-Signature.
      security: [],
      parameters: Object.keys(DELIVERY_HEADER_DESCRIPTIONS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
      request: { body: { required: true, content: { 'application/json': { schema: WEBHOOK_ENVELOPES[event] } } } },
      responses: {
        '2XX': { description: 'Received: the delivery succeeded (the body is ignored).' },
        '4XX': { description: 'Refused: the attempt failed and is retried on the schedule.' },
        '5XX': { description: 'Failed: the attempt is retried on the schedule.' },
      },
    });
  }
}
