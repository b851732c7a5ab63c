import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attemptCallId, campaignDecider, type CampaignCommand, type CampaignEvent, type CampaignState } from '../../../domain/campaign.ts';
import { fold } from '../../../domain/shared/decider.ts';
import { chooseNextDial, placeCampaignCallCommand, reserveAttemptCommand, suppressContactCommand } from '../../../processes/calling/dialing-choice.ts';
import { at, callId, created, started } from '../../domain/campaign-fixtures.ts';

// The dialer's choices, given a campaign's events, the retries whose timers fired and the time.

function given(history: CampaignEvent[], ...commands: CampaignCommand[]): CampaignState {
  const events = [...history];
  for (const command of commands) events.push(...campaignDecider.decide(command, fold(campaignDecider, events)));
  return fold(campaignDecider, events);
}
const noRetries = { dueRetries: new Map<number, number>(), closedUntil: null };
const attempt = (contactIndex: number, number: number, minute: number): CampaignCommand => ({
  type: 'StartContactAttempt',
  data: { contact_index: contactIndex, attempt: number, call_id: callId(contactIndex, number), at: at(minute) },
});
const notAnswered = (contactIndex: number, number: number, minute: number): CampaignCommand => ({
  type: 'RecordContactAttemptOutcome',
  data: { contact_index: contactIndex, call_id: callId(contactIndex, number), outcome: 'no_answer', ended_at: at(minute) },
});

test('given a running campaign, when nothing was dialed, then the first contact, attempt 1, under its derived call id', () => {
  const state = given(started());
  const { choice, spentRetries } = chooseNextDial(state, noRetries, new Date(at(2)));
  assert.equal(spentRetries, []);
  assert.equal(choice, { kind: 'dial', attempt: { contact_index: 0, attempt: 1 }, callId: attemptCallId('cmp_test', 0, 1) });
});

test('given a scheduled or paused campaign, then stop (nothing is placed)', () => {
  assert.equal(chooseNextDial(given(created()), noRetries, new Date(at(2))).choice, { kind: 'stop' });
  const paused = given(started(), { type: 'PauseCampaign', data: { at: at(2) } });
  assert.equal(chooseNextDial(paused, noRetries, new Date(at(3))).choice, { kind: 'stop' });
});

test('given calling hours 09:00-21:00 in Asia/Kolkata, when it is 22:00 there, then closed until 09:00 the next morning', () => {
  const state = given(started({ schedule: { start_time: '2026-03-02T09:30:00', timezone: 'Asia/Kolkata' }, calling_hours: { start: '09:00', end: '21:00' } }));
  const tenPmIst = new Date('2026-03-02T16:30:00.000Z');
  assert.equal(chooseNextDial(state, noRetries, tenPmIst).choice, { kind: 'closed', opensAt: new Date('2026-03-03T03:30:00.000Z') });
  const noonIst = new Date('2026-03-03T06:30:00.000Z');
  assert.is(chooseNextDial(state, noRetries, noonIst).choice.kind, 'dial');
});

test('given a retry whose timer fired and is due, then that contact first, at its next attempt; the retry is spent', () => {
  const state = given(started(), attempt(0, 1, 2), notAnswered(0, 1, 3));
  const dueAt = Date.parse(state.retries.get(0)!);
  const { choice, spentRetries } = chooseNextDial(state, { dueRetries: new Map([[0, 2]]), closedUntil: null }, new Date(dueAt));
  assert.equal(spentRetries, [0]);
  assert.equal(choice, { kind: 'dial', attempt: { contact_index: 0, attempt: 2 }, callId: attemptCallId('cmp_test', 0, 2) });
});

test('given retries that are stale (the contact moved on) or not yet due, then they are spent and the next pending contact is dialed', () => {
  const state = given(started(), attempt(0, 1, 2), notAnswered(0, 1, 3), attempt(1, 1, 3));
  const dueAt = Date.parse(state.retries.get(0)!);
  const early = chooseNextDial(state, { dueRetries: new Map([[0, 2], [1, 2]]), closedUntil: null }, new Date(dueAt - 1));
  assert.equal(early.spentRetries, [0, 1]);
  assert.equal(early.choice.kind === 'dial' && early.choice.attempt.contact_index, 2);
});

test('given every contact on a call or final, then idle', () => {
  const state = given(started(), attempt(0, 1, 2), attempt(1, 1, 2), attempt(2, 1, 2));
  assert.equal(chooseNextDial(state, noRetries, new Date(at(3))).choice, { kind: 'idle' });
});

test('the commands of a dial: reserve the attempt, then place the call with the campaign\'s settings and the contact\'s variables', () => {
  const state = given(started());
  const contact = { contact_index: 1, attempt: 1, phone: '+919876500001', name: 'Customer 1', variables: { loan_amount: 2000 } };
  const now = new Date(at(5));
  assert.equal(reserveAttemptCommand(contact, 'cal_x', now), { type: 'StartContactAttempt', data: { contact_index: 1, attempt: 1, call_id: 'cal_x', at: at(5) } });
  assert.equal(suppressContactCommand(contact, now), { type: 'SuppressContact', data: { contact_index: 1, at: at(5) } });
  const placed = placeCampaignCallCommand(state, contact, 'cal_x', now, false);
  assert.equal(placed.facts, { suppressed: false, script: null });
  assert.equal(placed.data, {
    call_id: 'cal_x',
    workspace_id: 'ws_test',
    campaign_id: 'cmp_test',
    contact_index: 1,
    attempt: 1,
    contact: { phone: contact.phone, name: 'Customer 1' },
    language: 'hi-IN',
    script_id: 'scr_test',
    script_version: 3,
    variables: { loan_amount: 2000, name: 'Customer 1', phone: contact.phone },
    recording_enabled: true,
    qa_scorecard_id: null,
    purpose: 'service',
    caller_id: null,
    voicemail: 'hang_up',
    started_at: at(5),
  });
});

test.run();
