import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { campaignDecider, campaignProgress, contactView, nextPendingContacts, dueRetries, type CampaignEvent, type RecordContactAttemptOutcome } from '../../domain/campaign.ts';
import { fold } from '../../domain/shared/decider.ts';
import { deterministicId } from '../../domain/shared/deterministic-id.ts';
import { given } from './given-when-then.ts';
import { at, attemptStarted, callId, contacts, created, started } from './campaign-fixtures.ts';

// Contacts inside a campaign: attempt reservation, outcomes, retries, suppression, removal, progress counters.

const phones = contacts(3).map((contact) => contact.phone);

function outcome(contactIndex: number, attempt: number, result: RecordContactAttemptOutcome['data']['outcome'], disposition: RecordContactAttemptOutcome['data']['disposition'] = null, minute = 3): RecordContactAttemptOutcome {
  return { type: 'RecordContactAttemptOutcome', data: { contact_index: contactIndex, call_id: callId(contactIndex, attempt), outcome: result, disposition, ended_at: at(minute) } };
}

/** Events as the decider produces them for a sequence of commands (so histories stay honest). */
function play(history: CampaignEvent[], ...commands: Parameters<typeof campaignDecider.decide>[0][]): CampaignEvent[] {
  const events = [...history];
  for (const command of commands) events.push(...campaignDecider.decide(command, fold(campaignDecider, events)));
  return events;
}

function start(contactIndex: number, attempt: number, minute = 2) {
  return { type: 'StartContactAttempt' as const, data: { contact_index: contactIndex, attempt, call_id: callId(contactIndex, attempt), at: at(minute) } };
}

test('StartContactAttempt reserves the attempt with its deterministic call id', () => {
  const callIdFor = deterministicId('cal', 'cmp_test', 0, 1);
  given(campaignDecider, started())
    .when({ type: 'StartContactAttempt', data: { contact_index: 0, attempt: 1, call_id: callIdFor, at: at(2) } })
    .then([{ type: 'ContactAttemptStarted', data: { contact_index: 0, attempt: 1, call_id: callIdFor, started_at: at(2) } }]);
});

test('the same attempt again is refused as a duplicate (already_exists, no events), even after the outcome', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)]).when(start(0, 1)).thenThrows('already_exists', { call_id: callId(0, 1), attempt: 1 });
  const afterOutcome = play(started(), start(0, 1), outcome(0, 1, 'connected', 'interested'));
  given(campaignDecider, afterOutcome).when(start(0, 1)).thenThrows('already_exists');
  // A restarted dialer reserving a campaign that was paused meanwhile still learns it was done, not "paused".
  given(campaignDecider, [...afterOutcome, { type: 'CampaignPaused', data: { paused_at: at(4) } }]).when(start(0, 1)).thenThrows('already_exists');
});

test('attempts are refused when the campaign is not running, out of order, or the contact is busy or final', () => {
  given(campaignDecider, created()).when(start(0, 1)).thenThrows('invalid_state', { status: 'scheduled' });
  given(campaignDecider, [...started(), { type: 'CampaignPaused', data: { paused_at: at(1) } }]).when(start(0, 1)).thenThrows('invalid_state', { status: 'paused' });
  given(campaignDecider, started()).when(start(0, 2)).thenThrows('invalid_parameter', { field: 'attempt' });
  given(campaignDecider, started()).when(start(7, 1)).thenThrows('invalid_parameter', { field: 'contact_index' });
  given(campaignDecider, [...started(), attemptStarted(0, 1)]).when(start(0, 2)).thenThrows('invalid_state', { contact_status: 'dialing' });
  const final = play(started(), start(0, 1), outcome(0, 1, 'connected', 'callback'));
  given(campaignDecider, final).when(start(0, 2)).thenThrows('invalid_state', { contact_status: 'final' });
});

