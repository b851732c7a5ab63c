import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommandHandler } from '../../../commands/handler.ts';
import type { Runtime } from '../../../composition.ts';
import { callDecider, callStream } from '../../../domain/call.ts';
import { campaignDecider, campaignStream, contactTemplateValues } from '../../../domain/campaign.ts';
import { deterministicId } from '../../../domain/shared/deterministic-id.ts';
import { CALL_END_TIMER_KIND, type CallRunner } from '../../../processes/calling/call-runner.ts';
import { createCallCarrier, createDialingProcesses } from '../../../processes/calling/dialing.ts';
import { EventStoreWorkQueue } from '../../../infra/work-queue/event-store-queue.ts';
import { timerDecider, timerStream } from '../../../domain/timer.ts';
import type { Recorded } from '../../../infra/eventstore/port.ts';
import { placeableFacts } from '../../support/call-facts.ts';
import { testRuntime } from '../../support/runtime.ts';
import { calls, campaignAction, contact, createCampaign, createScript, createWorkspace } from './dialing-support.ts';

// A cluster node carries a call it claimed from the calls queue (CallRunner.carry). The queue may hand a call to a
// second node when the first one's claim expired: the call's own stream decides whether it is dialed.

const endings = ['03', '04', '05'];

async function placedCalls(runtime: Runtime) {
  const workspaceId = await createWorkspace(runtime);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: endings.map((ending) => contact(ending)) });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const now = runtime.clock.now();
  const context = { workspaceId, actor: 'dialer', now };
  const callIds = endings.map((_, index) => deterministicId('cal', campaignId, index, 1));
  for (const [index, ending] of endings.entries()) {
    const { phone, name, ...variables } = contact(ending);
    await runtime.commands.handle(campaignDecider, campaignStream(campaignId), { type: 'StartContactAttempt', data: { contact_index: index, attempt: 1, call_id: callIds[index]!, at: now.toISOString() } }, context);
    await runtime.commands.handle(callDecider, callStream(callIds[index]!), {
      type: 'PlaceCall',
      facts: placeableFacts(),
      data: {
        call_id: callIds[index]!, workspace_id: workspaceId, campaign_id: campaignId, contact_index: index, attempt: 1, contact: { phone, name },
        language: 'en-IN', script_id: scriptId, script_version: 1, variables: contactTemplateValues({ phone, name, variables }), recording_enabled: false, started_at: now.toISOString(),
      },
    }, context);
  }
  return { campaignId, callIds, context };
}

test('a call whose dialing began on a node that died is failed as interrupted by the next carrier, never dialed again; an undialed call is dialed once, however many nodes carry it', async () => {
  const { runtime, remove } = testRuntime();
  await runtime.start();
  try {
    const { campaignId, callIds, context } = await placedCalls(runtime);
    // Call 0: the first node claimed it for dialing (CallDialingStarted), then died before any result.
    await runtime.commands.handle(callDecider, callStream(callIds[0]!), { type: 'RecordCallDialingStarted', data: { at: context.now.toISOString() } }, context);

    // Two nodes: each its own carrier and its own command handler (its own cache), on one store.
    const nodeA = createCallCarrier(runtime);
    const nodeB = createCallCarrier({ ...runtime, commands: new CommandHandler(runtime.store) });
    await nodeB.carry(callIds[0]!);
    // Call 1 handed to both nodes at once (a claim that expired while the first was about to dial).
    await Promise.all([nodeA.carry(callIds[1]!), nodeB.carry(callIds[1]!)]);
    await nodeA.carry(callIds[2]!);
    // Carried again after the end (a queue delivery repeated): nothing changes.
    for (const callId of callIds) await nodeB.carry(callId);

    const records = await calls(runtime, campaignId);
    const byId = new Map(records.map((record) => [record.callId, record]));
    for (const callId of callIds) {
      const events = byId.get(callId)!.events;
      assert.is(events.filter((event) => event.type === 'CallDialingStarted').length, 1, `${callId} dialed once`);
      assert.is(events.filter((event) => event.type === 'CallEnded' || event.type === 'CallFailed').length, 1, `${callId} ended once`);
    }
    const interrupted = byId.get(callIds[0]!)!;
    assert.equal([interrupted.state.status, interrupted.state.failure_reason], ['failed', 'interrupted']);
    assert.is(interrupted.events.some((event) => event.type === 'CallAnswered'), false, 'not dialed by the second node');
    assert.is(byId.get(callIds[2]!)!.state.status, 'completed');
    // Handed to two nodes at once (only when the first one's claim expired, i.e. it stalled): one dials it; the other
    // finds it dialing and, unable to tell a stalled node from a dead one, fails it as interrupted unless the first
    // recorded its result already. Either way it was dialed once and ended once (checked above).
    const twice = byId.get(callIds[1]!)!.state;
    assert.ok(twice.status === 'completed' || (twice.status === 'failed' && twice.failure_reason === 'interrupted'), JSON.stringify([twice.status, twice.failure_reason]));

    // Every contact's attempt was settled on the campaign, once.
    const { state } = await runtime.commands.load(campaignDecider, campaignStream(campaignId));
    const ended = (await runtime.store.readStream(campaignStream(campaignId))).filter((event) => event.type === 'ContactAttemptEnded');
    assert.is(ended.length, endings.length);
    assert.is(state.status, 'completed');
  } finally {
    await runtime.close();
    remove();
  }
});

