import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../composition.ts';
import { callDecider, callStream, type CallCommand, type CallPlacement, type PlaceCall } from '../../domain/call.ts';
import { deterministicId } from '../../domain/shared/deterministic-id.ts';
import { findCall, findCallRecordingKey, listCalls } from '../../projections/calls.ts';
import { testRuntime } from '../support/runtime.ts';
import { placeableFacts } from '../support/call-facts.ts';

const calls = suite('calls projection');
let runtime: Runtime;
let remove: () => void;

calls.before(async () => {
  ({ runtime, remove } = testRuntime());
});
calls.after(async () => {
  await runtime.close();
  remove();
});

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const minute = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function placed(callId: string, overrides: Partial<CallPlacement> = {}): PlaceCall {
  return {
    type: 'PlaceCall',
    facts: placeableFacts(),
    data: {
      call_id: callId,
      workspace_id: 'ws_a',
      campaign_id: 'cmp_a',
      contact_index: 4,
      attempt: 2,
      contact: { phone: '+919876500003', name: 'Asha' },
      language: 'hi-IN',
      script_id: 'scr_a',
      script_version: 2,
      variables: { amount: 5000 },
      recording_enabled: true,
      started_at: minute(0),
      ...overrides,
    },
  };
}

async function handle(callId: string, command: CallCommand, workspaceId = 'ws_a'): Promise<void> {
  await runtime.commands.handle(callDecider, callStream(callId), command, { workspaceId, actor: 'test', now: new Date() });
}

calls('placed: in progress, nothing ended, no transcript or recording yet', async () => {
  await handle('cal_1', placed('cal_1'));
  await runtime.projections.catchUp();
  assert.equal(findCall(runtime.readDb, 'ws_a', 'cal_1'), {
    id: 'cal_1',
    workspace_id: 'ws_a',
    campaign_id: 'cmp_a',
    contact_index: 4,
    attempt: 2,
    contact: { phone: '+919876500003', name: 'Asha' },
    status: 'in_progress',
    disposition: null,
    duration_seconds: 0,
    language: 'hi-IN',
    script_id: 'scr_a',
    script_version: 2,
    recording_enabled: true,
    started_at: minute(0),
    answered_at: null,
    ended_at: null,
    failure_reason: null,
    escalation: null,
    recording_blob_key: null,
    transcript_job_id: null,
    agent_id: null,
    caller_id: null,
    answered_by: null,
    transfer: null,
  });
  assert.is(findCall(runtime.readDb, 'ws_b', 'cal_1'), undefined, 'another workspace does not see it');
});

calls('answered, escalated and ended in one result, then recorded: the full record and the transcript job id', async () => {
  await handle('cal_2', placed('cal_2'));
  await handle('cal_2', {
    type: 'RecordCallResult',
    data: {
      answered_at: '2026-03-01T10:00:04.000Z',
      turns: [{ speaker: 'agent', text: 'Namaste', start_seconds: 0.3, end_seconds: 1.5 }],
      escalation: { reason: 'customer_requested_agent', escalated_at: '2026-03-01T10:00:20.000Z', summary: 'Asked for an agent about the loan.', agent_id: 'agt_1' },
      disposition: 'escalated',
      duration_seconds: 21,
      ended_at: '2026-03-01T10:00:25.000Z',
    },
  });
  await handle('cal_2', { type: 'StoreCallRecording', data: { blob_key: 'recordings/cal_2.wav', duration_seconds: 21.2, content_type: 'audio/wav' } });
  await runtime.projections.catchUp();
  const call = findCall(runtime.readDb, 'ws_a', 'cal_2')!;
  assert.is(call.status, 'completed');
  assert.is(call.disposition, 'escalated');
  assert.is(call.duration_seconds, 21);
  assert.is(call.answered_at, '2026-03-01T10:00:04.000Z');
  assert.is(call.ended_at, '2026-03-01T10:00:25.000Z');
  assert.equal(call.escalation, {
    escalation_reason: 'customer_requested_agent',
    escalated_at: '2026-03-01T10:00:20.000Z',
    summary: 'Asked for an agent about the loan.',
    agent_id: 'agt_1',
    unassigned_reason: null,
  });
  assert.is(call.agent_id, 'agt_1', 'the agent who took the call over handled it');
  assert.is(call.recording_blob_key, 'recordings/cal_2.wav');
  assert.is(findCallRecordingKey(runtime.readDb, 'cal_2'), 'recordings/cal_2.wav');
  assert.is(call.transcript_job_id, deterministicId('job', 'cal_2'), 'an answered call names its transcript job at once');

  await handle('cal_2', { type: 'AssignCallTranscriptJob', data: { job_id: 'job_explicit' } });
  await runtime.projections.catchUp();
  assert.is(findCall(runtime.readDb, 'ws_a', 'cal_2')!.transcript_job_id, 'job_explicit', 'an assigned job wins');
});

