import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommandHandler } from '../../../commands/handler.ts';
import type { Runtime } from '../../../composition.ts';
import { callDecider, callStream } from '../../../domain/call.ts';
import { campaignDecider, campaignStream, contactTemplateValues } from '../../../domain/campaign.ts';
import { deterministicId } from '../../../domain/shared/deterministic-id.ts';
import { createCallCarrier } from '../../../processes/calling/dialing.ts';
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

test.run();
