import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { callDecider, type CallEvent, type CallPlacement, type CallTurn, type PlaceCall } from '../../domain/call.ts';
import { fold } from '../../domain/shared/decider.ts';
import { placeableFacts } from '../support/call-facts.ts';
import { given } from './given-when-then.ts';

const placedData: CallPlacement = {
  call_id: 'cal_1',
  workspace_id: 'ws_test',
  campaign_id: 'cmp_1',
  contact_index: 0,
  attempt: 1,
  contact: { phone: '+919876500003', name: 'Asha' },
  language: 'hi-IN',
  script_id: 'scr_1',
  script_version: 1,
  variables: { loan_amount: 5000 },
  recording_enabled: true,
  started_at: '2026-03-02T04:00:00.000Z',
};
const placed: CallEvent[] = [{ type: 'CallPlaced', data: placedData }];
const answered: CallEvent[] = [...placed, { type: 'CallAnswered', data: { answered_at: '2026-03-02T04:00:05.000Z' } }];
const turns: CallTurn[] = [
  { speaker: 'agent', text: 'Namaste Asha', start_seconds: 0.3, end_seconds: 1.8, step_id: 'greet' },
  { speaker: 'customer', text: 'haan ji', start_seconds: 2.4, end_seconds: 3.1, step_id: 'greet', intent: 'affirm' },
];
const ended: CallEvent[] = [
  ...answered,
  { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'interested', duration_seconds: 12, ended_at: '2026-03-02T04:00:17.000Z' } },
];

test('PlaceCall: in_progress; placing the same call id again is already_exists', () => {
  given(callDecider).when({ type: 'PlaceCall', facts: placeableFacts(), data: placedData }).then(placed);
  assert.is(fold(callDecider, placed).status, 'in_progress');
  given(callDecider, placed).when({ type: 'PlaceCall', facts: placeableFacts(), data: placedData }).thenThrows('already_exists');
});

test('answered, turns, end: completed with disposition and duration', () => {
  given(callDecider, placed).when({ type: 'RecordCallAnswered', data: { answered_at: '2026-03-02T04:00:05.000Z' } }).then(answered.slice(1));
  given(callDecider, answered).when({ type: 'RecordCallConversation', data: { turns } }).then([{ type: 'CallConversationRecorded', data: { turns } }]);
  given(callDecider, answered)
    .when({ type: 'EndCall', data: { disposition: 'interested', duration_seconds: 12, ended_at: '2026-03-02T04:00:17.000Z' } })
    .then(ended.slice(2));
  const state = fold(callDecider, ended);
  assert.equal([state.status, state.disposition, state.duration_seconds], ['completed', 'interested', 12]);
});