calls('not answered: completed not_reachable with no transcript job; failed: the reason', async () => {
  await handle('cal_3', placed('cal_3'));
  await handle('cal_3', { type: 'EndCall', data: { disposition: 'not_reachable', duration_seconds: 0, ended_at: minute(1) } });
  await handle('cal_4', placed('cal_4'));
  // The end may name the start of the call's own timeline (the sandbox's): it replaces CallPlaced's.
  await handle('cal_4', { type: 'FailCall', data: { reason: 'invalid_number', ended_at: minute(1), started_at: '2026-03-01T10:00:59.000Z' } });
  await runtime.projections.catchUp();
  const unanswered = findCall(runtime.readDb, 'ws_a', 'cal_3')!;
  assert.equal([unanswered.status, unanswered.disposition, unanswered.transcript_job_id, unanswered.failure_reason], ['completed', 'not_reachable', null, null]);
  const failed = findCall(runtime.readDb, 'ws_a', 'cal_4')!;
  assert.equal([failed.status, failed.disposition, failed.transcript_job_id, failed.failure_reason], ['failed', 'not_reachable', null, 'invalid_number']);
  assert.is(failed.started_at, '2026-03-01T10:00:59.000Z');
  assert.is(unanswered.started_at, minute(0));
  assert.is(findCallRecordingKey(runtime.readDb, 'cal_4'), null);
});

calls('list: exactly the spec list fields, newest first, every filter and their combinations', async () => {
  const workspaceId = 'ws_list';
  const spec: Array<[string, string | null, string, number, 'interested' | 'not_interested' | null]> = [
    ['cal_l0', 'cmp_x', 'hi-IN', 0, 'interested'],
    ['cal_l1', 'cmp_x', 'ta-IN', 10, 'not_interested'],
    ['cal_l2', 'cmp_y', 'hi-IN', 20, 'interested'],
    ['cal_l3', null, 'hi-IN', 30, null],
  ];
  for (const [id, campaignId, language, startedMinute, disposition] of spec) {
    await handle(id, placed(id, { workspace_id: workspaceId, campaign_id: campaignId, language: language as 'hi-IN', started_at: minute(startedMinute) }), workspaceId);
    if (disposition) {
      await handle(id, { type: 'RecordCallResult', data: { answered_at: minute(startedMinute), turns: [], escalation: null, disposition, duration_seconds: 30, ended_at: minute(startedMinute + 1) } }, workspaceId);
    }
  }
  await runtime.projections.catchUp();
  const ids = (filter: Parameters<typeof listCalls>[2], limit = 10, offset = 0) => listCalls(runtime.readDb, workspaceId, filter, limit, offset).data.map((call) => call.id);
  const page = listCalls(runtime.readDb, workspaceId, {}, 2, 0);
  assert.is(page.total, 4);
  assert.equal(page.data[0], {
    id: 'cal_l3',
    campaign_id: null,
    contact: { phone: '+919876500003', name: 'Asha' },
    status: 'in_progress',
    disposition: null,
    duration_seconds: 0,
    language: 'hi-IN',
    started_at: minute(30),
    ended_at: null,
  });
  assert.equal(page.data.map((call) => call.id), ['cal_l3', 'cal_l2']);
  assert.equal(ids({}, 10, 2), ['cal_l1', 'cal_l0']);
  assert.equal(ids({ campaign_id: 'cmp_x' }), ['cal_l1', 'cal_l0']);
  assert.equal(ids({ disposition: 'interested' }), ['cal_l2', 'cal_l0']);
  assert.equal(ids({ language: 'ta-IN' }), ['cal_l1']);
  assert.equal(ids({ from: minute(10), to: minute(20) }), ['cal_l2', 'cal_l1'], 'both bounds inclusive');
  assert.equal(ids({ campaign_id: 'cmp_x', disposition: 'interested', language: 'hi-IN', from: minute(0), to: minute(5) }), ['cal_l0']);
  assert.is(listCalls(runtime.readDb, workspaceId, { campaign_id: 'cmp_x', language: 'te-IN' }, 10, 0).total, 0);
  assert.is(listCalls(runtime.readDb, 'ws_nobody', {}, 10, 0).total, 0);
});

calls.run();
