import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../composition.ts';
import { campaignDecider, campaignStream, type CampaignCommand } from '../../domain/campaign.ts';
import { countActiveCampaignsUsingScript, findCampaign, listCampaigns } from '../../projections/campaigns.ts';
import { at, callId, createCommand } from '../domain/campaign-fixtures.ts';
import { testRuntime } from '../support/runtime.ts';

const campaigns = suite('campaigns projection');
let runtime: Runtime;
let remove: () => void;

campaigns.before(async () => {
  ({ runtime, remove } = testRuntime());
});
campaigns.after(async () => {
  await runtime.close();
  remove();
});

async function handle(campaignId: string, command: CampaignCommand, workspaceId = 'ws_a'): Promise<void> {
  await runtime.commands.handle(campaignDecider, campaignStream(campaignId), command, { workspaceId, actor: 'test', now: new Date() });
}

async function create(campaignId: string, overrides: Parameters<typeof createCommand>[0] = {}): Promise<void> {
  const command = createCommand({ campaign_id: campaignId, workspace_id: 'ws_a', ...overrides });
  await handle(campaignId, command, command.data.workspace_id);
}

/** One attempt of a contact: reserved, then ended with an outcome. */
async function attempt(campaignId: string, contact: number, number: number, outcome: 'connected' | 'no_answer' | 'invalid_number', disposition?: 'interested' | 'dnd', minute = 2) {
  await handle(campaignId, { type: 'StartContactAttempt', data: { contact_index: contact, attempt: number, call_id: callId(contact, number, campaignId), at: at(minute) } });
  await handle(campaignId, {
    type: 'RecordContactAttemptOutcome',
    data: { contact_index: contact, call_id: callId(contact, number, campaignId), outcome, disposition: disposition ?? null, ended_at: at(minute + 1) },
  });
}

campaigns('created: the create fields, a scheduled status and zero progress', async () => {
  await create('cmp_1', { schedule: { start_time: '2026-03-05T09:00:00', timezone: 'Asia/Kolkata' }, calling_hours: { start: '09:00', end: '21:00' } });
  await runtime.projections.catchUp();
  assert.equal(findCampaign(runtime.readDb, 'ws_a', 'cmp_1'), {
    id: 'cmp_1',
    name: 'Renewals',
    status: 'scheduled',
    script_id: 'scr_test',
    script_version: 3,
    language: 'hi-IN',
    total_contacts: 3,
    max_attempts: 2,
    retry_interval_minutes: 60,
    schedule: { start_time: '2026-03-05T09:00:00', timezone: 'Asia/Kolkata' },
    calling_hours: { start: '09:00', end: '21:00' },
    recording_enabled: true,
    purpose: 'service',
    caller_id: null,
    voicemail: 'hang_up',
    created_at: at(0),
    started_at: null,
    ended_at: null,
    completion_reason: null,
    calls_made: 0,
    calls_connected: 0,
    disposition_summary: { interested: 0, not_interested: 0, callback: 0, not_reachable: 0, dnd: 0, escalated: 0 },
  });
  assert.is(findCampaign(runtime.readDb, 'ws_b', 'cmp_1'), undefined, 'another workspace does not see it');
});

campaigns('progress: every attempt counts in calls_made, answered ones in calls_connected, each contact once in the summary', async () => {
  await create('cmp_2', { max_attempts: 3 });
  await handle('cmp_2', { type: 'StartCampaign', data: { at: at(1), trigger: 'manual' } });
  // Contact 0: not reached twice, then answered and interested (three attempts, one disposition).
  await attempt('cmp_2', 0, 1, 'no_answer', undefined, 2);
  await attempt('cmp_2', 0, 2, 'no_answer', undefined, 70);
  await attempt('cmp_2', 0, 3, 'connected', 'interested', 140);
  // Contact 1: the number does not exist (final not_reachable at once).
  await attempt('cmp_2', 1, 1, 'invalid_number', undefined, 3);
  // Contact 2: removed before it is dialed; total_contacts keeps counting it.
  await handle('cmp_2', { type: 'RemoveContacts', data: { phones: [createCommand().data.contacts[2]!.phone], at: at(4) } });
  await runtime.projections.catchUp();
  const campaign = findCampaign(runtime.readDb, 'ws_a', 'cmp_2')!;
  assert.is(campaign.total_contacts, 3);
  assert.is(campaign.calls_made, 4);
  assert.is(campaign.calls_connected, 1);
  assert.equal(campaign.disposition_summary, { interested: 1, not_interested: 0, callback: 0, not_reachable: 1, dnd: 0, escalated: 0 });
  assert.is(campaign.status, 'completed', 'every contact is final or removed');
  assert.is(campaign.completion_reason, 'all_contacts_final');
  assert.is(campaign.started_at, at(1));
  assert.is(campaign.ended_at, at(4), 'completed by the removal of the last open contact');
});

