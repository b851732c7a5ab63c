/**
 * The headers of every webhook delivery besides `Content-Type: application/json`: sender.ts sets them, the OpenAPI
 * document declares them on each webhook (http/contract/webhooks.ts), from this one list.
 */
export const DELIVERY_HEADERS = {
  event: 'X-Service-Event',
  eventId: 'X-Service-Event-Id',
  delivery: 'X-Service-Delivery',
  attempt: 'X-Service-Delivery-Attempt',
  signature: 'X-Service-Signature',
} as const;

export type DeliveryHeaderName = (typeof DELIVERY_HEADERS)[keyof typeof DELIVERY_HEADERS];

export const DELIVERY_HEADER_DESCRIPTIONS: Record<DeliveryHeaderName, { description: string; required: boolean; pattern?: string; example: string }> = {
  'X-Service-Event': { description: 'The event name, as in the body\'s `event`.', required: true, example: 'call.completed' },
  'X-Service-Event-Id': { description: 'The body\'s `id`: the same on every attempt and for every webhook.', required: true, example: 'evt_4f3k2m9q2x7c4v5b6n8p0r2t1a' },
  'X-Service-Delivery': { description: 'This delivery (the event to this webhook), as in GET /v1/webhooks/{id}/deliveries.', required: true, example: 'dlv_8c4v5b6n8p0r2t4f3k2m9q2x7c' },
  'X-Service-Delivery-Attempt': { description: 'The attempt number, from 1, over automatic retries and replays.', required: true, pattern: '^[1-9][0-9]*$', example: '1' },
  'X-Service-Signature': {
    description:
      '`sha256=` and the hex HMAC-SHA256 of the raw body bytes keyed with the webhook\'s secret; present when it has one. ' +
      'Compare in constant time.',
    required: false,
    pattern: '^sha256=[0-9a-f]{64}$',
    example: 'sha256=5d41402abc4b2a76b9719d911017c592ae4f0c3bd8d0c0c8e4f6a4b4c3d2e1f0',
  },
};
