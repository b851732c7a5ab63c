import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { campaignDecider, contactViews, type BlockContactAttempt } from '../../../domain/campaign.ts';
import { fold } from '../../../domain/shared/decider.ts';
import { given } from '../given-when-then.ts';
import { at, attemptStarted, createCommand as campaignCreate, created, started } from '../campaign-fixtures.ts';

const rule = { rule_id: 'in-rbi-recovery.calling_window', check: 'calling_window', severity: 'critical' as const, rule_pack: { id: 'in-rbi-recovery', version: '1.0.0' }, reason: 'outside 08:00-19:00 in Asia/Kolkata' };
const block = (contactIndex: number, attempt: number, resumesAt: string | null): BlockContactAttempt => ({
  type: 'BlockContactAttempt',
  data: { contact_index: contactIndex, attempt, ...rule, resumes_at: resumesAt, blocked_at: at(5) },
});

test('a wait parks the contact until resumes_at, like a retry; its attempt is not spent', () => {
  const events = given(campaignDecider, started()).when(block(0, 1, at(600))).then([{ type: 'ContactAttemptBlocked', data: { contact_index: 0, attempt: 1, ...rule, resumes_at: at(600), blocked_at: at(5) } }]);
  const state = fold(campaignDecider, [...started(), ...events]);
  assert.equal(contactViews(state)[0]!.status, 'awaiting_retry');
  assert.is(state.contacts.attempts[0], 0);
  assert.is(state.retries.get(0), at(600));
  // Not before resumes_at: the reservation is refused.
  given(campaignDecider, [...started(), ...events]).when({ type: 'StartContactAttempt', data: { contact_index: 0, attempt: 1, call_id: 'x', at: at(10) } }).thenThrows('invalid_state');
});

test('a final block ends the contact dnd (reason compliance_blocked) and completes the campaign when it was the last', () => {
  const [createdEvent, contactsAdded] = created({ contacts: [{ phone: '+919876500001', name: 'A' }] });
  const history = [createdEvent!, contactsAdded!, { type: 'CampaignStarted' as const, data: { started_at: at(1), trigger: 'manual' as const } }];
  given(campaignDecider, history)
    .when(block(0, 1, null))
    .then([
      { type: 'ContactAttemptBlocked', data: { contact_index: 0, attempt: 1, ...rule, resumes_at: null, blocked_at: at(5) } },
      { type: 'ContactFinalized', data: { contact_index: 0, disposition: 'dnd', reason: 'compliance_blocked', at: at(5) } },
      { type: 'CampaignCompleted', data: { completed_at: at(5), reason: 'all_contacts_final' } },
    ]);
});

test('refused: a contact on the line, the wrong attempt, a campaign not running', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)]).when(block(0, 1, at(600))).thenThrows('invalid_state');
  given(campaignDecider, started()).when(block(0, 2, at(600))).thenThrows('invalid_parameter', { field: 'attempt' });
  given(campaignDecider, created()).when(block(0, 1, at(600))).thenThrows('invalid_state');
});

test('campaign purpose and reserved contact fields are validated', () => {
  given(campaignDecider).when({ ...campaignCreate(), data: { ...campaignCreate().data, purpose: 'sales' as never } }).thenThrows('invalid_parameter', { field: 'purpose', provided: 'sales' });
  const withContact = (extra: Record<string, unknown>) => ({ ...campaignCreate(), data: { ...campaignCreate().data, contacts: [{ phone: '+919876500001', name: 'A' }, { phone: '+919876500002', name: 'B', ...extra }] } });
  given(campaignDecider).when(withContact({ timezone: 'India/Delhi' })).thenThrows('invalid_parameter', { field: 'contacts[1].timezone', provided: 'India/Delhi' });
  given(campaignDecider).when(withContact({ consent: 'yes' })).thenThrows('invalid_parameter', { field: 'contacts[1].consent' });
  given(campaignDecider).when(withContact({ consent: { given_at: 'yesterday', purpose: 'promotional' } })).thenThrows('invalid_parameter', { field: 'contacts[1].consent.given_at' });
  given(campaignDecider).when(withContact({ consent: { given_at: '2026-01-01T00:00:00Z', purpose: 'marketing' } })).thenThrows('invalid_parameter', { field: 'contacts[1].consent.purpose' });
  given(campaignDecider).when(withContact({ consent: { given_at: '2026-01-01T00:00:00Z', purpose: 'promotional', channel: 'sms' } })).thenThrows('invalid_parameter', { field: 'contacts[1].consent.channel' });
  const [event] = campaignDecider.decide(withContact({ timezone: 'Asia/Dubai', consent: { given_at: '2026-01-01T00:00:00Z', purpose: 'promotional' } }), campaignDecider.initialState());
  assert.is(event!.type === 'CampaignCreated' && event.data.purpose, 'service');
});

test.run();
