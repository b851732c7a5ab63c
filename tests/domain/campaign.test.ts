import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { campaignDecider, contactView, contactViews, type CampaignEvent } from '../../domain/campaign.ts';
import { fold } from '../../domain/shared/decider.ts';
import { given } from './given-when-then.ts';
import { at, attemptStarted, callId, contacts, createCommand, created, started, T0 } from './campaign-fixtures.ts';

// Campaign lifecycle: every transition of the spec's table, our decisions where it is silent, and the refusals.

const paused: CampaignEvent[] = [...started(), { type: 'CampaignPaused', data: { paused_at: at(5) } }];
const stopped: CampaignEvent[] = [...started(), { type: 'CampaignStopped', data: { stopped_at: at(5) } }];
const completed: CampaignEvent[] = [...started(), { type: 'CampaignCompleted', data: { completed_at: at(5), reason: 'end_time_reached' } }];

test('create: CampaignCreated with the pinned script version and defaults, status scheduled', () => {
  const events = given(campaignDecider).when(createCommand({ max_attempts: undefined, retry_interval_minutes: undefined })).then(created({ max_attempts: undefined, retry_interval_minutes: undefined }));
  assert.is(events.length, 2);
  assert.equal(events[0], {
    type: 'CampaignCreated',
    data: {
      campaign_id: 'cmp_test',
      workspace_id: 'ws_test',
      name: 'Renewals',
      script_id: 'scr_test',
      script_version: 3,
      language: 'hi-IN',
      max_attempts: 1,
      retry_interval_minutes: 240,
      schedule: null,
      starts_at: null,
      ends_at: null,
      timezone: 'UTC',
      calling_hours: null,
      recording_enabled: true,
      qa_scorecard_id: null,
      purpose: 'service',
      caller_id: null,
      voicemail: 'hang_up',
      total_contacts: 3,
      created_at: T0,
    },
  });
  assert.equal(events[1], {
    type: 'ContactsAdded',
    data: {
      contacts: contacts(3).map(({ phone, name, ...variables }, index) => ({ index, phone, name, variables })),
    },
  });
  assert.is(fold(campaignDecider, events).status, 'scheduled');
});

test('create: 2,500 contacts are split into ContactsAdded events of at most 1,000', () => {
  const events = campaignDecider.decide(createCommand({ contacts: contacts(2_500) }), campaignDecider.initialState());
  assert.equal(events.map((event) => event.type), ['CampaignCreated', 'ContactsAdded', 'ContactsAdded', 'ContactsAdded']);
  const sizes = events.slice(1).map((event) => (event.type === 'ContactsAdded' ? event.data.contacts.length : 0));
  assert.equal(sizes, [1000, 1000, 500]);
  const state = fold(campaignDecider, events);
  assert.is(state.total_contacts, 2_500);
  assert.is(contactView(state, 2_499).phone, contacts(2_500)[2_499]!.phone);
  assert.is(state.statusCounts.pending, 2_500);
});

test('create: a schedule is kept as submitted and resolved in its timezone', () => {
  const schedule = { start_time: '2026-03-02T09:00:00', end_time: '2026-03-02T18:00:00+05:30', timezone: 'Asia/Kolkata' };
  const [createdEvent] = created({ schedule, calling_hours: { start: '09:00', end: '21:00' } });
  assert.ok(createdEvent!.type === 'CampaignCreated');
  if (createdEvent!.type !== 'CampaignCreated') return;
  assert.equal(createdEvent.data.schedule, schedule);
  assert.is(createdEvent.data.starts_at, '2026-03-02T03:30:00.000Z');
  assert.is(createdEvent.data.ends_at, '2026-03-02T12:30:00.000Z');
  assert.is(createdEvent.data.timezone, 'Asia/Kolkata');
});

test('create: refusals name the field', () => {
  const refuse = (overrides: Parameters<typeof createCommand>[0], field: string) =>
    given(campaignDecider).when(createCommand(overrides)).thenThrows('invalid_parameter', { field });
  refuse({ max_attempts: 0 }, 'max_attempts');
  refuse({ max_attempts: 6 }, 'max_attempts');
  refuse({ max_attempts: 2.5 }, 'max_attempts');
  refuse({ retry_interval_minutes: 0 }, 'retry_interval_minutes');
  refuse({ name: 'x'.repeat(256) }, 'name');
  refuse({ language: 'hindi' }, 'language');
  refuse({ language: 'fr-FR' }, 'language');
  refuse({ contacts: [] }, 'contacts');
  refuse({ contacts: [{ phone: '9876543210', name: 'A' }] }, 'contacts[0].phone');
  refuse({ contacts: [{ phone: '+919876543210', name: '' }] }, 'contacts[0].name');
  refuse({ schedule: { start_time: 'tomorrow', timezone: 'UTC' } }, 'schedule.start_time');
  refuse({ schedule: { start_time: '2026-03-02T09:00:00Z', timezone: 'Mars/Olympus' } }, 'schedule.timezone');
  refuse({ schedule: { start_time: '2026-03-02T09:00:00Z', end_time: '2026-03-02T08:00:00Z' } }, 'schedule.end_time');
  refuse({ calling_hours: { start: '9am', end: '21:00' } }, 'calling_hours');
});

