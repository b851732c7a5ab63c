import { suite } from 'uvu';
import { ABANDONED_PLACE_AFTER_MS, webhookPlacesDecider, type WebhookPlacesEvent } from '../../domain/webhook-places.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE } from '../../domain/webhook.ts';
import { given } from './given-when-then.ts';

const places = suite('webhook places decider');
const at = '2026-03-01T10:00:00.000Z';
const later = (ms: number) => new Date(new Date(at).getTime() + ms).toISOString();
const ids = (count: number, prefix = 'wh_') => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const taken = (id: string, takenAt = at): WebhookPlacesEvent => ({ type: 'WebhookPlaceTaken', data: { workspace_id: 'ws_1', webhook_id: id, taken_at: takenAt } });
const take = (id: string, live: readonly string[], when = at) => ({ type: 'TakeWebhookPlace' as const, facts: { live_webhooks: live }, data: { workspace_id: 'ws_1', webhook_id: id, at: when } });
const release = (id: string) => ({ type: 'ReleaseWebhookPlace' as const, data: { workspace_id: 'ws_1', webhook_id: id, at } });
const full = ids(MAX_WEBHOOKS_PER_WORKSPACE);

places(`given ${MAX_WEBHOOKS_PER_WORKSPACE - 1} places, when one more is taken, then WebhookPlaceTaken; given ${MAX_WEBHOOKS_PER_WORKSPACE}, then limit_exceeded`, () => {
  const nineteen = full.slice(1);
  given(webhookPlacesDecider, nineteen.map((id) => taken(id))).when(take('wh_new', nineteen)).then([taken('wh_new')]);
  given(webhookPlacesDecider, full.map((id) => taken(id))).when(take('wh_new', full)).thenThrows('limit_exceeded', { limit: MAX_WEBHOOKS_PER_WORKSPACE, resource_type: 'webhook' });
});

places('a place just taken counts although the registering node does not see its webhook yet (the other node of a race)', () => {
  // 19 live webhooks seen everywhere, and a 20th place taken a moment ago on another node: its webhook is not live here yet.
  const nineteen = full.slice(1);
  given(webhookPlacesDecider, [...nineteen.map((id) => taken(id)), taken('wh_other', later(1_000))])
    .when(take('wh_new', nineteen, later(2_000)))
    .thenThrows('limit_exceeded');
});

places('webhooks registered before places existed count through the live webhooks the node sees', () => {
  given(webhookPlacesDecider).when(take('wh_new', full)).thenThrows('limit_exceeded');
  given(webhookPlacesDecider).when(take('wh_new', full.slice(1))).then([taken('wh_new')]);
});

places('a place held by no live webhook for longer than the abandonment delay is given up by the next registration', () => {
  const live = full.slice(1); // wh_0's registration died after taking its place; its webhook never appeared
  const when = later(ABANDONED_PLACE_AFTER_MS + 1);
  given(webhookPlacesDecider, full.map((id) => taken(id)))
    .when(take('wh_new', live, when))
    .then([
      { type: 'WebhookPlaceReleased', data: { workspace_id: 'ws_1', webhook_id: 'wh_0', released_at: when, reason: 'abandoned' } },
      taken('wh_new', when),
    ]);
  // Not before the delay: it may be a registration still under way, or a node whose read model lags.
  given(webhookPlacesDecider, full.map((id) => taken(id))).when(take('wh_new', live, later(ABANDONED_PLACE_AFTER_MS - 1))).thenThrows('limit_exceeded');
});

places('taking the same place again (a retried request) changes nothing, even when full', () => {
  given(webhookPlacesDecider, full.map((id) => taken(id))).when(take('wh_3', full)).then([]);
});

places('a released place is free again; releasing one not held changes nothing', () => {
  const events = [...full.map((id) => taken(id)), { type: 'WebhookPlaceReleased', data: { workspace_id: 'ws_1', webhook_id: 'wh_5', released_at: at, reason: 'deleted' } } as WebhookPlacesEvent];
  const live = full.filter((id) => id !== 'wh_5');
  given(webhookPlacesDecider, events).when(take('wh_new', live)).then([taken('wh_new')]);
  given(webhookPlacesDecider, full.map((id) => taken(id))).when(release('wh_5')).then([
    { type: 'WebhookPlaceReleased', data: { workspace_id: 'ws_1', webhook_id: 'wh_5', released_at: at, reason: 'deleted' } },
  ]);
  given(webhookPlacesDecider, events).when(release('wh_5')).then([]);
});

places.run();
