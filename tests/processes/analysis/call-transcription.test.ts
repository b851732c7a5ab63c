// Automatic call transcripts over real parts: call events appended through the command handler, the
// call-transcription process manager and the transcription worker in a runtime on SQLite, and
// GET /v1/calls/{id}/transcript through the HTTP app.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiKeyDecider, apiKeyStream } from '../../../domain/api-key.ts';
import { callDecider, callStream, type CallEnded, type CallPlacement, type CallTurn } from '../../../domain/call.ts';
import { workspaceDecider, workspaceStream } from '../../../domain/workspace.ts';
import { transcriptionJobDecider, transcriptionJobStream } from '../../../domain/transcription-job.ts';
import { createHttpApp } from '../../../http/app.ts';
import { hashApiKeySecret, newApiKeySecret } from '../../../infra/crypto/api-key-secret.ts';
import { newId } from '../../../infra/ids.ts';
import { deterministicId } from '../../../domain/shared/deterministic-id.ts';
import { createCallTranscription } from '../../../processes/analysis/call-transcription.ts';
import { createTranscriptionWorker } from '../../../processes/analysis/transcription-worker.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';
import { placeableFacts } from '../../support/call-facts.ts';
import type { Recorded } from '../../../infra/eventstore/port.ts';

const { runtime, remove } = testRuntime({ processes: (r) => [createTranscriptionWorker(r, { concurrency: 1 }), createCallTranscription(r)] });
await runtime.start();
const app = createHttpApp(runtime);

async function workspaceWithKey(): Promise<{ workspaceId: string; key: string }> {
  const now = runtime.clock.now();
  const workspaceId = newId('ws', now);
  const keyId = newId('key', now);
  const key = newApiKeySecret();
  const context = { workspaceId, actor: 'test', now };
  await runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'CreateWorkspace', workspaceId, name: 'Test', now }, context);
  const result = await runtime.commands.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    { type: 'CreateApiKey', keyId, workspaceId, name: 'test', scope: 'Read-Only', secretHash: hashApiKeySecret(key), now },
    context,
  );
  await runtime.projections.waitForPosition(result.position);
  return { workspaceId, key };
}

const mine = await workspaceWithKey();
const theirs = await workspaceWithKey();

