// End to end over the real server: POST/GET /v1/transcription, the job shapes per status, validation details,
// workspace isolation, and the worker wired into the server (transcript-input jobs, failing audio jobs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inProcessApp } from '../support/app.ts';
import { RENEWAL_TRANSCRIPT } from '../support/transcripts.ts';
import { client, createWorkspace, freePort, startServer, type ApiClient } from '../support/server.ts';

const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: 'true', WORKER_CONCURRENCY: '2' } });
const api: ApiClient = client(server, (await createWorkspace(server, 'Analysis')).key);
const stranger: ApiClient = client(server, (await createWorkspace(server, 'Other')).key);
const closedPort = await freePort();

const TRANSCRIPT = RENEWAL_TRANSCRIPT;
const SCORECARD = {
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [
    { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning'] }, within_seconds: 15 } },
    { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } },
  ],
};

async function settled(jobId: string, as: ApiClient = api): Promise<Record<string, any>> {
  const started = Date.now();
  for (;;) {
    const response = await as.get(`/v1/transcription/${jobId}`);
    assert.is(response.status, 200, response.text);
    if (response.body.status === 'completed' || response.body.status === 'failed') return response.body;
    assert.not.ok('transcript' in response.body, 'no transcript before completion');
    assert.is(response.body.completed_at, null);
    if (Date.now() - started > 20_000) throw new Error(`job ${jobId} still ${response.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function invalid(body: unknown): Promise<Record<string, unknown>> {
  const response = await api.post('/v1/transcription', body);
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter');
  return response.body.error.details;
}

test('a transcript job: 202 pending, then completed with exactly the requested features', async () => {
  const submitted = await api.post('/v1/transcription', {
    transcript: TRANSCRIPT,
    language: 'en-IN',
    features: ['summary', 'sentiment', 'intent'],
    metadata: { crm_ticket: 'T-1', nested: { a: [1, 2] } },
  });
  assert.is(submitted.status, 202, submitted.text);
  assert.equal(Object.keys(submitted.body).sort(), ['created_at', 'job_id', 'status']);
  assert.match(submitted.body.job_id, /^job_/);
  assert.is(submitted.body.status, 'pending');
  const job = await settled(submitted.body.job_id);
  assert.equal(Object.keys(job), [
    'job_id', 'status', 'language', 'features', 'call_id', 'transcript', 'duration_seconds', 'summary', 'sentiment', 'intent', 'analyzer', 'metadata', 'created_at', 'completed_at',
  ]);
  // No ANALYZER_API_URL: the offline analyzer, and no fallback to report.
  assert.equal(job.analyzer, { name: 'lexicon', model: null, fallback_reason: null, fallback_detail: null });
  assert.is(job.status, 'completed');
  assert.equal(job.features, ['transcription', 'summary', 'sentiment', 'intent']);
  assert.equal(job.transcript, TRANSCRIPT);
  assert.is(job.intent, 'loan_renewal_interest');
  assert.type(job.summary, 'string');
  assert.ok(job.sentiment.overall > 0 && 'customer' in job.sentiment.by_speaker);
  assert.equal(job.metadata, { crm_ticket: 'T-1', nested: { a: [1, 2] } });
  assert.is(job.created_at, submitted.body.created_at);
  assert.type(job.completed_at, 'string');
  assert.is(job.call_id, null);
});

test('default features: summary and intent are null, sentiment and qa_score absent; metadata null when not sent', async () => {
  const submitted = await api.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN' });
  const job = await settled(submitted.body.job_id);
  assert.equal(job.features, ['transcription']);
  assert.is(job.summary, null);
  assert.is(job.intent, null);
  assert.not.ok('sentiment' in job);
  assert.not.ok('qa_score' in job);
  assert.is(job.metadata, null);
});

test('qa_scoring with a scorecard of the workspace gives qa_score as the spec shows it', async () => {
  const scorecard = await api.post('/v1/qa/scorecards', SCORECARD);
  assert.is(scorecard.status, 201, scorecard.text);
  const submitted = await api.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN', features: ['qa_scoring'], qa_scorecard_id: scorecard.body.id });
  assert.is(submitted.status, 202, submitted.text);
  const job = await settled(submitted.body.job_id);
  assert.equal(job.qa_score, {
    overall_score: 100,
    parameter_scores: [
      { parameter_name: 'greeting', score: 10, max_score: 10, passed: true },
      { parameter_name: 'no_threats', score: 30, max_score: 30, passed: true },
    ],
    passed: true,
    pass_threshold: 70,
  });
  // Another workspace's scorecard does not exist for this one.
  const foreign = await stranger.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN', features: ['qa_scoring'], qa_scorecard_id: scorecard.body.id });
  assert.is(foreign.status, 404);
  assert.equal(foreign.body.error.details, { resource_type: 'qa_scorecard', id: scorecard.body.id });
});

test('audio jobs that fail: HTTP 404 and a closed port are audio_unreachable; Hindi without a recogniser is language_not_supported', async () => {
  const unreachable = await api.post('/v1/transcription', { audio_url: `http://127.0.0.1:${closedPort}/call.wav`, language: 'en-IN', metadata: { n: 1 } });
  assert.is(unreachable.status, 202);
  const hindi = await api.post('/v1/transcription', { audio_url: `http://127.0.0.1:${closedPort}/hindi.mp3`, language: 'hi-IN', features: ['summary', 'sentiment'] });
  const failed = await settled(unreachable.body.job_id);
  assert.is(failed.status, 'failed');
  assert.is(failed.error.code, 'audio_unreachable');
  assert.match(failed.error.message, /connection refused/);
  assert.type(failed.completed_at, 'string');
  assert.not.ok('transcript' in failed);
  assert.equal(failed.metadata, { n: 1 });
  const notSupported = await settled(hindi.body.job_id);
  assert.is(notSupported.error.code, 'language_not_supported');
  assert.match(notSupported.error.message, /SPEECH_API_URL/);
  assert.is(notSupported.summary, null);
  assert.is(notSupported.sentiment, null);
});

test('validation: each refusal names its field, what was sent and what is expected', async () => {
  assert.equal(await invalid({ language: 'en-IN' }), {
    field: 'audio_url',
    provided: null,
    expected: 'an http or https URL of the recording, or a transcript array (exactly one of the two)',
  });
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', transcript: TRANSCRIPT, language: 'en-IN' })).field, 'transcript');
  assert.equal(await invalid({ audio_url: 'ftp://example.com/a.wav', language: 'en-IN' }), { field: 'audio_url', provided: 'ftp://example.com/a.wav', expected: 'an http or https URL of the recording' });
  assert.equal(await invalid({ audio_url: 'https://example.com/a.wav', language: 'english' }), { field: 'language', provided: 'english', expected: 'BCP-47 language code <language>-<REGION>, e.g. hi-IN' });
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', language: 'fr-FR' })).expected, 'one of hi-IN, ta-IN, en-IN, te-IN, mr-IN, en-US, en-GB');
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', speakers: 0 })).field, 'speakers');
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', speakers: 11 })).provided, 11);
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', speakers: 2.5 })).field, 'speakers');
  const feature = await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', features: ['transcription', 'emotion'] });
  assert.equal([feature.field, feature.provided], ['features[1]', 'emotion']);
  assert.equal(await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', features: ['qa_scoring'] }), {
    field: 'qa_scorecard_id',
    provided: null,
    expected: 'the id of a QA scorecard of this workspace (required with the qa_scoring feature)',
  });
  const segment = await invalid({ transcript: [{ speaker: 'agent', text: 'hi', start_time: 3, end_time: 2 }], language: 'en-IN' });
  assert.equal([segment.field, segment.provided], ['transcript[0].end_time', 2]);
  assert.equal((await invalid({ transcript: [{ speaker: 'agent', text: 'hi', txt: 'hi', start_time: 0, end_time: 1 }], language: 'en-IN' })).field, 'transcript[0].txt');
  assert.equal((await invalid({ audio_ulr: 'https://example.com/a.wav', language: 'en-IN' })).field, 'audio_ulr');
  assert.equal((await invalid({ audio_url: 'https://example.com/a.wav', language: 'en-IN', metadata: 'crm' })).field, 'metadata');
  const unknown = await api.post('/v1/transcription', { audio_url: 'https://example.com/a.wav', language: 'en-IN', features: ['qa_scoring'], qa_scorecard_id: 'qsc_nope' });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body.error, { code: 'resource_not_found', message: 'No qa_scorecard with id qsc_nope.', details: { resource_type: 'qa_scorecard', id: 'qsc_nope' } });
});

