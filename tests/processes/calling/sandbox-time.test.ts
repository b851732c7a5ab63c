import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findCall } from '../../../projections/calls.ts';
import { findCampaign } from '../../../projections/campaigns.ts';
import { eventually } from '../../support/runtime.ts';
import { advance, calls, campaignAction, contact, createCampaign, createScript, createWorkspace, dialingRuntime, settled } from './dialing-support.ts';

// With SANDBOX_SPEED=1 the sandbox's calls take their own time on the clock: a call starts after it was placed
// and stays in progress until its simulated end has passed (a durable timer), across a restart too.

const REAL_TIME = { SANDBOX_SPEED: '1' };

test('a call starts after its campaign started and stays in progress until its end has passed on the clock', async () => {
  const { runtime, remove } = dialingRuntime({ environment: REAL_TIME });
  await runtime.start();
  try {
    const workspaceId = await createWorkspace(runtime);
    const scriptId = await createScript(runtime, workspaceId);
    const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('03')] });
    await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
    await eventually(async () => (await calls(runtime, campaignId)).some((call) => call.state.held !== null), 10_000, 'the call dialed, its ending held');
    await runtime.projections.catchUp();
    const [{ callId }] = await calls(runtime, campaignId);
    const during = findCall(runtime.readDb, workspaceId, callId!)!;
    assert.equal([during.status, during.answered_at, during.ended_at], ['in_progress', null, null]);

    // A minute and a half later by the clock the call has ended: it rang a few seconds and talked for about a minute.
    await advance(runtime, 90);
    const done = await settled(runtime, campaignId, (state) => state.status === 'completed');
    await runtime.projections.catchUp();
    const call = findCall(runtime.readDb, workspaceId, callId!)!;
    const campaign = findCampaign(runtime.readDb, workspaceId, campaignId)!;
    const now = runtime.clock.now().getTime();
    assert.is(call.status, 'completed');
    assert.ok(Date.parse(call.started_at) >= Date.parse(campaign.started_at!), `call ${call.started_at} after campaign ${campaign.started_at}`);
    assert.ok(Date.parse(call.answered_at!) > Date.parse(call.started_at), 'answered after it started ringing');
    assert.ok(Date.parse(call.ended_at!) <= now, 'ended no later than the clock');
    assert.ok(Math.abs((Date.parse(call.ended_at!) - Date.parse(call.answered_at!)) / 1000 - call.duration_seconds) <= 1, 'the duration is the time from answer to end');
    assert.is(done.contacts[0]!.disposition, 'interested');
  } finally {
    await runtime.close();
    remove();
  }
});

test('a call in progress survives a restart: its ending is recorded when the clock reaches it, not failed as interrupted', async () => {
  const first = dialingRuntime({ environment: REAL_TIME });
  await first.runtime.start();
  const workspaceId = await createWorkspace(first.runtime);
  const scriptId = await createScript(first.runtime, workspaceId);
  const campaignId = await createCampaign(first.runtime, workspaceId, scriptId, { contacts: [contact('04')] });
  await campaignAction(first.runtime, workspaceId, campaignId, 'StartCampaign');
  await eventually(async () => (await calls(first.runtime, campaignId)).some((call) => call.state.held !== null), 10_000, 'the call held');
  await first.runtime.close();

  const second = dialingRuntime({ dataDir: first.dataDir, environment: REAL_TIME });
  await second.runtime.start();
  try {
    await advance(second.runtime, 5);
    const [still] = await calls(second.runtime, campaignId);
    assert.is(still!.state.status, 'in_progress', 'not ended before its time, not interrupted');
    await advance(second.runtime, 120);
    const done = await settled(second.runtime, campaignId, (state) => state.status === 'completed');
    const [call] = await calls(second.runtime, campaignId);
    assert.equal([call!.state.status, call!.state.failure_reason, done.contacts[0]!.disposition], ['completed', null, 'not_interested']);
  } finally {
    await second.runtime.close();
    second.remove();
  }
});

test.run();
