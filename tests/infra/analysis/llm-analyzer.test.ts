// The LLM analyzer against a real chat-completions server on 127.0.0.1 (tests/support/chat-completions-server.ts),
// with the real lexicon analyzer as its fallback: good answers used, malformed answers retried once, slow, failing
// and out-of-range answers falling back with the reason, the concurrency limit, the bearer key, the outbound guard.
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createChatCompletionsClient, chatCompletionsEndpoint } from '../../../infra/analysis/chat-completions-client.ts';
import { inThreadTranscriptAnalysis } from '../../../infra/analysis/in-thread-analysis.ts';
import { llmTranscriptAnalysis } from '../../../infra/analysis/llm-transcript-analysis.ts';
import type { TranscriptAnalysis, TranscriptAnalysisInput } from '../../../infra/analysis/transcript-analysis.ts';
import { startChatCompletionsServer, type ChatReply } from '../../support/chat-completions-server.ts';
import { RENEWAL_TRANSCRIPT } from '../../support/transcripts.ts';

const API_KEY = 'sk-test-0123456789-secret-analyzer-key';
const GOOD = {
  summary: 'The agent called about renewing the loan; the customer agreed to renew and a callback is set for tomorrow.',
  sentiment: { overall: 0.6, by_speaker: { agent: 0.3, customer: 0.7 } },
  intent: 'loan_renewal_interest',
};
const INPUT: TranscriptAnalysisInput = {
  segments: RENEWAL_TRANSCRIPT,
  language: 'en-IN',
  features: ['transcription', 'summary', 'sentiment', 'intent'],
  disposition: null,
  scorecard: null,
};

let logText = '';
const logger = pino(
  { level: 'debug', base: undefined },
  new Writable({
    write(chunk, _encoding, callback) {
      logText += chunk.toString();
      callback();
    },
  }),
);

const server = await startChatCompletionsServer(() => ({ content: JSON.stringify(GOOD) }));
const offline = inThreadTranscriptAnalysis();

function analysis(options: { timeoutMs?: number; concurrency?: number; allowPrivateTargets?: boolean; maxInputTokens?: number } = {}): TranscriptAnalysis {
  const client = createChatCompletionsClient({
    url: server.url,
    apiKey: API_KEY,
    model: 'qwen2.5:7b-instruct',
    policy: { allowPrivateTargets: options.allowPrivateTargets ?? true, protocols: ['http:', 'https:'] },
    timeoutMs: options.timeoutMs ?? 5_000,
    maxOutputTokens: 500,
  });
  return llmTranscriptAnalysis(offline, { client, concurrency: options.concurrency ?? 2, maxInputTokens: options.maxInputTokens ?? 4_000, logger });
}

function script(...replies: ChatReply[]): void {
  server.reset((_request, index) => replies[Math.min(index, replies.length - 1)]!);
}

test.after(async () => {
  await server.close();
});

test('a good answer: summary, sentiment and intent come from the LLM; the request is the documented one', async () => {
  script({ content: JSON.stringify(GOOD) });
  const result = await analysis().analyse(INPUT);
  assert.is(result.summary, GOOD.summary);
  assert.equal(result.sentiment, GOOD.sentiment);
  assert.is(result.intent, 'loan_renewal_interest');
  assert.is(result.qa_score, null);
  assert.equal(result.analyzer, { name: 'llm', model: 'qwen2.5:7b-instruct', fallback_reason: null, fallback_detail: null });
  assert.is(server.requests.length, 1);
  const [request] = server.requests;
  assert.is(request!.path, '/v1/chat/completions');
  assert.is(request!.headers.authorization, `Bearer ${API_KEY}`);
  assert.is(request!.body.model, 'qwen2.5:7b-instruct');
  assert.equal(request!.body.response_format, { type: 'json_object' });
  assert.is(request!.body.max_tokens, 500);
  assert.is(request!.body.messages[0]!.role, 'system');
  assert.match(request!.body.messages[1]!.content, 'customer: Yes, I want to renew my loan.');
});

