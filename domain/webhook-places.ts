import type { Decider, DomainEvent } from './shared/decider.ts';
import { DomainError } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './webhook.ts';

/**
 * A workspace's webhook places (stream `webhookplaces-<workspace_id>`): the one place that decides whether the
 * workspace may register one more webhook. Each webhook is its own stream, so nothing in a webhook's stream can see
 * its siblings; a count from a read model is right on one node (registrations run one after the other there) but
 * two nodes of a cluster could both read 19 and both register the 20th. Taking a place appends to this one stream
 * with its expected revision, so of two registrations at once on any nodes, one sees the other's place.
 *
 * The route takes the place before it registers the webhook, and deletes the webhook before it releases the place.
 * A process that dies between the two leaves a place held by no live webhook; such a place is given up when the
 * next registration finds it older than ABANDONED_PLACE_AFTER_MS and its webhook not live in the registering node's
 * read model (`live_webhooks`, an outside fact). Webhooks registered before places existed hold no place: they count
 * through `live_webhooks` as well, so the limit holds for them from the first registration after the upgrade.
 */
export type WebhookPlacesEvent =
  | DomainEvent<'WebhookPlaceTaken', { workspace_id: string; webhook_id: string; taken_at: string }>
  | DomainEvent<'WebhookPlaceReleased', { workspace_id: string; webhook_id: string; released_at: string; reason: 'deleted' | 'abandoned' }>;

export type WebhookPlacesCommand =
  | {
      type: 'TakeWebhookPlace';
      /** The ids of the workspace's live (registered, not deleted) webhooks in the registering node's read model. */
      facts: { live_webhooks: readonly string[] };
      data: { workspace_id: string; webhook_id: string; at: string };
    }
  | { type: 'ReleaseWebhookPlace'; data: { workspace_id: string; webhook_id: string; at: string } };

export interface WebhookPlacesState {
  /** Webhook id → when its place was taken. */
  taken: ReadonlyMap<string, string>;
}

/**
 * How old a place held by no live webhook must be before a registration gives it up: longer than a registration
 * takes from its place to its webhook, and than a node's read model lags behind the store in normal running.
 */
export const ABANDONED_PLACE_AFTER_MS = 60_000;

const placesStreams = streamCategory('webhookplaces');
export const webhookPlacesStream = placesStreams.stream;

export const webhookPlacesDecider: Decider<WebhookPlacesCommand, WebhookPlacesEvent, WebhookPlacesState> = {
  initialState: () => ({ taken: new Map() }),

  evolve(state, event) {
    const taken = new Map(state.taken);
    if (event.type === 'WebhookPlaceTaken') taken.set(event.data.webhook_id, event.data.taken_at);
    else taken.delete(event.data.webhook_id);
    return { taken };
  },

  decide(command, state) {
    const { workspace_id, webhook_id, at } = command.data;
    if (command.type === 'ReleaseWebhookPlace') {
      if (!state.taken.has(webhook_id)) return [];
      return [{ type: 'WebhookPlaceReleased', data: { workspace_id, webhook_id, released_at: at, reason: 'deleted' } }];
    }
    // The same registration again (a retried request): its place is already taken.
    if (state.taken.has(webhook_id)) return [];
    const live = new Set(command.facts.live_webhooks);
    const giveUpBefore = new Date(at).getTime() - ABANDONED_PLACE_AFTER_MS;
    const abandoned = [...state.taken].filter(([id, takenAt]) => !live.has(id) && new Date(takenAt).getTime() < giveUpBefore).map(([id]) => id);
    const holders = new Set([...state.taken.keys(), ...live]);
    for (const id of abandoned) holders.delete(id);
    if (holders.size >= MAX_WEBHOOKS_PER_WORKSPACE) {
      throw new DomainError('limit_exceeded', `A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first.`, {
        resource_type: 'webhook',
        limit: MAX_WEBHOOKS_PER_WORKSPACE,
      });
    }
    return [
      ...abandoned.map((id): WebhookPlacesEvent => ({ type: 'WebhookPlaceReleased', data: { workspace_id, webhook_id: id, released_at: at, reason: 'abandoned' } })),
      { type: 'WebhookPlaceTaken', data: { workspace_id, webhook_id, taken_at: at } },
    ];
  },
};