test('connected with a disposition: the contact is final; calls_made and calls_connected count', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)])
    .when(outcome(0, 1, 'connected', 'interested'))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 0, attempt: 1, call_id: callId(0, 1), outcome: 'connected', disposition: 'interested', ended_at: at(3) } },
      { type: 'ContactFinalized', data: { contact_index: 0, disposition: 'interested', reason: 'connected', at: at(3) } },
    ]);
  const state = fold(campaignDecider, play(started(), start(0, 1), outcome(0, 1, 'connected', 'interested')));
  assert.equal(campaignProgress(state), {
    total_contacts: 3,
    calls_made: 1,
    calls_connected: 1,
    disposition_summary: { interested: 1, not_interested: 0, callback: 0, not_reachable: 0, dnd: 0, escalated: 0 },
  });
});

test('connected without a disposition is invalid_parameter; a repeated outcome is already_exists', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)]).when(outcome(0, 1, 'connected', null)).thenThrows('invalid_parameter', { field: 'disposition' });
  given(campaignDecider, play(started(), start(0, 1), outcome(0, 1, 'busy'))).when(outcome(0, 1, 'busy')).thenThrows('already_exists');
  given(campaignDecider, [...started(), attemptStarted(0, 1)]).when({ ...outcome(0, 1, 'busy'), data: { ...outcome(0, 1, 'busy').data, call_id: 'cal_other' } }).thenThrows('invalid_parameter', { field: 'call_id' });
});

test('not reached with attempts left: ContactRetryScheduled due at ended_at + retry interval', () => {
  for (const result of ['no_answer', 'busy', 'carrier_error'] as const) {
    given(campaignDecider, [...started(), attemptStarted(1, 1)])
      .when(outcome(1, 1, result, null, 3))
      .then([
        { type: 'ContactAttemptEnded', data: { contact_index: 1, attempt: 1, call_id: callId(1, 1), outcome: result, disposition: 'not_reachable', ended_at: at(3) } },
        { type: 'ContactRetryScheduled', data: { contact_index: 1, attempt: 2, due_at: at(63) } },
      ]);
  }
});

test('a retry is not dialed before it is due; at due time it is', () => {
  const waiting = play(started(), start(1, 1), outcome(1, 1, 'no_answer', null, 3));
  given(campaignDecider, waiting).when(start(1, 2, 62)).thenThrows('invalid_state', { due_at: at(63) });
  given(campaignDecider, waiting).when(start(1, 2, 63)).then([attemptStarted(1, 2, 63)]);
  const state = fold(campaignDecider, waiting);
  assert.equal(dueRetries(state, new Date(at(62)), 10), []);
  assert.equal(dueRetries(state, new Date(at(63)), 10).map((contact) => [contact.contact_index, contact.attempt]), [[1, 2]]);
});

test('retries exhausted: the last not-reached attempt makes the contact final not_reachable', () => {
  const lastAttempt = play(started(), start(1, 1), outcome(1, 1, 'no_answer', null, 3), start(1, 2, 63));
  given(campaignDecider, lastAttempt)
    .when(outcome(1, 2, 'busy', null, 64))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 1, attempt: 2, call_id: callId(1, 2), outcome: 'busy', disposition: 'not_reachable', ended_at: at(64) } },
      { type: 'ContactFinalized', data: { contact_index: 1, disposition: 'not_reachable', reason: 'attempts_exhausted', at: at(64) } },
    ]);
});

test('an invalid number is final not_reachable at once, not retried', () => {
  given(campaignDecider, [...started(), attemptStarted(2, 1)])
    .when(outcome(2, 1, 'invalid_number'))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 2, attempt: 1, call_id: callId(2, 1), outcome: 'invalid_number', disposition: 'not_reachable', ended_at: at(3) } },
      { type: 'ContactFinalized', data: { contact_index: 2, disposition: 'not_reachable', reason: 'invalid_number', at: at(3) } },
    ]);
});

test('a call still in flight when the campaign stopped ends without a retry', () => {
  const history = [...started(), attemptStarted(0, 1), { type: 'CampaignStopped', data: { stopped_at: at(2) } } as CampaignEvent];
  given(campaignDecider, history)
    .when(outcome(0, 1, 'no_answer'))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 0, attempt: 1, call_id: callId(0, 1), outcome: 'no_answer', disposition: 'not_reachable', ended_at: at(3) } },
      { type: 'ContactFinalized', data: { contact_index: 0, disposition: 'not_reachable', reason: 'campaign_ended', at: at(3) } },
    ]);
});

