import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { complianceSettingsDecider, complianceSettingsStream } from '../../../domain/compliance/settings.ts';
import { campaignStream } from '../../../domain/campaign.ts';
import { advance, calls, campaignAction, contact, createCampaign, createScript, createWorkspace, dialingRuntime, isCompleted, phone, settled, type CampaignSnapshot } from './dialing-support.ts';

// Pre-dial compliance through the real dialer, the real timers and the sandbox carrier on the manual clock (issue 14).

async function enablePacks(runtime: Runtime, workspaceId: string, packs: unknown[]): Promise<void> {
  await runtime.commands.handle(
    complianceSettingsDecider,
    complianceSettingsStream(workspaceId),
    { type: 'SetComplianceSettings', data: { workspace_id: workspaceId, packs, at: runtime.clock.now().toISOString() } },
    { workspaceId, actor: 'test', now: runtime.clock.now() },
  );
}

async function blockedEvents(runtime: Runtime, campaignId: string) {
  return (await runtime.store.readStream(campaignStream(campaignId))).filter((event) => event.type === 'ContactAttemptBlocked').map((event) => event.data as Record<string, unknown>);
}

async function callTimes(runtime: Runtime, campaignId: string, ending: string): Promise<string[]> {
  return (await calls(runtime, campaignId))
    .filter((record) => record.state.placed!.contact.phone === phone(ending))
    .map((record) => record.state.placed!.started_at)
    .sort();
}

const contactOf = (state: CampaignSnapshot, ending: string) => state.contacts.find((c) => c.phone === phone(ending))!;

test('a recovery campaign started at 18:50 IST stops dialing at 19:00 and resumes at 08:00 the next day', async () => {
  // 18:50 in Asia/Kolkata (UTC+05:30) is 13:20 UTC.
  const { runtime, remove } = dialingRuntime({ environment: { CLOCK_START: '2026-03-02T13:20:00Z' } });
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  await enablePacks(runtime, workspaceId, [{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 10 } }]);
  const scriptId = await createScript(runtime, workspaceId);
  // …00 never answers; …03 answers. Three attempts, six minutes apart.
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('00'), contact('03')], max_attempts: 3, retry_interval_minutes: 6, purpose: 'recovery' });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  await settled(runtime, campaignId, (state) => state.calls_made === 2 && state.statusCounts.dialing === 0);
  await advance(runtime, 6 * 60); // 18:56: the first retry
  await settled(runtime, campaignId, (state) => state.calls_made === 3 && state.statusCounts.dialing === 0);
  await advance(runtime, 6 * 60); // 19:02: the second retry falls due outside the window
  let state = await settled(runtime, campaignId, () => true);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const blocked = await blockedEvents(runtime, campaignId);
  assert.is(blocked.length, 1, 'one blocked attempt, recorded');
  assert.is(blocked[0]!.rule_id, 'in-rbi-recovery.calling_window');
  assert.is(blocked[0]!.severity, 'critical');
  assert.is(blocked[0]!.attempt, 3);
  assert.equal(blocked[0]!.rule_pack, { id: 'in-rbi-recovery', version: '1.0.0' });
  assert.is(blocked[0]!.resumes_at, '2026-03-03T02:30:00.000Z', '08:00 IST the next day');
  assert.match(String(blocked[0]!.reason), /08:00-19:00 in Asia\/Kolkata/);
  state = await settled(runtime, campaignId, () => true);
  assert.is(state.calls_made, 3, 'nothing dialed after 19:00');
  assert.is(contactOf(state, '00').status, 'awaiting_retry');
  // Through the night: still nothing.
  await advance(runtime, 12 * 3600);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is((await settled(runtime, campaignId, () => true)).calls_made, 3);
  // 08:00 IST: the durable timer wakes the contact; its third attempt is placed then.
  await advance(runtime, (Date.parse('2026-03-03T02:30:00Z') - runtime.clock.now().getTime()) / 1000);
  state = await settled(runtime, campaignId, isCompleted);
  assert.is(state.calls_made, 4);
  assert.equal(await callTimes(runtime, campaignId, '00'), ['2026-03-02T13:20:00.000Z', '2026-03-02T13:26:00.000Z', '2026-03-03T02:30:00.000Z']);
  await runtime.close();
  remove();
});

