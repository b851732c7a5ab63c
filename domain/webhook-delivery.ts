import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * One delivery (stream `webhook_delivery-<id>`, id `dlv_...`): one event to one webhook, with every attempt.
 *
 *   pending ──2xx──▶ delivered
 *      │ failed (attempt k of 6 automatic ones, k ≤ 5)
 *      ▼
 *   retrying ──due (durable timer)──▶ attempt ──2xx──▶ delivered
 *      │                                 └─failed──▶ retrying (next delay), or after the 5th retry: failed (abandoned)
 *   pending / retrying ──webhook deleted──▶ cancelled
 *   delivered / failed / retrying ──replay──▶ pending (a manual attempt, outside the schedule)
 *
 * The body is fixed when the delivery is created: every attempt sends the same bytes with the same signature, and
 * the envelope id (`evt_...`) is the same on every retry and replay. Retries follow the spec: 1 min, 5 min, 30 min,
 * 2 h, 8 h, each counted from the previous attempt. A failed replay does not restart the schedule: the delivery goes
 * back to `retrying` if automatic retries were still pending, else to `failed`.
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 8 * 3_600_000] as const;

/** The first attempt plus five retries. */
export const MAX_AUTOMATIC_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'cancelled';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'retrying', 'delivered', 'failed', 'cancelled'];

export type AttemptKind = 'automatic' | 'replay';

/** The kind of durable timer that makes a retry due. */
export const WEBHOOK_RETRY_TIMER_KIND = 'webhook_delivery_retry';

/** The timer of the n-th retry (1..5) of a delivery: deterministic, so scheduling it twice changes nothing. */
export function retryTimerId(deliveryId: string, retry: number): string {
  return `${deliveryId}-retry-${retry}`;
}

/** What one attempt came to; `http_status` null when no response arrived (then `error` says why). */
export interface AttemptOutcome {
  attempt: number;
  attempted_at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
}

export function succeeded(outcome: Pick<AttemptOutcome, 'http_status' | 'error'>): boolean {
  return outcome.error === null && outcome.http_status !== null && outcome.http_status >= 200 && outcome.http_status < 300;
}

// ---------------------------------------------------------------------------------------------------- commands

export interface CreateWebhookDelivery {
  type: 'CreateWebhookDelivery';
  data: {
    delivery_id: string;
    webhook_id: string;
    workspace_id: string;
    /** The envelope id receivers deduplicate on. */
    event_id: string;
    event: string;
    /** The exact JSON text sent (and signed) on every attempt. */
    body: string;
    source_event_id: string;
    source_position: number;
    created_at: string;
  };
}
export interface RecordWebhookDeliveryAttempt {
  type: 'RecordWebhookDeliveryAttempt';
  /**
   * `ended_at`: when the attempt ended by the service clock (the sender reads the clock again after the response or
   * the deadline). The next retry's delay counts from it; absent, from `attempted_at`. Not recorded itself: the
   * failure's `next_attempt_at` carries what it decided.
   */
  data: AttemptOutcome & { ended_at?: string };
}
export interface ReplayWebhookDelivery {
  type: 'ReplayWebhookDelivery';
  data: { requested_at: string };
}
export interface CancelWebhookDelivery {
  type: 'CancelWebhookDelivery';
  data: { cancelled_at: string; reason: 'webhook_deleted' };
}

export type WebhookDeliveryCommand = CreateWebhookDelivery | RecordWebhookDeliveryAttempt | ReplayWebhookDelivery | CancelWebhookDelivery;

// ------------------------------------------------------------------------------------------------------ events

export type WebhookDeliveryCreated = DomainEvent<'WebhookDeliveryCreated', CreateWebhookDelivery['data']>;
export type WebhookDeliveryAttemptSucceeded = DomainEvent<
  'WebhookDeliveryAttemptSucceeded',
  AttemptOutcome & { kind: AttemptKind; status: 'delivered' }
>;
export type WebhookDeliveryAttemptFailed = DomainEvent<
  'WebhookDeliveryAttemptFailed',
  AttemptOutcome & {
    kind: AttemptKind;
    /** The delivery's status after this attempt. */
    status: 'retrying' | 'failed';
    /** When the next automatic retry is due (null: none left, or this was a replay outside the schedule). */
    next_attempt_at: string | null;
    /** The durable timer of that retry, when this attempt scheduled one. */
    retry_timer_id: string | null;
    retry: number | null;
  }