test('not answered: completed with not_reachable and duration 0; anything else is invalid_parameter', () => {
  given(callDecider, placed)
    .when({ type: 'EndCall', data: { disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:30.000Z' } })
    .then([{ type: 'CallEnded', data: { status: 'completed', answered: false, disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:30.000Z' } }]);
  given(callDecider, placed).when({ type: 'EndCall', data: { disposition: 'interested', duration_seconds: 0, ended_at: 'x' } }).thenThrows('invalid_parameter', { field: 'disposition' });
  given(callDecider, placed).when({ type: 'RecordCallConversation', data: { turns } }).thenThrows('invalid_state');
});

test('failed: the carrier could not place it; disposition not_reachable, duration 0', () => {
  given(callDecider, placed)
    .when({ type: 'FailCall', data: { reason: 'invalid_number', detail: 'number does not exist', ended_at: '2026-03-02T04:00:01.000Z' } })
    .then([
      {
        type: 'CallFailed',
        data: { status: 'failed', reason: 'invalid_number', detail: 'number does not exist', disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:01.000Z' },
      },
    ]);
});

test('escalation: CallEscalated then the call must end as escalated', () => {
  const escalation = { reason: 'customer_requested_agent' as const, escalated_at: '2026-03-02T04:00:09.000Z', summary: 'Agent offered a renewal; customer asked for a person.' };
  given(callDecider, answered)
    .when({ type: 'EscalateCall', data: escalation })
    .then([{ type: 'CallEscalated', data: { escalation_reason: 'customer_requested_agent', escalated_at: escalation.escalated_at, summary: escalation.summary, agent_id: null, unassigned_reason: null } }]);
  given(callDecider, answered)
    .when({ type: 'EscalateCall', data: { ...escalation, agent_id: 'agt_1' } })
    .then([{ type: 'CallEscalated', data: { escalation_reason: 'customer_requested_agent', escalated_at: escalation.escalated_at, summary: escalation.summary, agent_id: 'agt_1', unassigned_reason: null } }]);
  const escalatedHistory = [...answered, ...callDecider.decide({ type: 'EscalateCall', data: escalation }, fold(callDecider, answered))];
  given(callDecider, escalatedHistory).when({ type: 'EndCall', data: { disposition: 'interested', duration_seconds: 9, ended_at: 'x' } }).thenThrows('invalid_parameter');
  given(callDecider, placed).when({ type: 'EscalateCall', data: escalation }).thenThrows('invalid_state');
});

test('RecordCallResult: the whole conversation in one append', () => {
  const escalation = { reason: 'customer_requested_agent' as const, escalated_at: '2026-03-02T04:00:09.000Z', summary: 'asked for a person' };
  const events = given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: { answered_at: '2026-03-02T04:00:05.000Z', turns, escalation, disposition: 'escalated', duration_seconds: 6, ended_at: '2026-03-02T04:00:11.000Z' } })
    .then([
      { type: 'CallAnswered', data: { answered_at: '2026-03-02T04:00:05.000Z' } },
      { type: 'CallConversationRecorded', data: { turns } },
      { type: 'CallEscalated', data: { escalation_reason: 'customer_requested_agent', escalated_at: escalation.escalated_at, summary: 'asked for a person', agent_id: null, unassigned_reason: null } },
      { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'escalated', duration_seconds: 6, ended_at: '2026-03-02T04:00:11.000Z' } },
    ]);
  assert.is(fold(callDecider, [...placed, ...events]).turns, 2);
  given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: { answered_at: null, turns: [], escalation: null, disposition: 'not_reachable', duration_seconds: 0, ended_at: 'x' } })
    .then([{ type: 'CallEnded', data: { status: 'completed', answered: false, disposition: 'not_reachable', duration_seconds: 0, ended_at: 'x' } }]);
});

test('RecordCallResult with a warm transfer: CallTransferred after the escalation; answered ends escalated, unanswered ends callback', () => {
  const escalation = { reason: 'customer_requested_agent' as const, escalated_at: '2026-03-02T04:00:09.000Z', summary: 'asked for a person', agent_id: 'agt_1' };
  const base = { answered_at: '2026-03-02T04:00:05.000Z', turns, escalation, duration_seconds: 40, ended_at: '2026-03-02T04:00:45.000Z' };
  const answeredTransfer = { agent_id: 'agt_1', transferred_at: '2026-03-02T04:00:12.000Z', agent_answered_at: '2026-03-02T04:00:15.000Z' };
  const events = given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: { ...base, disposition: 'escalated', transfer: answeredTransfer } })
    .then([
      { type: 'CallAnswered', data: { answered_at: base.answered_at } },
      { type: 'CallConversationRecorded', data: { turns } },
      { type: 'CallEscalated', data: { escalation_reason: 'customer_requested_agent', escalated_at: escalation.escalated_at, summary: 'asked for a person', agent_id: 'agt_1', unassigned_reason: null } },
      { type: 'CallTransferred', data: answeredTransfer },
      { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'escalated', duration_seconds: 40, ended_at: base.ended_at } },
    ]);
  assert.equal(fold(callDecider, [...placed, ...events]).transfer, answeredTransfer);

  // Nobody picked up: the customer heard the fallback, and the call ends callback (escalated is refused, and so is callback for an answered transfer).
  const unanswered = { ...answeredTransfer, agent_answered_at: null };
  const missed = given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, disposition: 'callback', transfer: unanswered } }).then([
    ...events.slice(0, 3),
    { type: 'CallTransferred', data: unanswered },
    { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'callback', duration_seconds: 40, ended_at: base.ended_at } },
  ]);
  assert.is(missed.at(-1)!.type, 'CallEnded');
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, disposition: 'escalated', transfer: unanswered } }).thenThrows('invalid_parameter', { field: 'disposition', provided: 'escalated' });
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, disposition: 'callback', transfer: answeredTransfer } }).thenThrows('invalid_parameter', { field: 'disposition' });
});

