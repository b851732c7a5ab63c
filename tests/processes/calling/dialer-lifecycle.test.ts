import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { campaignDecider, campaignStream } from '../../../domain/campaign.ts';
import { suppressionStream } from '../../../domain/suppression.ts';
import { timerStream } from '../../../domain/timer.ts';
import { eventually } from '../../support/runtime.ts';
import { scripts } from './fixtures.ts';
import {
  advance,
  calls,
  campaignAction,
  campaignState,
  contact,
  createCampaign,
  createScript,
  createWorkspace,
  dialingRuntime,
  isCompleted,
  phone,
  settled,
} from './dialing-support.ts';

/** The largest number of this workspace's calls on the line at once, from the global order of the events. */
async function maxOverlap(runtime: Runtime): Promise<number> {
  const events = await runtime.store.readAll({ after: 0, limit: 1_000_000 });
  let open = 0;
  let max = 0;
  for (const event of events) {
    if (event.type === 'CallPlaced') max = Math.max(max, ++open);
    if (event.type === 'CallEnded' || event.type === 'CallFailed') open--;
  }
  return max;
}

const answering = ['03', '04', '05', '06', '09', '13', '14', '15', '16', '23', '24', '25'];
/** Recorded calls speak Hindi: espeak-ng synthesises it in milliseconds (English uses the slower Festival voice). */
const recorded = { recording_enabled: true, language: 'hi-IN' };

test('the workspace concurrency limit bounds the calls on the line (recorded calls overlap), each recording a stereo WAV stored with the end', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime, 3);
  const campaignId = await createCampaign(runtime, workspaceId, await createScript(runtime, workspaceId, scripts.hi), {
    contacts: answering.map((ending) => contact(ending)),
    ...recorded,
  });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  const done = await settled(runtime, campaignId, isCompleted, 60_000);
  assert.is(done.calls_made, answering.length);
  assert.is(await maxOverlap(runtime), 3, 'the limit is reached and never exceeded');
  for (const record of await calls(runtime, campaignId)) {
    const ended = record.events.find((event) => event.type === 'CallEnded')!;
    const stored = record.events.find((event) => event.type === 'CallRecordingStored')!;
    // One append: consecutive revisions, the same command's metadata.
    assert.is(stored.revision, ended.revision + 1);
    assert.is(stored.metadata.correlation_id, ended.metadata.correlation_id);
    const wav = await readBlob(runtime, String(stored.data.blob_key));
    assert.is(wav.subarray(0, 4).toString('ascii'), 'RIFF');
    assert.is(wav.readUInt16LE(22), 2, 'stereo');
    const seconds = (wav.length - 44) / (wav.readUInt32LE(28));
    assert.ok(Math.abs(seconds - record.state.duration_seconds) <= 0.6, `${seconds} s of audio for ${record.state.duration_seconds} s`);
  }
  await runtime.close();
  remove();
});

test('pause lets the calls on the line finish and places no new one; resume continues; the campaign completes', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime, 2);
  const campaignId = await createCampaign(runtime, workspaceId, await createScript(runtime, workspaceId, scripts.hi), {
    contacts: answering.map((ending) => contact(ending)),
    ...recorded,
  });
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  await eventually(async () => (await campaignState(runtime, campaignId)).statusCounts.dialing > 0, 10_000, 'a call on the line');
  await campaignAction(runtime, workspaceId, campaignId, 'PauseCampaign');
  const atPause = await campaignState(runtime, campaignId);
  assert.ok(atPause.statusCounts.dialing > 0, 'calls were in progress when paused');
  const paused = await settled(runtime, campaignId, (state) => state.statusCounts.dialing === 0);
  assert.is(paused.status, 'paused');
  assert.is(paused.calls_made, atPause.calls_made, 'no call placed after the pause');
  assert.is(paused.statusCounts.final, atPause.calls_made, 'the calls in progress finished');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is((await campaignState(runtime, campaignId)).calls_made, atPause.calls_made);
  await campaignAction(runtime, workspaceId, campaignId, 'ResumeCampaign');
  const done = await settled(runtime, campaignId, isCompleted, 60_000);
  assert.is(done.calls_made, answering.length);
  await runtime.close();
  remove();
});

test('stop: the call on the line finishes, no pending contact is dialed; a removed contact is never called', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime, 1);
  const campaignId = await createCampaign(runtime, workspaceId, await createScript(runtime, workspaceId, scripts.hi), {
    contacts: answering.map((ending) => contact(ending)),
    ...recorded,
  });
  const removal = await runtime.commands.handle(
    campaignDecider,
    campaignStream(campaignId),
    { type: 'RemoveContacts', data: { phones: [phone('04')], at: runtime.clock.now().toISOString() } },
    { workspaceId, actor: 'test', now: runtime.clock.now() },
  );
  assert.is((removal.events[0]!.data as { removed: number }).removed, 1);
  await campaignAction(runtime, workspaceId, campaignId, 'StartCampaign');
  await eventually(async () => (await campaignState(runtime, campaignId)).calls_made >= 2, 20_000, 'two calls');
  await campaignAction(runtime, workspaceId, campaignId, 'StopCampaign');
  const stopped = await settled(runtime, campaignId, (state) => state.statusCounts.dialing === 0);
  assert.is(stopped.status, 'stopped');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await campaignState(runtime, campaignId);
  assert.is(after.calls_made, stopped.calls_made);
  assert.ok(after.calls_made < answering.length - 1, `${after.calls_made} calls`);
  assert.ok(after.statusCounts.pending > 0);
  const dialed = (await calls(runtime, campaignId)).map((record) => record.state.placed!.contact.phone);
  assert.not.ok(dialed.includes(phone('04')));
  await runtime.close();
  remove();
});