>;
/** The fifth retry failed too: no more automatic attempts (appended with that attempt). */
export type WebhookDeliveryAbandoned = DomainEvent<'WebhookDeliveryAbandoned', { abandoned_at: string; attempts: number }>;
export type WebhookDeliveryReplayRequested = DomainEvent<'WebhookDeliveryReplayRequested', { requested_at: string; attempt: number }>;
export type WebhookDeliveryCancelled = DomainEvent<
  'WebhookDeliveryCancelled',
  { cancelled_at: string; reason: 'webhook_deleted'; retry_timer_id: string | null }
>;

export type WebhookDeliveryEvent =
  | WebhookDeliveryCreated
  | WebhookDeliveryAttemptSucceeded
  | WebhookDeliveryAttemptFailed
  | WebhookDeliveryAbandoned
  | WebhookDeliveryReplayRequested
  | WebhookDeliveryCancelled;

export const WEBHOOK_DELIVERY_EVENT_TYPES: ReadonlyArray<WebhookDeliveryEvent['type']> = [
  'WebhookDeliveryCreated',
  'WebhookDeliveryAttemptSucceeded',
  'WebhookDeliveryAttemptFailed',
  'WebhookDeliveryAbandoned',
  'WebhookDeliveryReplayRequested',
  'WebhookDeliveryCancelled',
];

// ------------------------------------------------------------------------------------------------------- state

export interface WebhookDeliveryState {
  status: DeliveryStatus | 'none';
  created: CreateWebhookDelivery['data'] | null;
  /** Attempts made so far (automatic and replays). */
  attempts: number;
  automaticFailures: number;
  /** The kind of the attempt due while `pending`. */
  pendingKind: AttemptKind;
  /** The next automatic retry, while one is scheduled. */
  nextAttemptAt: string | null;
  retryTimerId: string | null;
}

const webhookDeliveryStreams = streamCategory('webhook_delivery');
export const webhookDeliveryStream = webhookDeliveryStreams.stream;
export const webhookDeliveryIdOf = webhookDeliveryStreams.idOf;

/** Whether an attempt should be made now: one is pending, or the scheduled retry is due. */
export function attemptDue(state: WebhookDeliveryState, now: Date): boolean {
  if (state.status === 'pending') return true;
  return state.status === 'retrying' && state.nextAttemptAt !== null && Date.parse(state.nextAttemptAt) <= now.getTime();
}

function initialState(): WebhookDeliveryState {
  return { status: 'none', created: null, attempts: 0, automaticFailures: 0, pendingKind: 'automatic', nextAttemptAt: null, retryTimerId: null };
}

function evolve(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryCreated':
      return { ...initialState(), status: 'pending', created: event.data };
    case 'WebhookDeliveryAttemptSucceeded':
      return { ...state, status: 'delivered', attempts: event.data.attempt, nextAttemptAt: null, retryTimerId: null };
    case 'WebhookDeliveryAttemptFailed':
      return {
        ...state,
        status: event.data.status,
        attempts: event.data.attempt,
        automaticFailures: state.automaticFailures + (event.data.kind === 'automatic' ? 1 : 0),
        // A failed replay leaves a scheduled retry where it was.
        nextAttemptAt: event.data.kind === 'automatic' ? event.data.next_attempt_at : state.nextAttemptAt,
        retryTimerId: event.data.kind === 'automatic' ? event.data.retry_timer_id : state.retryTimerId,
      };
    case 'WebhookDeliveryAbandoned':
      return { ...state, status: 'failed', nextAttemptAt: null, retryTimerId: null };
    case 'WebhookDeliveryReplayRequested':
      return { ...state, status: 'pending', pendingKind: 'replay' };
    case 'WebhookDeliveryCancelled':
      return { ...state, status: 'cancelled', nextAttemptAt: null, retryTimerId: null };
  }
}

function decide(command: WebhookDeliveryCommand, state: WebhookDeliveryState): WebhookDeliveryEvent[] {
  if (command.type === 'CreateWebhookDelivery') {
    if (state.status !== 'none') throw alreadyDone('The delivery already exists.', { id: command.data.delivery_id });
    return [{ type: 'WebhookDeliveryCreated', data: command.data }];
  }
  if (state.status === 'none') throw new DomainError('resource_not_found', 'No such delivery.', { resource_type: 'webhook_delivery' });
  switch (command.type) {
    case 'RecordWebhookDeliveryAttempt':
      return recordAttempt(command.data, state);
    case 'ReplayWebhookDelivery':
      if (state.status === 'pending') throw invalidState('An attempt of this delivery is already under way.', { status: state.status });
      if (state.status === 'cancelled') throw invalidState('The delivery was cancelled.', { status: state.status });
      return [{ type: 'WebhookDeliveryReplayRequested', data: { requested_at: command.data.requested_at, attempt: state.attempts + 1 } }];
    case 'CancelWebhookDelivery':
      // Finished deliveries stay as they are in the log; only work still to do is cancelled.
      if (state.status !== 'pending' && state.status !== 'retrying') return [];
      return [
        {
          type: 'WebhookDeliveryCancelled',
          data: { cancelled_at: command.data.cancelled_at, reason: command.data.reason, retry_timer_id: state.retryTimerId },
        },
      ];
  }
}

