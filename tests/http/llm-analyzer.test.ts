// End to end: the real server configured with ANALYZER_API_URL pointing at a real chat-completions server on
// 127.0.0.1. A transcript job submitted through POST /v1/transcription is analysed by the LLM and read back with
// GET; a failing LLM leaves the job completed by the lexicon analyzer with the reason; the key is sent as a bearer
// token and appears in no log line; a bad configuration stops the server at start with a clear message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startChatCompletionsServer, type ChatRequest, type ChatReply } from '../support/chat-completions-server.ts';
import { client, createWorkspace, startServer, type ApiClient } from '../support/server.ts';
import { RENEWAL_TRANSCRIPT } from '../support/transcripts.ts';

const API_KEY = 'sk-e2e-analyzer-key-7f3a9c21d4e8b6';
const ANSWER = {
  summary: 'Asha from the bank called the customer about renewing the loan; the customer agreed and the team will call tomorrow.',
  sentiment: { overall: 0.8, by_speaker: { agent: 0.4, customer: 0.8 } },
  intent: 'loan_renewal_interest',
};

/** The scenario rides in the transcript's text, so each job picks how the LLM behaves. */
function reply(request: ChatRequest): ChatReply {
  const transcript = request.body.messages.find((message) => message.role === 'user')!.content;
  if (transcript.includes('SCENARIO_HTTP_500')) return { status: 500, rawBody: '{"error":"boom"}' };
  if (transcript.includes('SCENARIO_SLOW')) return { content: JSON.stringify(ANSWER), delayMs: 5_000 };
  if (transcript.includes('SCENARIO_BAD_JSON')) return { content: 'not json at all' };
  return { content: JSON.stringify(ANSWER) };
}

const llm = await startChatCompletionsServer(reply);
const server = await startServer({
  env: {
    ALLOW_PRIVATE_TARGETS: 'true',
    ANALYZER_API_URL: llm.url,
    ANALYZER_API_KEY: API_KEY,
    ANALYZER_MODEL: 'llama3.1:8b-instruct',
    ANALYZER_TIMEOUT_SECONDS: '1',
    ANALYZER_CONCURRENCY: '2',
    // Every line the server can write about the analyzer, to check none holds the key.
    LOG_LEVEL: 'debug',
  },
});
const api: ApiClient = client(server, (await createWorkspace(server, 'LLM analysis')).key);

test.after(async () => {
  await server.stop();
  await llm.close();
});

async function completedJob(transcript: unknown[], features = ['summary', 'sentiment', 'intent']): Promise<Record<string, any>> {
  const submitted = await api.post('/v1/transcription', { transcript, language: 'en-IN', features });
  assert.is(submitted.status, 202, submitted.text);
  const started = Date.now();
  for (;;) {
    const response = await api.get(`/v1/transcription/${submitted.body.job_id}`);
    assert.is(response.status, 200, response.text);
    if (response.body.status === 'completed' || response.body.status === 'failed') return response.body;
    if (Date.now() - started > 30_000) throw new Error(`job still ${response.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const withScenario = (scenario: string) => [...RENEWAL_TRANSCRIPT.slice(0, 2), { ...RENEWAL_TRANSCRIPT[2]!, text: `${RENEWAL_TRANSCRIPT[2]!.text} ${scenario}` }];

test('a transcript job is analysed by the LLM: its summary, sentiment and intent on the job, analyzer llm', async () => {
  const before = llm.requests.length;
  const job = await completedJob(RENEWAL_TRANSCRIPT);
  assert.is(job.status, 'completed');
  assert.is(job.summary, ANSWER.summary);
  assert.equal(job.sentiment, ANSWER.sentiment);
  assert.is(job.intent, 'loan_renewal_interest');
  assert.equal(job.analyzer, { name: 'llm', model: 'llama3.1:8b-instruct', fallback_reason: null, fallback_detail: null });
  const request = llm.requests[before]!;
  assert.is(request.headers.authorization, `Bearer ${API_KEY}`);
  assert.is(request.body.model, 'llama3.1:8b-instruct');
  assert.equal(request.body.response_format, { type: 'json_object' });
  // The list shows it too.
  const list = await api.get('/v1/transcription?limit=1');
  assert.equal(list.body.data[0].analyzer, job.analyzer);
});

test('the LLM answers HTTP 500: the job completes with the lexicon analysis and says why', async () => {
  const job = await completedJob(withScenario('SCENARIO_HTTP_500'));
  assert.is(job.status, 'completed');
  assert.equal(job.analyzer, { name: 'lexicon', model: null, fallback_reason: 'http_error', fallback_detail: 'the analyzer endpoint answered HTTP 500' });
  assert.is(job.intent, 'loan_renewal_interest');
  assert.type(job.summary, 'string');
  assert.not.equal(job.summary, ANSWER.summary);
});

test('the LLM is slower than ANALYZER_TIMEOUT_SECONDS: the job completes with the lexicon analysis (timeout)', async () => {
  const job = await completedJob(withScenario('SCENARIO_SLOW'));
  assert.is(job.status, 'completed');
  assert.is(job.analyzer.fallback_reason, 'timeout');
  assert.is(job.analyzer.fallback_detail, 'no answer within 1 s');
});

test('malformed JSON twice: the job completes with the lexicon analysis (invalid_json)', async () => {
  const before = llm.requests.length;
  const job = await completedJob(withScenario('SCENARIO_BAD_JSON'));
  assert.is(job.analyzer.fallback_reason, 'invalid_json');
  assert.is(llm.requests.length - before, 2);
});

test('a job without summary, sentiment or intent has no analyzer field and makes no LLM request', async () => {
  const before = llm.requests.length;
  const job = await completedJob(RENEWAL_TRANSCRIPT, ['transcription']);
  assert.is(job.status, 'completed');
  assert.not.ok('analyzer' in job);
  assert.is(llm.requests.length, before);
});

test('the API key is in no line the server wrote', () => {
  const output = server.output();
  assert.match(output, 'LLM analyzer failed', 'the fallbacks were logged');
  assert.not.ok(output.includes(API_KEY));
});

test('a bad configuration stops the server at start with a clear message', async () => {
  const refused = async (env: Record<string, string>, pattern: RegExp) => {
    try {
      const started = await startServer({ env });
      await started.stop();
      assert.unreachable(`started with ${JSON.stringify(env)}`);
    } catch (error) {
      assert.match((error as Error).message, pattern);
      assert.not.ok((error as Error).message.includes(API_KEY));
    }
  };
  await refused({ ANALYZER_API_URL: 'not a url', ANALYZER_MODEL: 'm', ANALYZER_API_KEY: API_KEY }, /ANALYZER_API_URL: an http:\/\/ or https:\/\/ URL/);
  await refused({ ANALYZER_API_URL: 'http://127.0.0.1:11434/v1', ANALYZER_API_KEY: API_KEY }, /ANALYZER_MODEL: required with ANALYZER_API_URL/);
});

test.run();