test('create: a duplicate phone is refused naming contacts[i].phone of the second occurrence', () => {
  const list = [...contacts(3), { phone: contacts(3)[1]!.phone, name: 'Again' }];
  given(campaignDecider).when(createCommand({ contacts: list })).thenThrows('invalid_parameter', { field: 'contacts[3].phone', provided: list[3]!.phone });
});

test('create: twice is already_exists', () => {
  given(campaignDecider, created()).when(createCommand()).thenThrows('already_exists');
});

test('scheduled → running: start_time reached (trigger schedule) emits CampaignStarted (campaign.started)', () => {
  given(campaignDecider, created({ schedule: { start_time: at(60) } }))
    .when({ type: 'StartCampaign', data: { at: at(60), trigger: 'schedule' } })
    .then([{ type: 'CampaignStarted', data: { started_at: at(60), trigger: 'schedule' } }]);
});

test('scheduled → running: manual start of a campaign without schedule', () => {
  given(campaignDecider, created())
    .when({ type: 'StartCampaign', data: { at: at(1), trigger: 'manual' } })
    .then([{ type: 'CampaignStarted', data: { started_at: at(1), trigger: 'manual' } }]);
});

test('start: manual start of a running campaign is invalid_state; a stale schedule timer is a no-op', () => {
  given(campaignDecider, started()).when({ type: 'StartCampaign', data: { at: at(2), trigger: 'manual' } }).thenThrows('invalid_state', { status: 'running', action: 'start' });
  given(campaignDecider, started()).when({ type: 'StartCampaign', data: { at: at(2), trigger: 'schedule' } }).thenNothing();
  given(campaignDecider, stopped).when({ type: 'StartCampaign', data: { at: at(9), trigger: 'schedule' } }).thenNothing();
  given(campaignDecider, stopped).when({ type: 'StartCampaign', data: { at: at(9), trigger: 'manual' } }).thenThrows('invalid_state', { status: 'stopped' });
});

test('start after end_time already passed: completed with reason end_time_reached', () => {
  given(campaignDecider, created({ schedule: { start_time: at(10), end_time: at(20) } }))
    .when({ type: 'StartCampaign', data: { at: at(25), trigger: 'schedule' } })
    .then([{ type: 'CampaignCompleted', data: { completed_at: at(25), reason: 'end_time_reached' } }]);
});

test('running → paused (campaign.paused) → running', () => {
  given(campaignDecider, started()).when({ type: 'PauseCampaign', data: { at: at(5) } }).then([{ type: 'CampaignPaused', data: { paused_at: at(5) } }]);
  given(campaignDecider, paused).when({ type: 'ResumeCampaign', data: { at: at(6) } }).then([{ type: 'CampaignResumed', data: { resumed_at: at(6) } }]);
  assert.is(fold(campaignDecider, paused).status, 'paused');
  assert.is(fold(campaignDecider, [...paused, { type: 'CampaignResumed', data: { resumed_at: at(6) } }]).status, 'running');
});

test('running, paused and scheduled → stopped', () => {
  for (const history of [started(), paused, created()]) {
    given(campaignDecider, history).when({ type: 'StopCampaign', data: { at: at(7) } }).then([{ type: 'CampaignStopped', data: { stopped_at: at(7) } }]);
  }
  assert.is(fold(campaignDecider, stopped).status, 'stopped');
});

test('refused moves: pause/resume/stop in other states are invalid_state with status and action', () => {
  const cases: Array<[CampaignEvent[], 'PauseCampaign' | 'ResumeCampaign' | 'StopCampaign', string]> = [
    [created(), 'PauseCampaign', 'scheduled'],
    [paused, 'PauseCampaign', 'paused'],
    [stopped, 'PauseCampaign', 'stopped'],
    [completed, 'PauseCampaign', 'completed'],
    [created(), 'ResumeCampaign', 'scheduled'],
    [started(), 'ResumeCampaign', 'running'],
    [stopped, 'ResumeCampaign', 'stopped'],
    [completed, 'ResumeCampaign', 'completed'],
    [stopped, 'StopCampaign', 'stopped'],
    [completed, 'StopCampaign', 'completed'],
  ];
  for (const [history, type, status] of cases) {
    const action = type.replace('Campaign', '').toLowerCase();
    given(campaignDecider, history).when({ type, data: { at: at(9) } }).thenThrows('invalid_state', { status, action });
  }
});

