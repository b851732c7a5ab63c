import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type RecordWebhookDeliveryAttempt,
  attemptDue,
  RETRY_DELAYS_MS,
  retryTimerId,
  webhookDeliveryDecider,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
} from '../../domain/webhook-delivery.ts';
import { fold } from '../../domain/shared/decider.ts';
import { given } from './given-when-then.ts';

const deliveries = suite('webhook delivery decider');
const t0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const createdData = {
  delivery_id: 'dlv_1',
  webhook_id: 'wh_1',
  workspace_id: 'ws_1',
  event_id: 'evt_1',
  event: 'call.completed',
  body: '{"event":"call.completed"}',
  source_event_id: 'e-1',
  source_position: 7,
  created_at: iso(t0),
};
const created: WebhookDeliveryEvent = { type: 'WebhookDeliveryCreated', data: createdData };

function attempt(number: number, atMs: number, httpStatus: number | null, error: string | null = null): WebhookDeliveryCommand {
  return { type: 'RecordWebhookDeliveryAttempt', data: { attempt: number, attempted_at: iso(atMs), http_status: httpStatus, error, duration_ms: 12 } };
}

function failed(number: number, atMs: number, retry: number | null, httpStatus: number | null = 500, error: string | null = null): WebhookDeliveryEvent {
  const next = retry === null ? null : iso(atMs + RETRY_DELAYS_MS[retry - 1]!);
  return {
    type: 'WebhookDeliveryAttemptFailed',
    data: {
      attempt: number,
      attempted_at: iso(atMs),
      http_status: httpStatus,
      error,
      duration_ms: 12,
      kind: 'automatic',
      status: retry === null ? 'failed' : 'retrying',
      next_attempt_at: next,
      retry_timer_id: retry === null ? null : retryTimerId('dlv_1', retry),
      retry,
    },
  };
}

deliveries('given nothing, when created, then WebhookDeliveryCreated (pending, due now); created again, then already_exists', () => {
  given(webhookDeliveryDecider).when({ type: 'CreateWebhookDelivery', data: createdData }).then([created]);
  given(webhookDeliveryDecider, [created]).when({ type: 'CreateWebhookDelivery', data: createdData }).thenThrows('already_exists');
  assert.ok(attemptDue(fold(webhookDeliveryDecider, [created]), new Date(t0)));
});

deliveries('given a pending delivery, when a 2xx arrives, then delivered', () => {
  given(webhookDeliveryDecider, [created])
    .when(attempt(1, t0, 204))
    .then([{ type: 'WebhookDeliveryAttemptSucceeded', data: { attempt: 1, attempted_at: iso(t0), http_status: 204, error: null, duration_ms: 12, kind: 'automatic', status: 'delivered' } }]);
});

deliveries('given a pending delivery, when the attempt fails (5xx, 3xx, 4xx, timeout), then a retry after 1 minute', () => {
  given(webhookDeliveryDecider, [created]).when(attempt(1, t0, 500)).then([failed(1, t0, 1)]);
  given(webhookDeliveryDecider, [created]).when(attempt(1, t0, 302)).then([failed(1, t0, 1, 302)]);
  given(webhookDeliveryDecider, [created]).when(attempt(1, t0, 404)).then([failed(1, t0, 1, 404)]);
  given(webhookDeliveryDecider, [created]).when(attempt(1, t0, null, 'timeout')).then([failed(1, t0, 1, null, 'timeout')]);
});

deliveries('the whole schedule: 1 min, 5 min, 30 min, 2 h, 8 h from each previous attempt, then abandoned after the fifth retry', () => {
  const history: WebhookDeliveryEvent[] = [created];
  let at = t0;
  for (let number = 1; number <= 5; number++) {
    const [event] = given(webhookDeliveryDecider, history).when(attempt(number, at, 503)).then([failed(number, at, number, 503)]);
    history.push(event!);
    const state = fold(webhookDeliveryDecider, history);
    const due = at + RETRY_DELAYS_MS[number - 1]!;
    assert.not.ok(attemptDue(state, new Date(due - 1)), `retry ${number} not due early`);
    assert.ok(attemptDue(state, new Date(due)));
    // An attempt before the due time is refused.
    given(webhookDeliveryDecider, history).when(attempt(number + 1, due - 1_000, 500)).thenThrows('invalid_state');
    at = due + 2_000; // the attempt happens a little after the timer (the next delay counts from it)
  }
  assert.equal(RETRY_DELAYS_MS, [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000]);
  given(webhookDeliveryDecider, history)
    .when(attempt(6, at, 500))
    .then([failed(6, at, null), { type: 'WebhookDeliveryAbandoned', data: { abandoned_at: iso(at), attempts: 6 } }]);
});