test('transcript limits that match the 4-hour audio limit: no end_time past 14,400 s, at most 1,000,000 characters in all', async () => {
  const late = await invalid({
    transcript: [{ speaker: 'agent', text: 'hello', start_time: 0, end_time: 2 }, { speaker: 'customer', text: 'hi', start_time: 14_399, end_time: 14_400.5 }],
    language: 'en-IN',
  });
  assert.equal(late, { field: 'transcript[1].end_time', provided: 14_400.5, expected: 'a number of seconds from 0 to 14400 (4 hours, the longest recording accepted)' });
  // Exactly 4 hours is accepted.
  const fourHours = await api.post('/v1/transcription', { transcript: [{ speaker: 'agent', text: 'hello', start_time: 14_390, end_time: 14_400 }], language: 'en-IN' });
  assert.is(fourHours.status, 202, fourHours.text);

  // 101 segments of 9,901 characters: 1,000,001 in all, each segment within its own 10,000; one character less is accepted.
  const text = (length: number) => 'loan '.repeat(length / 5 + 1).slice(0, length);
  const segments = Array.from({ length: 101 }, (_, index) => ({ speaker: 'agent', text: text(9_901), start_time: index, end_time: index + 1 }));
  assert.is(segments.reduce((sum, segment) => sum + segment.text.length, 0), 1_000_001);
  const response = await api.post('/v1/transcription', { transcript: segments, language: 'en-IN' });
  assert.is(response.status, 400, response.text);
  assert.equal(response.body, {
    error: {
      code: 'invalid_parameter',
      message: 'Invalid transcript: expected at most 1000000 characters of text in all segments together.',
      details: { field: 'transcript', provided: 1_000_001, expected: 'at most 1000000 characters of text in all segments together' },
    },
  });
  segments[0]!.text = text(9_900);
  const atLimit = await api.post('/v1/transcription', { transcript: segments, language: 'en-IN' });
  assert.is(atLimit.status, 202, atLimit.text);
});