test('end_time reached: scheduled, running or paused → completed (end_time_reached); later timers are no-ops', () => {
  const schedule = { start_time: at(0), end_time: at(30) };
  const histories = [
    created({ schedule }),
    started({ schedule }),
    [...started({ schedule }), { type: 'CampaignPaused', data: { paused_at: at(5) } } as CampaignEvent],
  ];
  for (const history of histories) {
    given(campaignDecider, history)
      .when({ type: 'ReachCampaignEndTime', data: { at: at(30) } })
      .then([{ type: 'CampaignCompleted', data: { completed_at: at(30), reason: 'end_time_reached' } }]);
  }
  given(campaignDecider, started({ schedule })).when({ type: 'ReachCampaignEndTime', data: { at: at(29) } }).thenThrows('invalid_state');
  given(campaignDecider, completed).when({ type: 'ReachCampaignEndTime', data: { at: at(31) } }).thenNothing();
});

test('commands on a campaign that does not exist: resource_not_found', () => {
  given(campaignDecider).when({ type: 'PauseCampaign', data: { at: at(1) } }).thenThrows('resource_not_found');
});

test('decide does not mutate the state it is given', () => {
  const state = fold(campaignDecider, started());
  const snapshot = () => JSON.stringify({ ...state, contacts: contactViews(state), retries: [...state.retries] });
  const before = snapshot();
  campaignDecider.decide({ type: 'StartContactAttempt', data: { contact_index: 0, attempt: 1, call_id: callId(0, 1), at: at(2) } }, state);
  campaignDecider.decide({ type: 'RemoveContacts', data: { phones: [contacts(3)[1]!.phone], at: at(2) } }, state);
  campaignDecider.decide({ type: 'PauseCampaign', data: { at: at(2) } }, state);
  assert.is(snapshot(), before);
});

test('given nothing, when created with a script that is not in the workspace (null fact), then resource_not_found naming the script', () => {
  given(campaignDecider).when({ ...createCommand(), facts: { script: null } }).thenThrows('resource_not_found', { resource_type: 'script', id: 'scr_test' });
});

test('given nothing, when the script uses a variable a contact lacks, then invalid_parameter on that contact, after the body rules', () => {
  const usesAmount = (data = {}) => ({ ...createCommand(data), facts: { script: { version: 3, variables: ['name', 'amount'] } } });
  const lacking = contacts(3).map((contact, index) => (index === 1 ? contact : { ...contact, amount: 100 }));
  given(campaignDecider)
    .when(usesAmount({ contacts: lacking }))
    .thenThrows('invalid_parameter', { field: 'contacts[1].amount', provided: null, expected: 'a value for {amount}, which script scr_test uses' });
  // The body's own rules come first (a bad phone is reported before a missing variable).
  given(campaignDecider).when(usesAmount({ contacts: [{ phone: '12', name: 'x' }] })).thenThrows('invalid_parameter', { field: 'contacts[0].phone' });
});

test('a script variable named like an Object.prototype member is not satisfied by the prototype', () => {
  const command = { ...createCommand(), facts: { script: { version: 3, variables: ['constructor'] } } };
  given(campaignDecider).when(command).thenThrows('invalid_parameter', { field: 'contacts[0].constructor' });
});

test('the script version found at creation is pinned on the campaign', () => {
  const [event] = campaignDecider.decide({ ...createCommand(), facts: { script: { version: 7, variables: [] } } }, campaignDecider.initialState());
  assert.is(event!.type === 'CampaignCreated' && event.data.script_version, 7);
});

test('an attempt outcome whose end time is not an instant is refused, not scheduled at "Invalid Date"', () => {
  for (const ended_at of ['', 'not a date', '+275760-09-13T00:00:00.000Z']) {
    given(campaignDecider, [...started(), attemptStarted(0, 1)])
      .when({ type: 'RecordContactAttemptOutcome', data: { contact_index: 0, call_id: callId(0, 1), outcome: 'busy', ended_at } })
      .thenThrows('invalid_parameter', { field: 'ended_at', provided: ended_at });
  }
});

test('a connected outcome with an unknown disposition is refused, not counted under its own key', () => {
  given(campaignDecider, [...started(), attemptStarted(0, 1)])
    .when({ type: 'RecordContactAttemptOutcome', data: { contact_index: 0, call_id: callId(0, 1), outcome: 'connected', disposition: 'maybe' as never, ended_at: at(3) } })
    .thenThrows('invalid_parameter', { field: 'disposition', provided: 'maybe' });
});

test.run();