test('a transfer follows an escalation, goes to its agent, once, with its times in order', () => {
  const escalation = { reason: 'customer_requested_agent' as const, escalated_at: '2026-03-02T04:00:09.000Z', summary: 'asked for a person', agent_id: 'agt_1' };
  const transfer = { agent_id: 'agt_1', transferred_at: '2026-03-02T04:00:12.000Z', agent_answered_at: '2026-03-02T04:00:15.000Z' };
  const base = { answered_at: '2026-03-02T04:00:05.000Z', turns, escalation, disposition: 'escalated' as const, duration_seconds: 40, ended_at: '2026-03-02T04:00:45.000Z' };
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, escalation: null, disposition: 'interested', transfer } }).thenThrows('invalid_state');
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, transfer: { ...transfer, agent_id: 'agt_2' } } }).thenThrows('invalid_parameter', { field: 'transfer.agent_id', provided: 'agt_2' });
  given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: { ...base, escalation: { ...escalation, agent_id: null, unassigned_reason: 'no_available_agent' as const }, transfer } })
    .thenThrows('invalid_parameter', { field: 'transfer.agent_id' });
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, transfer: { ...transfer, transferred_at: '2026-03-02T04:00:08.000Z' } } }).thenThrows('invalid_parameter', { field: 'transfer.transferred_at' });
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, transfer: { ...transfer, transferred_at: 'soon' } } }).thenThrows('invalid_parameter', { field: 'transfer.transferred_at' });
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, transfer: { ...transfer, agent_answered_at: '2026-03-02T04:00:11.000Z' } } }).thenThrows('invalid_parameter', { field: 'transfer.agent_answered_at' });
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...base, transfer: { ...transfer, agent_answered_at: '2026-03-02T04:01:00.000Z' } } }).thenThrows('invalid_parameter', { field: 'transfer.agent_answered_at' });

  // Escalated earlier (EscalateCall): the transfer goes to that escalation's agent; a second transfer is already done.
  const escalatedHistory: CallEvent[] = [...answered, ...callDecider.decide({ type: 'EscalateCall', data: escalation }, fold(callDecider, answered))];
  const rest = { answered_at: null, turns: [], escalation: null, disposition: 'escalated' as const, duration_seconds: 40, ended_at: '2026-03-02T04:00:45.000Z' };
  const events = given(callDecider, escalatedHistory).when({ type: 'RecordCallResult', data: { ...rest, transfer } }).then([
    { type: 'CallTransferred', data: transfer },
    { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'escalated', duration_seconds: 40, ended_at: rest.ended_at } },
  ]);
  given(callDecider, [...escalatedHistory, events[0]!]).when({ type: 'RecordCallResult', data: { ...rest, transfer } }).thenThrows('already_exists');
  // An unanswered transfer recorded before the end: EndCall must then say callback.
  const missed: CallEvent[] = [...escalatedHistory, { type: 'CallTransferred', data: { ...transfer, agent_answered_at: null } }];
  given(callDecider, missed).when({ type: 'EndCall', data: { disposition: 'escalated', duration_seconds: 40, ended_at: rest.ended_at } }).thenThrows('invalid_parameter', { field: 'disposition' });
  given(callDecider, missed)
    .when({ type: 'EndCall', data: { disposition: 'callback', duration_seconds: 40, ended_at: rest.ended_at } })
    .then([{ type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'callback', duration_seconds: 40, ended_at: rest.ended_at } }]);
});