test('an audio_url the worker would refuse is refused at once (400) when private targets are not allowed', async () => {
  const app = await inProcessApp();
  try {
    const { key } = await app.workspace();
    const urls = ['http://127.0.0.1:8080/a.wav', 'https://10.1.2.3/a.wav', 'http://169.254.169.254/latest/meta-data', 'http://localhost/a.wav', 'http://[::1]/a.wav', 'https://user:pw@127.0.0.1/a.wav'];
    for (const url of urls) {
      const response = await app.app.request('/v1/transcription', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ audio_url: url, language: 'en-IN' }),
      });
      const body = (await response.json()) as { error: { code: string; details: Record<string, unknown> } };
      assert.is(response.status, 400, url);
      assert.is(body.error.code, 'invalid_parameter');
      assert.is(body.error.details.field, 'audio_url');
      assert.is(body.error.details.provided, url);
      assert.match(String(body.error.details.expected), /public addresses/);
    }
    assert.is((await app.app.request('/v1/transcription', { headers: { authorization: `Bearer ${key}` } })).status, 200);
    const listed = (await (await app.app.request('/v1/transcription', { headers: { authorization: `Bearer ${key}` } })).json()) as { total: number };
    assert.is(listed.total, 0, 'no job was created');
  } finally {
    await app.close();
  }
});

test('another workspace\'s job and an unknown job are resource_not_found; the list shows only the workspace\'s jobs', async () => {
  const submitted = await api.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN' });
  await settled(submitted.body.job_id);
  const foreign = await stranger.get(`/v1/transcription/${submitted.body.job_id}`);
  assert.is(foreign.status, 404);
  assert.equal(foreign.body.error.details, { resource_type: 'transcription_job', id: submitted.body.job_id });
  assert.is((await api.get('/v1/transcription/job_unknown')).status, 404);
  const page = await api.get('/v1/transcription?limit=2');
  assert.is(page.status, 200);
  assert.is(page.body.data.length, 2);
  assert.ok(page.body.total >= 6, `total ${page.body.total}`);
  assert.is(page.body.data[0].job_id, submitted.body.job_id, 'newest first');
  assert.not.ok('transcript' in page.body.data[0]);
  const failed = await api.get('/v1/transcription?status=failed');
  assert.is(failed.body.total, 2);
  assert.ok(failed.body.data.every((job: { status: string }) => job.status === 'failed'));
  assert.is((await stranger.get('/v1/transcription')).body.total, 0);
  assert.is((await api.get('/v1/transcription?status=done')).status, 400);
});

test('a job submitted just before a restart completes after it', async () => {
  const submitted = await api.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN', features: ['intent'] });
  await server.restart();
  const job = await settled(submitted.body.job_id);
  assert.is(job.status, 'completed');
  assert.is(job.intent, 'loan_renewal_interest');
});

test.after(async () => server.stop());

test.run();