test('schedule in Asia/Kolkata: starts at 16:00 IST on its timer, completes at end_time 17:30 IST with a retry left undialed', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  // The clock starts at 10:00Z = 15:30 IST.
  const workspaceId = await createWorkspace(runtime);
  const campaignId = await createCampaign(runtime, workspaceId, await createScript(runtime, workspaceId), {
    contacts: [contact('00'), contact('03')],
    max_attempts: 2,
    retry_interval_minutes: 120,
    schedule: { start_time: '2026-03-01T16:00:00', end_time: '2026-03-01T17:30:00', timezone: 'Asia/Kolkata' },
  });
  await runtime.projections.catchUp();
  await eventually(async () => (await runtime.store.readStream(timerStream(`campaign-end-${campaignId}`))).length === 1, 5_000, 'the timers');
  await advance(runtime, 29 * 60);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is((await campaignState(runtime, campaignId)).status, 'scheduled');
  await advance(runtime, 60);
  const running = await settled(runtime, campaignId, (state) => state.statusCounts.pending === 0 && state.statusCounts.dialing === 0);
  assert.is(running.status, 'running');
  assert.is(running.started_at, '2026-03-01T10:30:00.000Z');
  assert.is(running.contacts[0]!.status, 'awaiting_retry');
  assert.is(running.contacts[0]!.retry_due_at, '2026-03-01T12:30:00.000Z');
  await advance(runtime, 90 * 60); // 12:00Z = 17:30 IST
  const done = await settled(runtime, campaignId, isCompleted);
  assert.is(done.completion_reason, 'end_time_reached');
  assert.is(done.ended_at, '2026-03-01T12:00:00.000Z');
  await advance(runtime, 60 * 60);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const later = await campaignState(runtime, campaignId);
  assert.is(later.calls_made, 2, 'the retry due after the end time is not dialed');
  assert.is(later.contacts[0]!.status, 'awaiting_retry');
  await runtime.close();
  remove();
});

test('calling hours 18:00-21:00 IST: nothing is dialed at 15:30 IST; dialing starts when they open', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  const campaignId = await createCampaign(runtime, workspaceId, await createScript(runtime, workspaceId), {
    contacts: [contact('03'), contact('04')],
    schedule: { start_time: '2026-03-01T15:00:00', timezone: 'Asia/Kolkata' },
    calling_hours: { start: '18:00', end: '21:00' },
  });
  await runtime.projections.catchUp();
  await runtime.timers.fireDue();
  await eventually(async () => (await runtime.store.readStream(timerStream(`calling-hours-${campaignId}-${Date.parse('2026-03-01T12:30:00Z')}`))).length === 1, 5_000, 'the reopening timer');
  const closed = await campaignState(runtime, campaignId);
  assert.is(closed.status, 'running');
  assert.is(closed.calls_made, 0);
  await advance(runtime, 149 * 60);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is((await campaignState(runtime, campaignId)).calls_made, 0, 'still closed at 17:59 IST');
  await advance(runtime, 60);
  const done = await settled(runtime, campaignId, isCompleted);
  assert.is(done.calls_made, 2);
  for (const record of await calls(runtime, campaignId)) assert.ok(record.state.placed!.started_at >= '2026-03-01T12:30:00.000Z');
  await runtime.close();
  remove();
});

test('dnd: the number goes on the do-not-call list; a later campaign finalises it as dnd without a call', async () => {
  const { runtime, remove } = dialingRuntime();
  await runtime.start();
  const workspaceId = await createWorkspace(runtime);
  const scriptId = await createScript(runtime, workspaceId);
  const first = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('07')] });
  await campaignAction(runtime, workspaceId, first, 'StartCampaign');
  assert.is((await settled(runtime, first, isCompleted)).disposition_summary.dnd, 1);
  const suppressions = await runtime.store.readStream(suppressionStream(workspaceId));
  assert.equal(suppressions.map((event) => [event.type, event.data.phone, event.data.source]), [['NumberSuppressed', phone('07'), 'call_outcome']]);
  const second = await createCampaign(runtime, workspaceId, scriptId, { contacts: [contact('07'), contact('03')] });
  await campaignAction(runtime, workspaceId, second, 'StartCampaign');
  const done = await settled(runtime, second, isCompleted);
  assert.is(done.calls_made, 1);
  assert.equal([done.contacts[0]!.disposition, done.contacts[0]!.attempts], ['dnd', 0]);
  assert.equal((await calls(runtime, second)).map((record) => record.state.placed!.contact.phone), [phone('03')]);
  await runtime.close();
  remove();
});

async function readBlob(runtime: Runtime, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of runtime.blobs.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test.run();