test('RecordCallResult with answered_by: a machine ends not_reachable; the verdict needs an answer', () => {
  const machine = { answered_at: '2026-03-02T04:00:05.000Z', turns: [], escalation: null, disposition: 'not_reachable' as const, duration_seconds: 3, ended_at: '2026-03-02T04:00:08.000Z', answered_by: 'machine' as const };
  given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: machine })
    .then([
      { type: 'CallAnswered', data: { answered_at: machine.answered_at } },
      { type: 'CallEnded', data: { status: 'completed', answered: true, disposition: 'not_reachable', duration_seconds: 3, ended_at: machine.ended_at, answered_by: 'machine' } },
    ]);
  given(callDecider, placed).when({ type: 'RecordCallResult', data: { ...machine, disposition: 'interested' } }).thenThrows('invalid_parameter', { field: 'disposition' });
  given(callDecider, placed)
    .when({ type: 'RecordCallResult', data: { ...machine, answered_at: null, duration_seconds: 0, answered_by: 'human' } })
    .thenThrows('invalid_parameter', { field: 'answered_by' });
});

test('RecordCallDialingStarted: the runner claims the call once; a second claim is already_exists, even after the end', () => {
  const claimed: CallEvent[] = [...placed, { type: 'CallDialingStarted', data: { dialing_started_at: '2026-03-02T04:00:00.000Z' } }];
  given(callDecider, placed).when({ type: 'RecordCallDialingStarted', data: { at: '2026-03-02T04:00:00.000Z' } }).then(claimed.slice(1));
  assert.is(fold(callDecider, claimed).dialing_started_at, '2026-03-02T04:00:00.000Z');
  given(callDecider, claimed).when({ type: 'RecordCallDialingStarted', data: { at: 'y' } }).thenThrows('already_exists');
  const claimedAndEnded: CallEvent[] = [...claimed, ...ended.slice(1)];
  given(callDecider, claimedAndEnded).when({ type: 'RecordCallDialingStarted', data: { at: 'y' } }).thenThrows('already_exists');
  // A call that ended without a claim (e.g. failed by hand) cannot be claimed any more.
  given(callDecider, ended).when({ type: 'RecordCallDialingStarted', data: { at: 'y' } }).thenThrows('invalid_state');
  given(callDecider).when({ type: 'RecordCallDialingStarted', data: { at: 'y' } }).thenThrows('resource_not_found');
});

test('RecordCallResult with a recording: CallEnded and CallRecordingStored in the same append; started_at carried', () => {
  const recording = { blob_key: 'recordings/cal_1.wav', duration_seconds: 6.2, content_type: 'audio/wav' };
  given(callDecider, placed)
    .when({
      type: 'RecordCallResult',
      data: {
        answered_at: '2026-03-02T04:00:05.000Z',
        turns,
        escalation: null,
        disposition: 'interested',
        duration_seconds: 6,
        ended_at: '2026-03-02T04:00:11.000Z',
        started_at: '2026-03-02T04:00:02.000Z',
        recording,
      },
    })
    .then([
      { type: 'CallAnswered', data: { answered_at: '2026-03-02T04:00:05.000Z' } },
      { type: 'CallConversationRecorded', data: { turns } },
      {
        type: 'CallEnded',
        data: { status: 'completed', answered: true, disposition: 'interested', duration_seconds: 6, ended_at: '2026-03-02T04:00:11.000Z', started_at: '2026-03-02T04:00:02.000Z' },
      },
      { type: 'CallRecordingStored', data: recording },
    ]);
  const result = { answered_at: null, turns: [], escalation: null, disposition: 'not_reachable' as const, duration_seconds: 0, ended_at: 'x', recording };
  given(callDecider, placed).when({ type: 'RecordCallResult', data: result }).thenThrows('invalid_state');
  const unrecorded: CallEvent[] = [{ type: 'CallPlaced', data: { ...placedData, recording_enabled: false } }];
  given(callDecider, unrecorded)
    .when({ type: 'RecordCallResult', data: { ...result, answered_at: '2026-03-02T04:00:05.000Z', disposition: 'interested', duration_seconds: 3 } })
    .thenThrows('invalid_state');
  given(callDecider, placed)
    .when({ type: 'FailCall', data: { reason: 'interrupted', detail: 'restart', ended_at: 'y', started_at: 'x' } })
    .then([{ type: 'CallFailed', data: { status: 'failed', reason: 'interrupted', detail: 'restart', disposition: 'not_reachable', duration_seconds: 0, ended_at: 'y', started_at: 'x' } }]);
});

