import * as fc from 'fast-check';
import { suite } from 'uvu';
import { attemptCallId, campaignDecider, CONTACT_STATUSES, statusAt, type CampaignCommand, type CampaignState, type ContactInput } from '../../../domain/campaign.ts';
import { DISPOSITIONS } from '../../../domain/shared/disposition.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, disposition, language, name, phone, PHONES, plausibleTime, time, variables, nullable } from './domain-values.ts';

const properties = suite('campaign decider: properties');

const CAMPAIGN = 'cmp_1';
const contact: fc.Arbitrary<ContactInput> = fc.tuple(fc.record({ phone, name }), variables).map(([known, custom]) => ({ ...custom, ...known }));
const create: fc.Arbitrary<CampaignCommand> = fc.record({
  type: fc.constant('CreateCampaign' as const),
  facts: fc.record({
    script: fc.oneof({ weight: 8, arbitrary: fc.record({ version: fc.constant(1), variables: fc.array(fc.constantFrom('name', 'amount'), { maxLength: 1 }) }) }, { weight: 1, arbitrary: fc.constant(null) }),
    scorecard_found: fc.boolean(),
  }),
  data: fc.record(
    {
      campaign_id: fc.constant(CAMPAIGN),
      workspace_id: fc.constant('ws_1'),
      name,
      script_id: fc.constantFrom('scr_1', ''),
      language,
      contacts: fc.oneof({ weight: 6, arbitrary: fc.uniqueArray(fc.constantFrom(...PHONES), { minLength: 1, maxLength: 4 }).map((phones) => phones.map((number) => ({ phone: number, name: 'Asha', amount: 5 }))) }, { weight: 1, arbitrary: fc.array(contact, { maxLength: 4 }) }),
      schedule: nullable(fc.record({ start_time: time, end_time: time, timezone: fc.constantFrom('UTC', 'Asia/Kolkata', 'Mars/Olympus') }, { requiredKeys: ['start_time'] })),
      calling_hours: nullable(fc.record({ start: fc.constantFrom('09:00', '25:00'), end: fc.constantFrom('18:00', '09:00') })),
      max_attempts: fc.oneof(fc.integer({ min: 1, max: 5 }), count),
      retry_interval_minutes: fc.oneof(fc.constantFrom(1, 60, 240), count),
      recording_enabled: fc.boolean(),
      qa_scorecard_id: nullable(fc.constantFrom('qsc_1', '')),
      created_at: plausibleTime,
    },
    { requiredKeys: ['campaign_id', 'workspace_id', 'name', 'script_id', 'language', 'contacts', 'created_at'] },
  ),
});
/** A body that passes every rule, with 1 to 4 contacts: most sequences start with one, then start the campaign. */
const validCreate: fc.Arbitrary<CampaignCommand> = fc.record({
  type: fc.constant('CreateCampaign' as const),
  facts: fc.constant({ script: { version: 1, variables: ['name', 'amount'] } }),
  data: fc.record({
    campaign_id: fc.constant(CAMPAIGN),
    workspace_id: fc.constant('ws_1'),
    name: fc.constant('Renewals'),
    script_id: fc.constant('scr_1'),
    language: fc.constant('hi-IN'),
    contacts: fc.uniqueArray(fc.constantFrom(...PHONES), { minLength: 1, maxLength: 4 }).map((phones) => phones.map((number) => ({ phone: number, name: 'Asha', amount: 5 }))),
    max_attempts: fc.integer({ min: 1, max: 3 }),
    retry_interval_minutes: fc.constantFrom(1, 60),
    created_at: fc.constant('2026-03-01T09:00:00.000Z'),
  }),
});
const manualStart: fc.Arbitrary<CampaignCommand> = fc.constant({ type: 'StartCampaign', data: { at: '2026-03-01T10:00:00.000Z', trigger: 'manual' } });
const opening = fc.oneof({ weight: 3, arbitrary: fc.tuple(validCreate, manualStart) }, { weight: 1, arbitrary: fc.tuple(fc.oneof(validCreate, create)) });