test('a suppressed contact is final dnd without a call', () => {
  given(campaignDecider, started())
    .when({ type: 'SuppressContact', data: { contact_index: 1, at: at(2) } })
    .then([{ type: 'ContactFinalized', data: { contact_index: 1, disposition: 'dnd', reason: 'suppressed', at: at(2) } }]);
  const state = fold(campaignDecider, play(started(), { type: 'SuppressContact', data: { contact_index: 1, at: at(2) } }));
  assert.is(state.calls_made, 0);
  assert.is(state.disposition_summary.dnd, 1);
  given(campaignDecider, [...started(), attemptStarted(1, 1)]).when({ type: 'SuppressContact', data: { contact_index: 1, at: at(2) } }).thenThrows('invalid_state');
});

test('running → completed (all_contacts_final) when the last contact becomes final', () => {
  const history = play(
    started(),
    start(0, 1),
    outcome(0, 1, 'connected', 'interested'),
    { type: 'SuppressContact', data: { contact_index: 1, at: at(3) } },
    start(2, 1, 4),
  );
  given(campaignDecider, history)
    .when(outcome(2, 1, 'invalid_number', null, 5))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 2, attempt: 1, call_id: callId(2, 1), outcome: 'invalid_number', disposition: 'not_reachable', ended_at: at(5) } },
      { type: 'ContactFinalized', data: { contact_index: 2, disposition: 'not_reachable', reason: 'invalid_number', at: at(5) } },
      { type: 'CampaignCompleted', data: { completed_at: at(5), reason: 'all_contacts_final' } },
    ]);
});

test('a contact awaiting a retry keeps the campaign open', () => {
  const history = play(started(), start(0, 1), outcome(0, 1, 'connected', 'interested'), start(1, 1), outcome(1, 1, 'connected', 'dnd'), start(2, 1));
  const events = campaignDecider.decide(outcome(2, 1, 'no_answer'), fold(campaignDecider, history));
  assert.equal(events.map((event) => event.type), ['ContactAttemptEnded', 'ContactRetryScheduled']);
});

test('disposition_summary counts each contact’s final disposition once, calls_made every attempt', () => {
  const history = play(
    started(),
    start(0, 1),
    outcome(0, 1, 'no_answer', null, 3),
    start(0, 2, 63),
    outcome(0, 2, 'connected', 'callback', 64),
    start(1, 1, 64),
    outcome(1, 1, 'busy', null, 65),
    start(1, 2, 125),
    outcome(1, 2, 'no_answer', null, 126),
    start(2, 1, 126),
    outcome(2, 1, 'connected', 'escalated', 127),
  );
  const state = fold(campaignDecider, history);
  assert.equal(campaignProgress(state), {
    total_contacts: 3,
    calls_made: 5,
    calls_connected: 2,
    disposition_summary: { interested: 0, not_interested: 0, callback: 1, not_reachable: 1, dnd: 0, escalated: 1 },
  });
  assert.is(state.status, 'completed');
});

test('RemoveContacts counts removed (pending, awaiting retry), not_found and already_called', () => {
  const history = play(started(), start(0, 1), start(1, 1), outcome(1, 1, 'busy'));
  // contact 0 is on the line, contact 1 awaits a retry, contact 2 is pending
  given(campaignDecider, history)
    .when({ type: 'RemoveContacts', data: { phones: [phones[0]!, phones[1]!, phones[2]!, '+911111111111', phones[2]!], at: at(4) } })
    .then([{ type: 'ContactsRemoved', data: { contact_indexes: [1, 2], removed: 2, not_found: 1, already_called: 1, removed_at: at(4) } }]);
});