async function transcriptOf(callId: string, key = mine.key): Promise<{ status: number; body: any }> {
  const response = await app.request(`/v1/calls/${callId}/transcript`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

const TURNS: CallTurn[] = [
  { speaker: 'agent', text: 'Hello Ravi, your loan is due for renewal. Would you like to renew it?', start_seconds: 0.3, end_seconds: 4.1, step_id: 'offer' },
  { speaker: 'customer', text: 'Yes, I want to renew my loan, thank you.', start_seconds: 4.7, end_seconds: 6.9, step_id: 'offer', intent: 'affirm', confidence: 0.82 },
  { speaker: 'customer', text: '[pressed 1]', start_seconds: 7.2, end_seconds: 7.4, step_id: 'offer', dtmf: '1', intent: 'affirm' },
  { speaker: 'agent', text: 'Thank you, an advisor will call you tomorrow.', start_seconds: 7.8, end_seconds: 10.2, step_id: 'confirm' },
];

async function placeCall(workspaceId: string, language: CallPlacement['language'] = 'en-IN'): Promise<string> {
  const callId = newId('cal', runtime.clock.now());
  const data: CallPlacement = {
    call_id: callId,
    workspace_id: workspaceId,
    campaign_id: null,
    contact_index: null,
    attempt: null,
    contact: { phone: '+919800000003', name: 'Ravi' },
    language,
    script_id: 'scr_1',
    script_version: 1,
    variables: {},
    recording_enabled: false,
    started_at: runtime.clock.now().toISOString(),
  };
  const placed = await runtime.commands.handle(callDecider, callStream(callId), { type: 'PlaceCall', facts: placeableFacts(), data }, { workspaceId, actor: 'test', now: runtime.clock.now() });
  // As POST /v1/calls does before it answers: GETs read the read models.
  await runtime.projections.waitForPosition(placed.position);
  return callId;
}

async function endCall(callId: string, workspaceId: string, answered: boolean): Promise<void> {
  const now = runtime.clock.now().toISOString();
  await runtime.commands.handle(
    callDecider,
    callStream(callId),
    {
      type: 'RecordCallResult',
      data: answered
        ? { answered_at: now, turns: TURNS, escalation: null, disposition: 'interested', duration_seconds: 11, ended_at: now }
        : { answered_at: null, turns: [], escalation: null, disposition: 'not_reachable', duration_seconds: 0, ended_at: now },
    },
    { workspaceId, actor: 'test', now: runtime.clock.now() },
  );
}

test('an answered call gets job deterministicId(job, call_id) with the live conversation, and the transcript endpoint follows it', async () => {
  const callId = await placeCall(mine.workspaceId);
  assert.equal(await transcriptOf(callId), { status: 200, body: { status: 'processing' } });
  await endCall(callId, mine.workspaceId, true);
  const jobId = deterministicId('job', callId);
  await eventually(async () => (await runtime.commands.load(callDecider, callStream(callId))).state.transcript_job_id === jobId, 10_000, 'the job assignment');
  await eventually(async () => (await transcriptOf(callId)).body.status === 'completed', 10_000, 'the call transcript');
  const { body } = await transcriptOf(callId);
  assert.equal(Object.keys(body), ['call_id', 'job_id', 'status', 'language', 'duration_seconds', 'transcript', 'summary', 'sentiment']);
  assert.equal([body.call_id, body.job_id, body.language, body.duration_seconds], [callId, jobId, 'en-IN', 11]);
  assert.equal(body.transcript, [
    { speaker: 'agent', text: TURNS[0]!.text, start_time: 0.3, end_time: 4.1, confidence: 1 },
    // Every segment has a confidence (the spec lists it): the customer's is the recogniser's.
    { speaker: 'customer', text: TURNS[1]!.text, start_time: 4.7, end_time: 6.9, confidence: 0.82 },
    { speaker: 'agent', text: TURNS[3]!.text, start_time: 7.8, end_time: 10.2, confidence: 1 },
  ]);
  assert.match(body.summary, /loan_renewal_interest|renew/i);
  assert.match(body.summary, /interested/);
  assert.ok(body.sentiment.overall > 0);
  const submitted = (await runtime.store.readStream(transcriptionJobStream(jobId)))[0]!;
  assert.equal([submitted.data.call_id, submitted.data.features, submitted.metadata.workspace_id], [callId, ['transcription', 'summary', 'sentiment', 'intent'], mine.workspaceId]);
});

test('a replayed CallEnded submits nothing twice', async () => {
  const callId = await placeCall(mine.workspaceId);
  await endCall(callId, mine.workspaceId, true);
  const jobId = deterministicId('job', callId);
  await eventually(async () => (await runtime.commands.load(transcriptionJobDecider, transcriptionJobStream(jobId))).state.status === 'completed', 10_000, 'the job');
  const ended = (await runtime.store.readStream(callStream(callId))).find((event) => event.type === 'CallEnded')!;
  await createCallTranscription(runtime).handle(ended as Recorded<CallEnded>);
  assert.is((await runtime.store.readStream(transcriptionJobStream(jobId))).length, 3);
  assert.is((await runtime.store.readStream(callStream(callId))).filter((event) => event.type === 'CallTranscriptJobAssigned').length, 1);
});

test('a call nobody answered has no job and no transcript; another workspace\'s call does not exist', async () => {
  const callId = await placeCall(mine.workspaceId);
  await endCall(callId, mine.workspaceId, false);
  await runtime.projections.catchUp();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is((await runtime.store.readStream(transcriptionJobStream(deterministicId('job', callId)))).length, 0);
  const missing = await transcriptOf(callId);
  assert.is(missing.status, 404);
  assert.equal([missing.body.error.code, missing.body.error.details.resource_type], ['resource_not_found', 'call_transcript']);
  const foreign = await transcriptOf(callId, theirs.key);
  assert.equal([foreign.status, foreign.body.error.details], [404, { resource_type: 'call', id: callId }]);
  assert.is((await transcriptOf('cal_unknown')).status, 404);
});

test('a Hindi call is analysed from its conversation text: no recogniser is needed', async () => {
  const callId = await placeCall(mine.workspaceId, 'hi-IN');
  await endCall(callId, mine.workspaceId, true);
  await eventually(async () => (await transcriptOf(callId)).body.status === 'completed', 10_000, 'the Hindi call transcript');
  assert.is((await transcriptOf(callId)).body.language, 'hi-IN');
});

test.after(async () => {
  await runtime.close();
  remove();
});

test.run();