const contactIndex = fc.oneof({ weight: 8, arbitrary: fc.nat(1) }, { weight: 2, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.constantFrom(-1, 4, 1.5, Number.NaN) });
const attemptNumber = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 2 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }) });
// Mostly the derived call id of the attempt (what the dialer sends), sometimes a stranger.
const attemptStart: fc.Arbitrary<CampaignCommand> = fc
  .record({ contact_index: contactIndex, attempt: attemptNumber, at: time, foreignCall: fc.integer({ min: 0, max: 5 }).map((draw) => draw === 0) })
  .map(({ contact_index, attempt, at, foreignCall }) => ({
    type: 'StartContactAttempt' as const,
    data: { contact_index, attempt, at, call_id: foreignCall ? 'cal_stranger' : attemptCallId(CAMPAIGN, contact_index, attempt) },
  }));
const outcome: fc.Arbitrary<CampaignCommand> = fc
  .record({
    contact_index: contactIndex,
    attempt: attemptNumber,
    outcome: fc.constantFrom('connected', 'no_answer', 'busy', 'invalid_number', 'carrier_error', 'suppressed' as const),
    disposition: nullable(disposition),
    ended_at: time,
  })
  .map(({ attempt, ...data }) => ({ type: 'RecordContactAttemptOutcome' as const, data: { ...data, call_id: attemptCallId(CAMPAIGN, data.contact_index, attempt) } }));
const at = fc.record({ at: time });
const command: fc.Arbitrary<CampaignCommand> = fc.oneof(
  create,
  fc.record({ type: fc.constant('StartCampaign' as const), data: fc.record({ at: time, trigger: fc.constantFrom('manual' as const, 'schedule' as const) }) }),
  fc.record({ type: fc.constant('PauseCampaign' as const), data: at }),
  fc.record({ type: fc.constant('ResumeCampaign' as const), data: at }),
  fc.record({ type: fc.constant('StopCampaign' as const), data: at }),
  fc.record({ type: fc.constant('ReachCampaignEndTime' as const), data: at }),
  { weight: 10, arbitrary: attemptStart },
  { weight: 10, arbitrary: outcome },
  fc.record({ type: fc.constant('SuppressContact' as const), data: fc.record({ contact_index: contactIndex, at: time }) }),
  fc.record({ type: fc.constant('RemoveContacts' as const), data: fc.record({ phones: fc.array(phone, { maxLength: 3 }), at: time }) }),
);

const isFinal = (status: CampaignState['status']) => status === 'completed' || status === 'stopped';
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

properties('random command sequences: only domain refusals, counts never negative and always add up, an ended campaign stays ended', () => {
  checkDeciderProperties({
    decider: campaignDecider,
    command,
    opening: opening.map((commands) => [...commands]),
    maxCommands: 40,
    invariants: [
      { name: 'completed and stopped are final', broken: (after, before) => (isFinal(before.status) && after.status !== before.status ? `${before.status} → ${after.status}` : null) },
      {
        name: 'contact counts are never negative and add up to the total',
        broken: (after) => {
          const counts = Object.values(after.statusCounts);
          return counts.some((value) => value < 0) || sum(counts) !== after.total_contacts ? JSON.stringify(after.statusCounts) : null;
        },
      },
      {
        name: 'contact counts match the contact table',
        broken: (after) => {
          for (const status of CONTACT_STATUSES) {
            let inTable = 0;
            for (let index = 0; index < after.total_contacts; index++) if (statusAt(after.contacts, index) === status) inTable++;
            if (inTable !== after.statusCounts[status]) return `${status}: table ${inTable}, count ${after.statusCounts[status]}`;
          }
          return after.retries.size === after.statusCounts.awaiting_retry ? null : `retries ${after.retries.size}`;
        },
      },
      {
        name: 'progress counters are consistent',
        broken: (after) => {
          const dispositions = DISPOSITIONS.map((key) => after.disposition_summary[key]);
          if (dispositions.some((value) => value < 0) || sum(dispositions) !== after.statusCounts.final) return JSON.stringify(after.disposition_summary);
          return after.calls_connected <= after.calls_made && after.calls_made <= after.total_contacts * after.max_attempts ? null : `${after.calls_connected}/${after.calls_made}`;
        },
      },
      {
        name: 'no contact gets more attempts than allowed',
        broken: (after) => (Array.from(after.contacts.attempts).some((attempts) => attempts > after.max_attempts) ? Array.from(after.contacts.attempts).join(',') : null),
      },
      {
        name: 'a completed campaign has nothing left to dial, unless its end time ended it',
        broken: (after) =>
          after.status === 'completed' && after.completion_reason === 'all_contacts_final' && after.statusCounts.final + after.statusCounts.removed !== after.total_contacts
            ? JSON.stringify(after.statusCounts)
            : null,
      },
    ],
  });
});

properties.run();