function recordAttempt({ ended_at: endedAt, ...outcome }: RecordWebhookDeliveryAttempt['data'], state: WebhookDeliveryState): WebhookDeliveryEvent[] {
  // The same attempt reported twice (a sender that restarted) is a duplicate, not a new attempt.
  if (outcome.attempt <= state.attempts) throw alreadyDone('That attempt was already recorded.', { attempt: outcome.attempt });
  if (outcome.attempt !== state.attempts + 1) {
    throw new DomainError('invalid_parameter', `The next attempt is number ${state.attempts + 1}.`, {
      field: 'attempt',
      provided: outcome.attempt,
      expected: state.attempts + 1,
    });
  }
  // The times decide when the next retry is due: one that is not an instant would schedule it at "Invalid Date".
  const attemptedAt = Date.parse(outcome.attempted_at);
  if (Number.isNaN(attemptedAt)) throw invalidTime('attempted_at', outcome.attempted_at);
  const retryDelayFrom = endedAt === undefined ? attemptedAt : Date.parse(endedAt);
  if (Number.isNaN(retryDelayFrom)) throw invalidTime('ended_at', endedAt);
  if (state.status === 'retrying') {
    if (attemptedAt < Date.parse(state.nextAttemptAt!)) {
      throw invalidState(`The next retry is not due before ${state.nextAttemptAt}.`, { status: state.status, next_attempt_at: state.nextAttemptAt });
    }
  } else if (state.status !== 'pending') {
    throw invalidState(`The delivery is ${state.status}: no attempt is due.`, { status: state.status });
  }
  const kind: AttemptKind = state.status === 'pending' ? state.pendingKind : 'automatic';
  if (succeeded(outcome)) return [{ type: 'WebhookDeliveryAttemptSucceeded', data: { ...outcome, kind, status: 'delivered' } }];

  if (kind === 'replay') {
    const status = state.nextAttemptAt !== null ? 'retrying' : 'failed';
    return [{ type: 'WebhookDeliveryAttemptFailed', data: { ...outcome, kind, status, next_attempt_at: null, retry_timer_id: null, retry: null } }];
  }
  const failures = state.automaticFailures + 1;
  if (failures < MAX_AUTOMATIC_ATTEMPTS) {
    const retry = failures;
    // The delay counts from the attempt's end: a receiver that held the attempt to its 10 s deadline still gets the
    // whole pause before the next one.
    const nextAttempt = new Date(retryDelayFrom + RETRY_DELAYS_MS[retry - 1]!);
    // At the far end of the calendar (year 275760) the delay leads past the last instant a Date can hold.
    if (Number.isNaN(nextAttempt.getTime())) throw invalidTime(endedAt === undefined ? 'attempted_at' : 'ended_at', endedAt ?? outcome.attempted_at);
    const nextAttemptAt = nextAttempt.toISOString();
    const timerId = retryTimerId(state.created!.delivery_id, retry);
    return [
      {
        type: 'WebhookDeliveryAttemptFailed',
        data: { ...outcome, kind, status: 'retrying', next_attempt_at: nextAttemptAt, retry_timer_id: timerId, retry },
      },
    ];
  }
  return [
    { type: 'WebhookDeliveryAttemptFailed', data: { ...outcome, kind, status: 'failed', next_attempt_at: null, retry_timer_id: null, retry: null } },
    { type: 'WebhookDeliveryAbandoned', data: { abandoned_at: outcome.attempted_at, attempts: outcome.attempt } },
  ];
}

function invalidTime(field: string, provided: unknown): DomainError {
  return new DomainError('invalid_parameter', `${field} is not an ISO 8601 instant.`, { field, provided, expected: 'an ISO 8601 date-time' });
}

export const webhookDeliveryDecider: Decider<WebhookDeliveryCommand, WebhookDeliveryEvent, WebhookDeliveryState> = {
  initialState,
  evolve,
  decide,
};