campaigns('status moves: pause, resume, stop', async () => {
  await create('cmp_3');
  const status = async () => {
    await runtime.projections.catchUp();
    return findCampaign(runtime.readDb, 'ws_a', 'cmp_3')!.status;
  };
  await handle('cmp_3', { type: 'StartCampaign', data: { at: at(1), trigger: 'manual' } });
  assert.is(await status(), 'running');
  await handle('cmp_3', { type: 'PauseCampaign', data: { at: at(2) } });
  assert.is(await status(), 'paused');
  await handle('cmp_3', { type: 'ResumeCampaign', data: { at: at(3) } });
  assert.is(await status(), 'running');
  await handle('cmp_3', { type: 'StopCampaign', data: { at: at(4) } });
  assert.is(await status(), 'stopped');
  const stopped = findCampaign(runtime.readDb, 'ws_a', 'cmp_3')!;
  assert.is(stopped.ended_at, at(4));
  assert.is(stopped.completion_reason, null);
});

campaigns('list: newest first, filters by status and creation time, counts the total', async () => {
  const workspaceId = 'ws_list';
  for (let index = 0; index < 5; index++) {
    const command = createCommand({ campaign_id: `cmp_l${index}`, workspace_id: workspaceId, created_at: at(index * 10) });
    await handle(`cmp_l${index}`, command, workspaceId);
  }
  await handle('cmp_l1', { type: 'StartCampaign', data: { at: at(11), trigger: 'manual' } }, workspaceId);
  await handle('cmp_l3', { type: 'StartCampaign', data: { at: at(31), trigger: 'manual' } }, workspaceId);
  await runtime.projections.catchUp();
  const ids = (result: { data: Array<{ id: string }> }) => result.data.map((campaign) => campaign.id);
  const all = listCampaigns(runtime.readDb, workspaceId, {}, 2, 0);
  assert.equal(ids(all), ['cmp_l4', 'cmp_l3']);
  assert.is(all.total, 5);
  assert.equal(ids(listCampaigns(runtime.readDb, workspaceId, {}, 10, 3)), ['cmp_l1', 'cmp_l0']);
  assert.equal(ids(listCampaigns(runtime.readDb, workspaceId, { status: 'running' }, 10, 0)), ['cmp_l3', 'cmp_l1']);
  assert.equal(ids(listCampaigns(runtime.readDb, workspaceId, { from: at(10), to: at(30) }, 10, 0)), ['cmp_l3', 'cmp_l2', 'cmp_l1'], 'both bounds inclusive');
  const filtered = listCampaigns(runtime.readDb, workspaceId, { status: 'scheduled', from: at(20) }, 10, 0);
  assert.equal(ids(filtered), ['cmp_l4', 'cmp_l2']);
  assert.is(filtered.total, 2);
  assert.is(listCampaigns(runtime.readDb, 'ws_other', {}, 10, 0).total, 0);
});

campaigns('active campaigns using a script: scheduled, running and paused count; stopped and completed do not', async () => {
  const workspaceId = 'ws_script';
  const make = async (id: string) => handle(id, createCommand({ campaign_id: id, workspace_id: workspaceId, script_id: 'scr_used' }), workspaceId);
  await make('cmp_s1');
  await make('cmp_s2');
  await make('cmp_s3');
  await runtime.projections.catchUp();
  assert.is(countActiveCampaignsUsingScript(runtime.readDb, workspaceId, 'scr_used'), 3);
  assert.is(countActiveCampaignsUsingScript(runtime.readDb, 'ws_a', 'scr_used'), 0, 'per workspace');
  await handle('cmp_s1', { type: 'StartCampaign', data: { at: at(1), trigger: 'manual' } }, workspaceId);
  await handle('cmp_s1', { type: 'PauseCampaign', data: { at: at(2) } }, workspaceId);
  await handle('cmp_s2', { type: 'StopCampaign', data: { at: at(2) } }, workspaceId);
  await runtime.projections.catchUp();
  assert.is(countActiveCampaignsUsingScript(runtime.readDb, workspaceId, 'scr_used'), 2);
  await handle('cmp_s1', { type: 'StopCampaign', data: { at: at(3) } }, workspaceId);
  await handle('cmp_s3', { type: 'StopCampaign', data: { at: at(3) } }, workspaceId);
  await runtime.projections.catchUp();
  assert.is(countActiveCampaignsUsingScript(runtime.readDb, workspaceId, 'scr_used'), 0);
});

campaigns('a 100,000-contact campaign projects in well under a second', async () => {
  const contacts = Array.from({ length: 100_000 }, (_, index) => ({ phone: `+91900${String(index).padStart(7, '0')}`, name: `C${index}` }));
  await create('cmp_big', { contacts });
  const started = performance.now();
  await runtime.projections.catchUp();
  const elapsed = performance.now() - started;
  assert.is(findCampaign(runtime.readDb, 'ws_a', 'cmp_big')!.total_contacts, 100_000);
  assert.ok(elapsed < 3_000, `projected in ${elapsed.toFixed(0)} ms`);
});

campaigns.run();