test('only the requested fields are asked for and used; QA scoring stays offline', async () => {
  script({ content: JSON.stringify({ intent: 'complaint' }) });
  const scorecard = { name: 'QA', pass_threshold: 50, parameters: [{ name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning'] } } }] };
  const result = await analysis().analyse({ ...INPUT, features: ['transcription', 'intent', 'qa_scoring'], scorecard: scorecard as never });
  assert.is(result.intent, 'complaint');
  assert.is(result.summary, null);
  assert.is(result.sentiment, null);
  assert.is(result.qa_score!.overall_score, 100, 'the offline scorecard check found the greeting');
  const system = server.requests[0]!.body.messages[0]!.content;
  assert.match(system, '"intent"');
  assert.not.match(system, '"summary"');
});

test('features the LLM does not answer (transcription, QA only) never call it', async () => {
  script({ status: 500 });
  const result = await analysis().analyse({ ...INPUT, features: ['transcription'] });
  assert.is(server.requests.length, 0);
  assert.is(result.analyzer, undefined);
});

test('malformed JSON, then a good answer on the retry: the retry shows the bad answer and what was wrong', async () => {
  script({ content: '{"summary": "The customer agreed' }, { content: JSON.stringify(GOOD) });
  const result = await analysis().analyse(INPUT);
  assert.is(result.analyzer!.name, 'llm');
  assert.is(result.summary, GOOD.summary);
  assert.is(server.requests.length, 2);
  const retry = server.requests[1]!.body.messages;
  assert.is(retry.length, 4);
  assert.equal(retry[2], { role: 'assistant', content: '{"summary": "The customer agreed' });
  assert.match(retry[3]!.content, 'not valid JSON');
});

test('a JSON object in a Markdown code fence, or after a reasoning block, is accepted', async () => {
  for (const content of ['```json\n' + JSON.stringify(GOOD) + '\n```', `<think>The customer agrees {not json}.</think>\n${JSON.stringify(GOOD)}`]) {
    script({ content });
    const result = await analysis().analyse(INPUT);
    assert.is(result.analyzer!.name, 'llm', content);
    assert.is(server.requests.length, 1);
  }
});

test('malformed twice: the lexicon analyzer answers and the job says why', async () => {
  script({ content: 'Sure! Here is the analysis: the customer wants to renew.' });
  const result = await analysis().analyse(INPUT);
  assert.is(server.requests.length, 2, 'one retry, no more');
  assert.equal(result.analyzer, { name: 'lexicon', model: null, fallback_reason: 'invalid_json', fallback_detail: 'the answer was not valid JSON (twice)' });
  assert.is(result.intent, 'loan_renewal_interest', 'the lexicon intent');
  assert.type(result.summary, 'string');
  assert.ok(result.sentiment!.overall > 0);
});

test('schema-invalid answers are rejected: sentiment 3.0, an unknown intent, a speaker not on the call, a missing field', async () => {
  const invalid: Array<[unknown, string]> = [
    [{ ...GOOD, sentiment: { overall: 3.0, by_speaker: { agent: 0, customer: 0.5 } } }, 'sentiment.overall'],
    [{ ...GOOD, intent: 'wants_pizza' }, 'intent'],
    [{ ...GOOD, sentiment: { overall: 0.5, by_speaker: { agent: 0, customer: 0.5, manager: 1 } } }, 'sentiment.by_speaker'],
    [{ summary: GOOD.summary, intent: GOOD.intent }, 'sentiment'],
    [{ ...GOOD, summary: '' }, 'summary'],
  ];
  for (const [answer, path] of invalid) {
    script({ content: JSON.stringify(answer) });
    const result = await analysis().analyse(INPUT);
    assert.is(server.requests.length, 2, `retried once: ${path}`);
    assert.is(result.analyzer!.fallback_reason, 'schema_invalid', path);
    assert.match(result.analyzer!.fallback_detail!, path);
    assert.is(result.intent, 'loan_renewal_interest', 'the lexicon answered');
    assert.ok(result.sentiment!.overall <= 1 && result.sentiment!.overall >= -1);
  }
});

test('schema-invalid, then valid on the retry: used', async () => {
  script({ content: JSON.stringify({ ...GOOD, intent: 'wants_pizza' }) }, { content: JSON.stringify(GOOD) });
  const result = await analysis().analyse(INPUT);
  assert.is(result.analyzer!.name, 'llm');
  assert.match(server.requests[1]!.body.messages[3]!.content, 'intent');
});

test('a Hindi call must get its summary in Devanagari; a Hinglish call in English', async () => {
  const hindi = [
    { speaker: 'agent', text: 'नमस्ते, आपका लोन नवीनीकरण के लिए देय है।', start_time: 0, end_time: 3 },
    { speaker: 'customer', text: 'जी हाँ, आगे बढ़िए।', start_time: 3, end_time: 5 },
  ];
  script({ content: JSON.stringify({ ...GOOD, summary: 'The customer agreed to renew.' }) });
  const rejected = await analysis().analyse({ ...INPUT, segments: hindi, language: 'hi-IN' });
  assert.is(rejected.analyzer!.fallback_reason, 'schema_invalid');
  script({ content: JSON.stringify({ ...GOOD, summary: 'एजेंट ने लोन नवीनीकरण के बारे में कॉल किया; ग्राहक सहमत हुए।' }) });
  const accepted = await analysis().analyse({ ...INPUT, segments: hindi, language: 'hi-IN' });
  assert.is(accepted.analyzer!.name, 'llm');
  assert.match(server.requests[0]!.body.messages[0]!.content, 'Devanagari');
  const hinglish = [
    { speaker: 'agent', text: 'Namaste, aapka loan renewal due hai.', start_time: 0, end_time: 3 },
    { speaker: 'customer', text: 'Haan ji, aage badhiye, renew kar dijiye.', start_time: 3, end_time: 5 },
  ];
  script({ content: JSON.stringify({ ...GOOD, summary: 'The customer agreed to renew the loan.' }) });
  const english = await analysis().analyse({ ...INPUT, segments: hinglish, language: 'hi-IN' });
  assert.is(english.analyzer!.name, 'llm');
  assert.match(server.requests[0]!.body.messages[0]!.content, 'in English');
});

test('an answer slower than the timeout: the lexicon analyzer answers (reason timeout)', async () => {
  script({ content: JSON.stringify(GOOD), delayMs: 3_000 });
  const result = await analysis({ timeoutMs: 300 }).analyse(INPUT);
  assert.is(result.analyzer!.fallback_reason, 'timeout');
  assert.is(result.analyzer!.fallback_detail, 'no answer within 0.3 s');
  assert.is(result.intent, 'loan_renewal_interest');
  assert.is(server.requests.length, 1, 'a timeout is not retried');
});

test('HTTP 500 and 429: the lexicon analyzer answers at once (reason http_error), no retry', async () => {
  for (const status of [500, 429]) {
    script({ status, rawBody: '{"error":{"message":"overloaded"}}' });
    const result = await analysis().analyse(INPUT);
    assert.equal(result.analyzer, { name: 'lexicon', model: null, fallback_reason: 'http_error', fallback_detail: `the analyzer endpoint answered HTTP ${status}` });
    assert.is(server.requests.length, 1);
  }
});

test('not a chat completion, or cut off at the output budget: fallback with the reason', async () => {
  script({ rawBody: '<html>gateway</html>' });
  assert.is((await analysis().analyse(INPUT)).analyzer!.fallback_reason, 'invalid_response');
  script({ rawBody: JSON.stringify({ choices: [] }) });
  assert.is((await analysis().analyse(INPUT)).analyzer!.fallback_reason, 'invalid_response');
  script({ content: '{"summary": "The agent called about', finishReason: 'length' });
  assert.is((await analysis().analyse(INPUT)).analyzer!.fallback_reason, 'output_budget_exceeded');
});

test('an endpoint nobody listens on: unreachable', async () => {
  const client = createChatCompletionsClient({ url: 'http://127.0.0.1:9/v1', model: 'm', policy: { allowPrivateTargets: true, protocols: ['http:'] }, timeoutMs: 2_000, maxOutputTokens: 100 });
  const result = await llmTranscriptAnalysis(offline, { client, concurrency: 1, maxInputTokens: 2_000, logger }).analyse(INPUT);
  assert.is(result.analyzer!.fallback_reason, 'unreachable');
});

test('the outbound guard: a loopback endpoint is refused unless private targets are allowed', async () => {
  script({ content: JSON.stringify(GOOD) });
  const result = await analysis({ allowPrivateTargets: false }).analyse(INPUT);
  assert.is(result.analyzer!.fallback_reason, 'target_refused');
  assert.is(server.requests.length, 0, 'nothing was sent');
});

test('the concurrency limit holds across analyses: at most 2 requests at once for 6 jobs', async () => {
  script({ content: JSON.stringify(GOOD), delayMs: 150 });
  const shared = analysis({ concurrency: 2 });
  const results = await Promise.all(Array.from({ length: 6 }, (_, index) => shared.analyse(INPUT, { workspaceId: `ws_${index % 3}` })));
  assert.ok(results.every((result) => result.analyzer!.name === 'llm'));
  assert.is(server.requests.length, 6);
  assert.is(server.maxConcurrent, 2);
});

test('a long transcript is cut to the token budget, keeping its start and its end', async () => {
  script({ content: JSON.stringify(GOOD) });
  const long = Array.from({ length: 400 }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text: `Turn number ${index} about the loan renewal and the amount due this month.`,
    start_time: index * 5,
    end_time: index * 5 + 4,
  }));
  await analysis({ maxInputTokens: 1_500 }).analyse({ ...INPUT, segments: long });
  const user = server.requests[0]!.body.messages[1]!.content;
  assert.match(user, 'Turn number 0 about');
  assert.match(user, 'Turn number 399 about');
  assert.match(user, /turns left out/);
  assert.not.match(user, 'Turn number 200 about');
  assert.match(logText, 'transcript cut to the analyzer token budget');
});

test('a cancelled job is not a fallback: the abort propagates', async () => {
  script({ content: JSON.stringify(GOOD), delayMs: 2_000 });
  const controller = new AbortController();
  const pending = analysis().analyse(INPUT, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('shutting down')), 100);
  try {
    await pending;
    assert.unreachable('should have rejected');
  } catch (error) {
    assert.is((error as Error).message, 'shutting down');
  }
});