deliveries('the delay counts from the end of the attempt: an attempt that ran to its 10 s deadline is retried a minute after it ended', () => {
  const timedOut: RecordWebhookDeliveryAttempt = {
    type: 'RecordWebhookDeliveryAttempt',
    data: { attempt: 1, attempted_at: iso(t0), http_status: null, error: 'timeout', duration_ms: 10_000, ended_at: iso(t0 + 10_000) },
  };
  const [event] = webhookDeliveryDecider.decide(timedOut, fold(webhookDeliveryDecider, [created]));
  assert.is(event!.type === 'WebhookDeliveryAttemptFailed' && event.data.next_attempt_at, iso(t0 + 10_000 + 60_000));
  assert.not.ok('ended_at' in event!.data, 'the end is not recorded itself');
});

deliveries('given a retrying delivery, when the retry succeeds, then delivered', () => {
  given(webhookDeliveryDecider, [created, failed(1, t0, 1)])
    .when(attempt(2, t0 + 60_000, 200))
    .then([{ type: 'WebhookDeliveryAttemptSucceeded', data: { attempt: 2, attempted_at: iso(t0 + 60_000), http_status: 200, error: null, duration_ms: 12, kind: 'automatic', status: 'delivered' } }]);
});

deliveries('the same attempt recorded twice is already_exists; skipping a number is refused', () => {
  given(webhookDeliveryDecider, [created, failed(1, t0, 1)]).when(attempt(1, t0, 500)).thenThrows('already_exists');
  given(webhookDeliveryDecider, [created]).when(attempt(3, t0, 500)).thenThrows('invalid_parameter', { field: 'attempt', expected: 1 });
});

deliveries('given a pending or retrying delivery, when the webhook is deleted, then cancelled (with the timer to cancel)', () => {
  const cancel: WebhookDeliveryCommand = { type: 'CancelWebhookDelivery', data: { cancelled_at: iso(t0), reason: 'webhook_deleted' } };
  given(webhookDeliveryDecider, [created])
    .when(cancel)
    .then([{ type: 'WebhookDeliveryCancelled', data: { cancelled_at: iso(t0), reason: 'webhook_deleted', retry_timer_id: null } }]);
  given(webhookDeliveryDecider, [created, failed(1, t0, 1)])
    .when(cancel)
    .then([{ type: 'WebhookDeliveryCancelled', data: { cancelled_at: iso(t0), reason: 'webhook_deleted', retry_timer_id: retryTimerId('dlv_1', 1) } }]);
  const delivered: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryAttemptSucceeded',
    data: { attempt: 1, attempted_at: iso(t0), http_status: 200, error: null, duration_ms: 1, kind: 'automatic', status: 'delivered' },
  };
  given(webhookDeliveryDecider, [created, delivered]).when(cancel).thenNothing();
  const state = fold(webhookDeliveryDecider, [created, failed(1, t0, 1), { type: 'WebhookDeliveryCancelled', data: { cancelled_at: iso(t0), reason: 'webhook_deleted', retry_timer_id: null } }]);
  assert.not.ok(attemptDue(state, new Date(t0 + 3_600_000)), 'a cancelled delivery is never due');
  given(webhookDeliveryDecider, [created, failed(1, t0, 1), { type: 'WebhookDeliveryCancelled', data: { cancelled_at: iso(t0), reason: 'webhook_deleted', retry_timer_id: null } }])
    .when(attempt(2, t0 + 60_000, 200))
    .thenThrows('invalid_state');
});

