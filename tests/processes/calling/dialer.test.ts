import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  advance,
  calls,
  campaignAction,
  contact,
  createCampaign,
  createScript,
  createWorkspace,
  dialingRuntime,
  isCompleted,
  isWaitingForRetries,
  phone,
  settled,
} from './dialing-support.ts';

// The dialer and the call runner over the real runtime: SQLite event store and read models, the manual clock, the
// durable timers and the real sandbox carrier with the real conversation engine. Recording is off unless a test
// says otherwise.

const SANDBOX_ROWS = [
  ['00', 'not_reachable', 2],
  ['01', 'not_reachable', 2],
  ['02', 'not_reachable', 1],
  ['03', 'interested', 1],
  ['04', 'not_interested', 1],
  ['05', 'callback', 1],
  ['06', 'escalated', 1],
  ['07', 'dnd', 1],
  ['08', 'interested', 2],
  ['09', 'callback', 1],
] as const;

test('the sandbox table with max_attempts 2: dispositions, retries on the manual clock, calls_made, the 02 call failed', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  const scriptId = await createScript(runtime, workspaceId);
  const campaignId = await createCampaign(runtime, workspaceId, scriptId, {
    contacts: SANDBOX_ROWS.map(([ending]) => contact(ending)),
    max_attempts: 2,
    retry_interval_minutes: 60,
  });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const firstRound = await settled(runtime, campaignId, isWaitingForRetries);
  assert.is(firstRound.calls_made, 10);
  assert.equal(
    firstRound.contacts.filter((c) => c.status === 'awaiting_retry').map((c) => c.phone.slice(-2)),
    ['00', '01', '08'],
  );
  // Not due yet: nothing is dialed before the retry interval has passed.
  await advance(runtime, 59 * 60);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is((await settled(runtime, campaignId, isWaitingForRetries)).calls_made, 10);
  await advance(runtime, 60);
  const done = await settled(runtime, campaignId, isCompleted);
  assert.is(done.completion_reason, 'all_contacts_final');
  assert.is(done.calls_made, 13);
  for (const [ending, disposition, attempts] of SANDBOX_ROWS) {
    const found = done.contacts.find((c) => c.phone === phone(ending))!;
    assert.is(found.disposition, disposition, `…${ending}`);
    assert.is(found.attempts, attempts, `attempts of …${ending}`);
  }
  assert.equal(done.disposition_summary, { interested: 2, not_interested: 1, callback: 2, not_reachable: 3, dnd: 1, escalated: 1 });
  const records = await calls(runtime, campaignId);
  assert.is(records.length, 13);
  const failed = records.filter((record) => record.state.status === 'failed');
  assert.equal(failed.map((record) => [record.state.placed!.contact.phone.slice(-2), record.state.failure_reason]), [['02', 'invalid_number']]);
  // Every call was claimed once and ended once; none ends ahead of the clock.
  const now = runtime.clock.now().getTime();
  for (const record of records) {
    assert.is(record.events.filter((event) => event.type === 'CallDialingStarted').length, 1);
    assert.ok(Date.parse(record.state.ended_at!) <= now, `${record.callId} ended at ${record.state.ended_at}, after ${new Date(now).toISOString()}`);
  }
  await runtime.close();
  remove();
});

test.run();