test('a contact in its own time zone is called in its own window (reserved field timezone)', async () => {
  // 18:50 IST is 17:20 in Dubai: the Dubai contact may still be called until 19:00 Dubai (15:00 UTC).
  const { runtime, remove } = dialingRuntime({ environment: { CLOCK_START: '2026-03-02T13:31:00Z' } });
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  await enablePacks(runtime, workspaceId, [{ id: 'in-rbi-recovery' }]);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('03'), contact('04', { timezone: 'Asia/Dubai' })], purpose: 'recovery' });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const state = await settled(runtime, campaignId, (s) => s.calls_made === 1 && s.statusCounts.dialing === 0 && s.statusCounts.pending === 0);
  assert.is(contactOf(state, '04').status, 'final', 'the Dubai contact was called');
  assert.is(contactOf(state, '03').status, 'awaiting_retry', 'the Indian one waits for 08:00 IST');
  const blocked = await blockedEvents(runtime, campaignId);
  assert.equal(blocked.map((event) => [event.contact_index, event.rule_id, event.resumes_at]), [[0, 'in-rbi-recovery.calling_window', '2026-03-03T02:30:00.000Z']]);
  await runtime.close();
  remove();
});

test('an attempt cap defers the contact to the next day (warning), then it is called', async () => {
  // 10:00 IST.
  const { runtime, remove } = dialingRuntime({ environment: { CLOCK_START: '2026-03-02T04:30:00Z' } });
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  await enablePacks(runtime, workspaceId, [{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 2, max_attempts_per_week: 5 } }]);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('00')], max_attempts: 3, retry_interval_minutes: 60, purpose: 'recovery' });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  await settled(runtime, campaignId, (state) => state.calls_made === 1 && state.statusCounts.dialing === 0);
  await advance(runtime, 3600);
  await settled(runtime, campaignId, (state) => state.calls_made === 2 && state.statusCounts.dialing === 0);
  await advance(runtime, 3600); // 12:00 IST: the third attempt would be the third call today
  await new Promise((resolve) => setTimeout(resolve, 300));
  let state = await settled(runtime, campaignId, () => true);
  assert.is(state.calls_made, 2);
  const blocked = await blockedEvents(runtime, campaignId);
  assert.is(blocked.length, 1);
  assert.is(blocked[0]!.rule_id, 'in-rbi-recovery.attempt_cap');
  assert.is(blocked[0]!.severity, 'warning');
  assert.is(blocked[0]!.resumes_at, '2026-03-03T02:30:00.000Z');
  assert.match(String(blocked[0]!.reason), /2 attempts today, the cap is 2 a day/);
  await advance(runtime, (Date.parse('2026-03-03T02:30:00Z') - runtime.clock.now().getTime()) / 1000);
  state = await settled(runtime, campaignId, isCompleted);
  assert.is(state.calls_made, 3);
  await runtime.close();
  remove();
});

test('a promotional campaign skips a number without consent: final dnd, never called, the rule recorded', async () => {
  // 15:30 IST: inside TRAI's 09:00-21:00.
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  await enablePacks(runtime, workspaceId, [{ id: 'in-trai' }]);
  const scriptId = await createScript(runtime, workspaceId);
  const consent = { given_at: '2026-01-15T10:00:00+05:30', purpose: 'promotional' };
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, {
    contacts: [contact('03', { consent }), contact('04'), contact('05', { consent: { given_at: '2026-01-15T10:00:00Z', purpose: 'service' } })],
    purpose: 'promotional',
  });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const state = await settled(runtime, campaignId, isCompleted);
  assert.is(state.calls_made, 1);
  assert.equal(
    state.contacts.map((c) => [c.phone.slice(-2), c.status, c.disposition, c.attempts]),
    [
      ['03', 'final', 'interested', 1],
      ['04', 'final', 'dnd', 0],
      ['05', 'final', 'dnd', 0],
    ],
  );
  assert.equal(await callTimes(runtime, campaignId, '04'), []);
  const blocked = await blockedEvents(runtime, campaignId);
  assert.equal(
    blocked.map((event) => [event.contact_index, event.rule_id, event.resumes_at, event.reason]),
    [
      [1, 'in-trai.consent_and_dnd', null, 'no consent recorded for promotional calls'],
      [2, 'in-trai.consent_and_dnd', null, 'the consent is for service calls, not promotional ones'],
    ],
  );
  const finalized = (await runtime.store.readStream(campaignStream(campaignId))).filter((event) => event.type === 'ContactFinalized').map((event) => event.data as Record<string, unknown>);
  assert.equal(finalized.filter((event) => event.reason === 'compliance_blocked').map((event) => event.contact_index), [1, 2]);
  await runtime.close();
  remove();
});

test.run();