test('events after a final state are refused', () => {
  const failed: CallEvent[] = [...placed, { type: 'CallFailed', data: { status: 'failed', reason: 'carrier_error', detail: null, disposition: 'not_reachable', duration_seconds: 0, ended_at: 'x' } }];
  for (const history of [ended, failed]) {
    given(callDecider, history).when({ type: 'RecordCallAnswered', data: { answered_at: 'y' } }).thenThrows('invalid_state');
    given(callDecider, history).when({ type: 'EndCall', data: { disposition: 'interested', duration_seconds: 1, ended_at: 'y' } }).thenThrows('invalid_state');
    given(callDecider, history).when({ type: 'FailCall', data: { reason: 'carrier_error', ended_at: 'y' } }).thenThrows('invalid_state');
    given(callDecider, history).when({ type: 'RecordCallConversation', data: { turns } }).thenThrows('invalid_state');
  }
});

test('turns with times out of order are invalid_parameter', () => {
  given(callDecider, answered)
    .when({ type: 'RecordCallConversation', data: { turns: [{ speaker: 'agent', text: 'x', start_seconds: 3, end_seconds: 2 }] } })
    .thenThrows('invalid_parameter', { field: 'turns[0].end_seconds' });
});

test('recording and transcript job attach after the end, once', () => {
  const recording = { blob_key: 'recordings/cal_1.wav', duration_seconds: 12, content_type: 'audio/wav' };
  given(callDecider, ended).when({ type: 'StoreCallRecording', data: recording }).then([{ type: 'CallRecordingStored', data: recording }]);
  given(callDecider, answered).when({ type: 'StoreCallRecording', data: recording }).thenThrows('invalid_state');
  const noRecording: CallEvent[] = [{ type: 'CallPlaced', data: { ...placedData, recording_enabled: false } }, ...ended.slice(1)];
  given(callDecider, noRecording).when({ type: 'StoreCallRecording', data: recording }).thenThrows('invalid_state');
  const stored: CallEvent[] = [...ended, { type: 'CallRecordingStored', data: recording }];
  given(callDecider, stored).when({ type: 'StoreCallRecording', data: recording }).thenThrows('already_exists');
  given(callDecider, answered).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_1' } }).thenThrows('invalid_state');
  const unanswered: CallEvent[] = [
    ...placed,
    { type: 'CallEnded', data: { status: 'completed', answered: false, disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:30.000Z' } },
  ];
  given(callDecider, unanswered).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_1' } }).thenThrows('invalid_state');
  // The transcript comes from the live conversation: a call without a recording gets one too.
  given(callDecider, ended).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_1' } }).then([{ type: 'CallTranscriptJobAssigned', data: { job_id: 'job_1' } }]);
  given(callDecider, stored).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_1' } }).then([{ type: 'CallTranscriptJobAssigned', data: { job_id: 'job_1' } }]);
  const assigned: CallEvent[] = [...stored, { type: 'CallTranscriptJobAssigned', data: { job_id: 'job_1' } }];
  given(callDecider, assigned).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_1' } }).thenThrows('already_exists');
  given(callDecider, assigned).when({ type: 'AssignCallTranscriptJob', data: { job_id: 'job_2' } }).thenThrows('invalid_state');
});

test('commands on a call that was never placed: resource_not_found', () => {
  given(callDecider).when({ type: 'RecordCallAnswered', data: { answered_at: 'x' } }).thenThrows('resource_not_found');
});

const single: PlaceCall['data'] = { ...placedData, campaign_id: null, contact_index: null, attempt: null, variables: { amount: 5000 } };
const placeSingle = (data: Partial<PlaceCall['data']> = {}, facts = placeableFacts(['name', 'amount'])): PlaceCall => ({
  type: 'PlaceCall' as const,
  facts,
  data: { ...single, ...data },
});

test('PlaceCall of a single call: contact, language, variables, script found and enabled, then the do-not-call list', () => {
  given(callDecider).when(placeSingle()).then([{ type: 'CallPlaced', data: { ...single, language: 'hi-IN', variables: { amount: 5000, name: 'Asha', phone: '+919876500003' } } }]);
  given(callDecider).when(placeSingle({ contact: { phone: '98765', name: 'Asha' } })).thenThrows('invalid_parameter', { field: 'phone', provided: '98765' });
  given(callDecider).when(placeSingle({ contact: { phone: '+919876500003', name: ' ' } })).thenThrows('invalid_parameter', { field: 'name' });
  given(callDecider).when(placeSingle({ language: 'de-DE' })).thenThrows('invalid_parameter', { field: 'language', provided: 'de-DE' });
  const many = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`v${index}`, index]));
  given(callDecider).when(placeSingle({ variables: { ...many, amount: 1 } })).thenThrows('invalid_parameter', { field: 'metadata' });
  given(callDecider).when(placeSingle({}, { suppressed: false, script: null })).thenThrows('resource_not_found', { resource_type: 'script', id: 'scr_1' });
  const disabled = { suppressed: false, script: { version: 1, single_call_enabled: false, variables: [] } };
  given(callDecider).when(placeSingle({}, disabled)).thenThrows('invalid_parameter', { field: 'script_id', expected: 'a script with single_call_enabled: true' });
  given(callDecider).when(placeSingle({ variables: {} })).thenThrows('invalid_parameter', { field: 'metadata.amount', provided: null });
  given(callDecider).when(placeSingle({}, placeableFacts(['toString']))).thenThrows('invalid_parameter', { field: 'metadata.toString' });
  given(callDecider).when(placeSingle({}, { ...placeableFacts(['amount']), suppressed: true })).thenThrows('number_suppressed', { phone: '+919876500003' });
});

