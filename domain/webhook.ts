import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, notFound } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A webhook (stream `webhook-<id>`, id `wh_...`): where a workspace wants its events delivered. Registered once,
 * deleted permanently (to restore one, register again: a new id). The signing secret is kept in the event because
 * the sender needs it to sign every delivery, sealed (infra/secret-box.ts: `secret_sealed: true`) under a key that
 * is not in the event store; registrations recorded before sealing existed carry it in plain text (no
 * `secret_sealed`) and are still honoured. It is never part of a response or a log line.
 */

/** The events a webhook can subscribe to (SPEC "Events", plus `transcription.failed` and `compliance.violation`). */
export const WEBHOOK_EVENT_NAMES = [
  'call.completed',
  'call.disposition_set',
  'call.escalated',
  'campaign.started',
  'campaign.paused',
  'campaign.completed',
  'transcription.completed',
  'transcription.failed',
  'compliance.violation',
  'report.completed',
  'report.failed',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/** `["*"]` subscribes to every event, including ones added later. */
export const ALL_WEBHOOK_EVENTS = '*';

/** Registered webhooks per workspace (the spec leaves the limit open); kept by webhook-places.ts. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;

export function isWebhookEventName(value: string): value is WebhookEventName {
  return (WEBHOOK_EVENT_NAMES as readonly string[]).includes(value);
}

/** Whether a subscription (`events` as registered) covers `event`. */
export function subscribesTo(events: readonly string[], event: string): boolean {
  return events.includes(ALL_WEBHOOK_EVENTS) || events.includes(event);
}

// ---------------------------------------------------------------------------------------------------- commands

export interface RegisterWebhook {
  type: 'RegisterWebhook';
  data: {
    webhook_id: string;
    workspace_id: string;
    url: string;
    events: string[];
    /** Sealed with the webhook id as owner (SecretBox), or null without a secret. */
    secret: string | null;
    secret_sealed: true;
    created_at: string;
  };
}

export interface DeleteWebhook {
  type: 'DeleteWebhook';
  data: { webhook_id: string; workspace_id: string; deleted_at: string };
}

export type WebhookCommand = RegisterWebhook | DeleteWebhook;

// ------------------------------------------------------------------------------------------------------ events

export type WebhookRegistered = DomainEvent<
  'WebhookRegistered',
  {
    webhook_id: string;
    workspace_id: string;
    url: string;
    events: string[];
    secret: string | null;
    /** False in registrations recorded before secrets were sealed (upcast from an absent flag): `secret` is then plain text. */
    secret_sealed: boolean;
    created_at: string;
  }
>;
export type WebhookDeleted = DomainEvent<'WebhookDeleted', { webhook_id: string; deleted_at: string }>;

export type WebhookEvent = WebhookRegistered | WebhookDeleted;

// ------------------------------------------------------------------------------------------------------- state

export interface WebhookState {
  status: 'none' | 'active' | 'deleted';
  webhookId: string;
  workspaceId: string;
  url: string;
  events: string[];
  /** As recorded: sealed when `secretSealed`, plain text in registrations from before sealing. */
  secret: string | null;
  secretSealed: boolean;
  createdAt: string;
}

const webhookStreams = streamCategory('webhook');
export const webhookStream = webhookStreams.stream;
export const webhookIdOf = webhookStreams.idOf;

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: () => ({ status: 'none', webhookId: '', workspaceId: '', url: '', events: [], secret: null, secretSealed: false, createdAt: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookRegistered':
        return {
          status: 'active',
          webhookId: event.data.webhook_id,
          workspaceId: event.data.workspace_id,
          url: event.data.url,
          events: event.data.events,
          secret: event.data.secret,
          secretSealed: event.data.secret_sealed,
          createdAt: event.data.created_at,
        };
      case 'WebhookDeleted':
        // Nothing of a deleted webhook is needed again: forget the secret in memory too.
        return { ...state, status: 'deleted', secret: null };
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterWebhook': {
        if (state.status !== 'none') throw alreadyDone('The webhook already exists.', { id: command.data.webhook_id });
        // The per-workspace limit is the workspace's webhook places' to keep (webhook-places.ts): across nodes too.
        const { data } = command;
        return [{ type: 'WebhookRegistered', data }];
      }
      case 'DeleteWebhook':
        // Another workspace's webhook, one never registered and one already deleted all look the same.
        if (state.status !== 'active' || state.workspaceId !== command.data.workspace_id) throw notFound('webhook', command.data.webhook_id);
        return [{ type: 'WebhookDeleted', data: { webhook_id: state.webhookId, deleted_at: command.data.deleted_at } }];
    }
  },
};