deliveries('replay: of a failed delivery, a manual attempt; a failed replay leaves it failed, a successful one delivers it', () => {
  const abandoned: WebhookDeliveryEvent[] = [created];
  let at = t0;
  for (let number = 1; number <= 5; number++) {
    abandoned.push(failed(number, at, number));
    at += RETRY_DELAYS_MS[number - 1]!;
  }
  abandoned.push(failed(6, at, null), { type: 'WebhookDeliveryAbandoned', data: { abandoned_at: iso(at), attempts: 6 } });
  const requested: WebhookDeliveryEvent = { type: 'WebhookDeliveryReplayRequested', data: { requested_at: iso(at + 1), attempt: 7 } };
  given(webhookDeliveryDecider, abandoned).when({ type: 'ReplayWebhookDelivery', data: { requested_at: iso(at + 1) } }).then([requested]);
  const replaying = [...abandoned, requested];
  assert.ok(attemptDue(fold(webhookDeliveryDecider, replaying), new Date(at + 1)));
  given(webhookDeliveryDecider, replaying).when({ type: 'ReplayWebhookDelivery', data: { requested_at: iso(at + 2) } }).thenThrows('invalid_state', { status: 'pending' });
  given(webhookDeliveryDecider, replaying)
    .when(attempt(7, at + 1, 500))
    .then([
      {
        type: 'WebhookDeliveryAttemptFailed',
        data: { attempt: 7, attempted_at: iso(at + 1), http_status: 500, error: null, duration_ms: 12, kind: 'replay', status: 'failed', next_attempt_at: null, retry_timer_id: null, retry: null },
      },
    ]);
  given(webhookDeliveryDecider, replaying)
    .when(attempt(7, at + 1, 200))
    .then([{ type: 'WebhookDeliveryAttemptSucceeded', data: { attempt: 7, attempted_at: iso(at + 1), http_status: 200, error: null, duration_ms: 12, kind: 'replay', status: 'delivered' } }]);
});

deliveries('replay of a retrying delivery that fails keeps the scheduled retry', () => {
  const history: WebhookDeliveryEvent[] = [created, failed(1, t0, 1), { type: 'WebhookDeliveryReplayRequested', data: { requested_at: iso(t0 + 10_000), attempt: 2 } }];
  const [event] = given(webhookDeliveryDecider, history).when(attempt(2, t0 + 10_000, 500)).then([
    {
      type: 'WebhookDeliveryAttemptFailed',
      data: { attempt: 2, attempted_at: iso(t0 + 10_000), http_status: 500, error: null, duration_ms: 12, kind: 'replay', status: 'retrying', next_attempt_at: null, retry_timer_id: null, retry: null },
    },
  ]);
  const state = fold(webhookDeliveryDecider, [...history, event!]);
  assert.is(state.nextAttemptAt, iso(t0 + 60_000));
  assert.is(state.automaticFailures, 1);
  // The scheduled retry then goes as the 2nd automatic attempt (attempt number 3), with the 5-minute delay next.
  given(webhookDeliveryDecider, [...history, event!]).when(attempt(3, t0 + 60_000, 500)).then([
    {
      type: 'WebhookDeliveryAttemptFailed',
      data: {
        attempt: 3,
        attempted_at: iso(t0 + 60_000),
        http_status: 500,
        error: null,
        duration_ms: 12,
        kind: 'automatic',
        status: 'retrying',
        next_attempt_at: iso(t0 + 60_000 + 300_000),
        retry_timer_id: retryTimerId('dlv_1', 2),
        retry: 2,
      },
    },
  ]);
});

deliveries('a delivery that does not exist cannot be attempted, replayed or cancelled', () => {
  given(webhookDeliveryDecider).when(attempt(1, t0, 200)).thenThrows('resource_not_found');
  given(webhookDeliveryDecider).when({ type: 'ReplayWebhookDelivery', data: { requested_at: iso(t0) } }).thenThrows('resource_not_found');
});

deliveries('an attempt whose times are not instants is refused, not scheduled at "Invalid Date"', () => {
  const failedAttempt = attempt(1, t0, 500) as RecordWebhookDeliveryAttempt;
  given(webhookDeliveryDecider, [created])
    .when({ ...failedAttempt, data: { ...failedAttempt.data, ended_at: '' } })
    .thenThrows('invalid_parameter', { field: 'ended_at', provided: '' });
  given(webhookDeliveryDecider, [created])
    .when({ ...failedAttempt, data: { ...failedAttempt.data, attempted_at: 'not a date' } })
    .thenThrows('invalid_parameter', { field: 'attempted_at' });
});

deliveries.run();
