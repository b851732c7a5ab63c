import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { callDecider, callStream } from '../../../domain/call.ts';
import { campaignDecider, campaignStream, contactTemplateValues } from '../../../domain/campaign.ts';
import { deterministicId } from '../../../domain/shared/deterministic-id.ts';
import { suppressionDecider, suppressionStream } from '../../../domain/suppression.ts';
import { testRuntime } from '../../support/runtime.ts';
import { calls, campaignAction, contact, createCampaign, createScript, createWorkspace, dialingRuntime, isCompleted, settled } from './dialing-support.ts';
import { placeableFacts } from '../../support/call-facts.ts';

// A crash leaves the dialing half-done in three ways. The first runtime below has no process managers: it writes
// exactly the state a crash could leave, then a second runtime with the dialing processes starts on the same
// DATA_DIR. Both restart paths are covered: the processes replay the events after their checkpoints, or their
// checkpoints had already moved past them (recovery from the dialer read model).

const endings = ['03', '04', '05', '06', '09'];

async function crashState(runtime: Runtime) {
  const workspaceId = await createWorkspace(runtime);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: endings.map((ending) => contact(ending)) });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const now = runtime.clock.now();
  const context = { workspaceId, actor: 'dialer', now };
  const callIds = endings.map((_, index) => deterministicId('cal', campaignId, index, 1));
  const reserve = (index: number) =>
    runtime.commands.handle(campaignDecider, campaignStream(campaignId), { type: 'StartContactAttempt', data: { contact_index: index, attempt: 1, call_id: callIds[index]!, at: now.toISOString() } }, context);
  const place = (index: number) => {
    const { phone, name, ...variables } = contact(endings[index]!);
    return runtime.commands.handle(callDecider, callStream(callIds[index]!), {
      type: 'PlaceCall',
      facts: placeableFacts(),
      data: {
        call_id: callIds[index]!, workspace_id: workspaceId, campaign_id: campaignId, contact_index: index, attempt: 1, contact: { phone, name },
        language: 'en-IN', script_id: scriptId, script_version: 1, variables: contactTemplateValues({ phone, name, variables }), recording_enabled: false, started_at: now.toISOString(),
      },
    }, context);
  };
  // Contact 0: reserved, never placed. Contact 1: placed and claimed by the runner (it may have rung), no end.
  // Contact 2: placed, not claimed (nobody dialed it).
  await reserve(0);
  await reserve(1);
  await place(1);
  await runtime.commands.handle(callDecider, callStream(callIds[1]!), { type: 'RecordCallDialingStarted', data: { at: now.toISOString() } }, context);
  await reserve(2);
  await place(2);
  return { workspaceId, campaignId, callIds };
}

for (const checkpoints of ['before the crash state', 'past the crash state'] as const) {
  test(`restart with process checkpoints ${checkpoints}: every attempt dialed once, the claimed call failed as interrupted, nothing lost`, async () => {
    const crashed = testRuntime();
    await crashed.runtime.start();
    const { campaignId, callIds } = await crashState(crashed.runtime);
    if (checkpoints === 'past the crash state') {
      const head = await crashed.runtime.store.headPosition();
      const save = crashed.runtime.stateDb.prepare('INSERT OR REPLACE INTO process_checkpoints (name, position) VALUES (?, ?)');
      for (const name of ['calling-call-runner', 'calling-dialer']) save.run(name, head);
    }
    await crashed.runtime.close();

    const restarted = dialingRuntime({ dataDir: crashed.dataDir });
    await restarted.runtime.start();
    const done = await settled(restarted.runtime, campaignId, isCompleted);
    assert.is(done.calls_made, endings.length);
    assert.equal(done.contacts.map((c) => c.status), endings.map(() => 'final'));
    const records = await calls(restarted.runtime, campaignId);
    assert.is(records.length, endings.length);
    for (const record of records) {
      assert.is(record.events.filter((event) => event.type === 'CallDialingStarted').length, 1, `${record.callId} claimed once`);
    }
    const interrupted = records.find((record) => record.callId === callIds[1])!;
    assert.equal([interrupted.state.status, interrupted.state.failure_reason], ['failed', 'interrupted']);
    assert.is(done.contacts[1]!.disposition, 'not_reachable');
    assert.equal(done.contacts.map((c) => c.disposition), ['interested', 'not_reachable', 'callback', 'escalated', 'callback']);
    await restarted.runtime.close();
    restarted.remove();
  });
}

test('a number suppressed after its call was placed and before it was dialed: the call fails undialed (number_suppressed), the contact is final dnd', async () => {
  const first = testRuntime();
  await first.runtime.start();
  const { runtime } = first;
  const workspaceId = await createWorkspace(runtime);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('03')] });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const now = runtime.clock.now();
  const context = { workspaceId, actor: 'dialer', now };
  const callId = deterministicId('cal', campaignId, 0, 1);
  const { phone, name, ...variables } = contact('03');
  await runtime.commands.handle(campaignDecider, campaignStream(campaignId), { type: 'StartContactAttempt', data: { contact_index: 0, attempt: 1, call_id: callId, at: now.toISOString() } }, context);
  await runtime.commands.handle(callDecider, callStream(callId), {
    type: 'PlaceCall',
    facts: placeableFacts(),
    data: {
      call_id: callId, workspace_id: workspaceId, campaign_id: campaignId, contact_index: 0, attempt: 1, contact: { phone, name },
      language: 'en-IN', script_id: scriptId, script_version: 1, variables: contactTemplateValues({ phone, name, variables }), recording_enabled: false, started_at: now.toISOString(),
    },
  }, context);
  // The customer asked (through the API, say) not to be called, before the runner got to dial.
  await runtime.commands.handle(suppressionDecider, suppressionStream(workspaceId), { type: 'SuppressNumber', data: { phone, source: 'api', at: now.toISOString() } }, context);
  await runtime.close();

  const restarted = dialingRuntime({ dataDir: first.dataDir });
  await restarted.runtime.start();
  const done = await settled(restarted.runtime, campaignId, isCompleted);
  const [record] = await calls(restarted.runtime, campaignId);
  assert.equal([record!.state.status, record!.state.failure_reason], ['failed', 'number_suppressed']);
  assert.is(record!.events.filter((event) => event.type === 'CallDialingStarted').length, 0, 'never dialed');
  assert.equal([done.contacts[0]!.status, done.contacts[0]!.disposition], ['final', 'dnd']);
  await restarted.runtime.close();
  restarted.remove();
});

test.run();