test('a server that echoes the key in its error answer: the logged excerpt has it redacted', async () => {
  script({ status: 401, rawBody: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}` } }) });
  const result = await analysis().analyse(INPUT);
  assert.is(result.analyzer!.fallback_reason, 'http_error');
  assert.match(logText, 'Incorrect API key provided: [redacted]');
});

test('a transcript without words is not sent to the LLM', async () => {
  script({ content: JSON.stringify(GOOD) });
  const result = await analysis().analyse({ ...INPUT, segments: [{ speaker: 'agent', text: '  ', start_time: 0, end_time: 1 }] });
  assert.is(server.requests.length, 0);
  assert.is(result.analyzer, undefined);
});

test('the API key never reaches a log line', () => {
  assert.ok(logText.includes('LLM analyzer failed'), 'fallbacks were logged');
  assert.not.ok(logText.includes(API_KEY));
});

test('endpoint addresses: a base URL, one ending in /v1, a full path', () => {
  assert.is(chatCompletionsEndpoint('http://127.0.0.1:11434'), 'http://127.0.0.1:11434/v1/chat/completions');
  assert.is(chatCompletionsEndpoint('http://127.0.0.1:8000/v1/'), 'http://127.0.0.1:8000/v1/chat/completions');
  assert.is(chatCompletionsEndpoint('https://llm.example.net/openai/v1/chat/completions'), 'https://llm.example.net/openai/v1/chat/completions');
});

test.run();