test('PlaceCall of a campaign call: the campaign checked its contact and script; a suppressed number is still refused', () => {
  given(callDecider).when({ type: 'PlaceCall', facts: { suppressed: false, script: null }, data: placedData }).then(placed);
  given(callDecider).when({ type: 'PlaceCall', facts: { suppressed: true, script: null }, data: placedData }).thenThrows('number_suppressed');
});

test('RecordCallDialingStarted with the number suppressed since placement: the call fails undialed, number_suppressed', () => {
  given(callDecider, placed)
    .when({ type: 'RecordCallDialingStarted', facts: { suppressed: true }, data: { at: '2026-03-02T04:00:01.000Z' } })
    .then([
      {
        type: 'CallFailed',
        data: { status: 'failed', reason: 'number_suppressed', detail: 'the number went on the do-not-call list before it was dialed', disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:01.000Z' },
      },
    ]);
});

test('HoldCallResult: an ending that would be refused when due is refused when held (a NaN duration never reaches the store)', () => {
  const dialing: CallEvent[] = [...placed, { type: 'CallDialingStarted', data: { dialing_started_at: '2026-03-02T04:00:00.000Z' } }];
  const ending = { answered_at: null, turns: [], escalation: null, disposition: 'not_reachable' as const, duration_seconds: Number.NaN, ended_at: '2026-03-02T04:00:30.000Z' };
  given(callDecider, dialing)
    .when({ type: 'HoldCallResult', data: { command: { type: 'RecordCallResult', data: ending }, due_at: '2026-03-02T04:00:30.000Z' } })
    .thenThrows('invalid_parameter', { field: 'disposition' });
  given(callDecider, dialing)
    .when({ type: 'HoldCallResult', data: { command: { type: 'RecordCallResult', data: { ...ending, duration_seconds: 0 } }, due_at: '2026-03-02T04:00:30.000Z' } })
    .then([{ type: 'CallResultHeld', data: { command: { type: 'RecordCallResult', data: { ...ending, duration_seconds: 0 } }, due_at: '2026-03-02T04:00:30.000Z' } }]);
});

test.run();