test('an end recorded by a node that died before settling it is settled by the leader when it sees the end, and a held end replayed after the leader died is settled too', async () => {
  // Sandbox calls take their time on the manual clock, so a carried call's ending is held until it is due.
  const { runtime, remove } = testRuntime({ environment: { SANDBOX_SPEED: '1' } });
  await runtime.start();
  try {
    const { campaignId, callIds, context } = await placedCalls(runtime);
    // The leader's call runner of a cluster (placed calls go to the queue; this test never consumes it).
    const queue = new EventStoreWorkQueue(runtime.store, { claimTimeoutMs: 1_000, nodeId: 'leader' });
    const [leader] = createDialingProcesses({ ...runtime, workQueue: queue }) as [CallRunner];
    const recorded = async (stream: string, type: string) => (await runtime.store.readStream(stream)).find((event) => event.type === type) as Recorded<never>;

    // Call 0: a carrying node recorded its failure (CallFailed) and was killed before it settled the campaign.
    await runtime.commands.handle(callDecider, callStream(callIds[0]!), { type: 'RecordCallDialingStarted', data: { at: context.now.toISOString() } }, context);
    await runtime.commands.handle(callDecider, callStream(callIds[0]!), { type: 'FailCall', data: { reason: 'interrupted', detail: 'a carrier stopped', ended_at: context.now.toISOString() } }, context);
    await leader.handle(await recorded(callStream(callIds[0]!), 'CallFailed'));

    // Call 1: a held ending. The leader recorded it when its timer fired and died before settling it; the next
    // leader handles the same TimerFired again (its checkpoint was behind).
    const carrier = createCallCarrier(runtime);
    await carrier.carry(callIds[1]!);
    const { state } = await runtime.commands.load(callDecider, callStream(callIds[1]!));
    assert.ok(state.held !== null, 'the carried call holds its ending');
    await runtime.commands.handle(callDecider, callStream(callIds[1]!), state.held!.command, context);
    const timerId = `call-end-${callIds[1]!}`;
    await runtime.commands.handle(timerDecider, timerStream(timerId), { type: 'FireTimer', now: new Date(state.held!.due_at) }, context);
    const fired = await recorded(timerStream(timerId), 'TimerFired');
    assert.is((fired as { data: { kind: string } }).data.kind, CALL_END_TIMER_KIND);
    await leader.handle(fired);

    const settled = async () => (await runtime.store.readStream(campaignStream(campaignId)))
      .filter((event) => event.type === 'ContactAttemptEnded')
      .map((event) => (event.data as { call_id: string }).call_id)
      .sort();
    assert.equal(await settled(), [callIds[0]!, callIds[1]!].sort(), 'both attempts settled');
    // The leader then sees the end itself, and a replay handles every event again: nothing is settled twice.
    await leader.handle(await recorded(callStream(callIds[1]!), 'CallEnded'));
    await leader.handle(fired);
    await leader.handle(await recorded(callStream(callIds[0]!), 'CallFailed'));
    assert.equal(await settled(), [callIds[0]!, callIds[1]!].sort(), 'each attempt settled once');
  } finally {
    await runtime.close();
    remove();
  }
});

test.run();