test('removed contacts stay counted in total_contacts, are not dialed, and a repeat reports the same counts', () => {
  const history = play(created(), { type: 'RemoveContacts', data: { phones: [phones[0]!], at: at(1) } });
  const state = fold(campaignDecider, history);
  assert.is(state.total_contacts, 3);
  assert.is(contactView(state, 0).status, 'removed');
  assert.equal(nextPendingContacts(state, 10).map((contact) => contact.contact_index), [1, 2]);
  given(campaignDecider, history)
    .when({ type: 'RemoveContacts', data: { phones: [phones[0]!], at: at(2) } })
    .then([{ type: 'ContactsRemoved', data: { contact_indexes: [], removed: 1, not_found: 0, already_called: 0, removed_at: at(2) } }]);
  given(campaignDecider, play(started(), start(0, 1))).when(start(0, 1)).thenThrows('already_exists');
});

test('removing the last open contacts completes a running campaign; removal after the end is invalid_state', () => {
  const history = play(started(), start(0, 1), outcome(0, 1, 'connected', 'interested'));
  given(campaignDecider, history)
    .when({ type: 'RemoveContacts', data: { phones: [phones[1]!, phones[2]!], at: at(4) } })
    .then([
      { type: 'ContactsRemoved', data: { contact_indexes: [1, 2], removed: 2, not_found: 0, already_called: 0, removed_at: at(4) } },
      { type: 'CampaignCompleted', data: { completed_at: at(4), reason: 'all_contacts_final' } },
    ]);
  given(campaignDecider, [...started(), { type: 'CampaignStopped', data: { stopped_at: at(2) } }])
    .when({ type: 'RemoveContacts', data: { phones: [phones[0]!], at: at(4) } })
    .thenThrows('invalid_state', { status: 'stopped' });
});

test('starting a campaign whose contacts were all removed completes it at once', () => {
  const history = play(created(), { type: 'RemoveContacts', data: { phones, at: at(0) } });
  given(campaignDecider, history)
    .when({ type: 'StartCampaign', data: { at: at(1), trigger: 'manual' } })
    .then([
      { type: 'CampaignStarted', data: { started_at: at(1), trigger: 'manual' } },
      { type: 'CampaignCompleted', data: { completed_at: at(1), reason: 'all_contacts_final' } },
    ]);
});

test('nextPendingContacts walks forward in index order and skips reservations in flight', () => {
  const state = fold(campaignDecider, play(started({ contacts: contacts(5) }), start(0, 1), start(1, 1)));
  assert.is(state.firstPendingHint, 2);
  assert.equal(nextPendingContacts(state, 2, new Set([2])).map((contact) => [contact.contact_index, contact.attempt]), [[3, 1], [4, 1]]);
  // The state keeps phones, not names or variables: the dialer reads those from the ContactsAdded events.
  assert.equal(contactView(state, 2), { index: 2, phone: contacts(5)[2]!.phone, status: 'pending', attempts: 0, retry_due_at: null, disposition: null });
});

test('a 100,000-contact campaign folds and takes an outcome quickly (in-place evolve)', () => {
  const begin = performance.now();
  const history = started({ contacts: contacts(100_000) });
  const state = fold(campaignDecider, history);
  const folded = performance.now();
  let current = state;
  for (let index = 0; index < 2_000; index++) {
    for (const command of [start(index, 1), outcome(index, 1, 'connected', 'interested')]) {
      for (const event of campaignDecider.decide(command, current)) current = campaignDecider.evolve(current, event);
    }
  }
  const elapsed = performance.now() - folded;
  console.log(`  fold of 100,000 contacts: ${(folded - begin).toFixed(0)} ms; 2,000 attempts with outcomes: ${elapsed.toFixed(0)} ms`);
  assert.is(current.calls_made, 2_000);
  assert.ok(elapsed < 1_000, `2,000 attempts took ${elapsed} ms`);
});

test('an attempt whose call was stopped as suppressed before dialing: the contact is final dnd (reason suppressed)', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)])
    .when(outcome(0, 1, 'suppressed'))
    .then([
      { type: 'ContactAttemptEnded', data: { contact_index: 0, attempt: 1, call_id: callId(0, 1), outcome: 'suppressed', disposition: 'dnd', ended_at: at(3) } },
      { type: 'ContactFinalized', data: { contact_index: 0, disposition: 'dnd', reason: 'suppressed', at: at(3) } },
    ]);
});

test.run();
