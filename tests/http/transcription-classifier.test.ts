// End to end over two real servers: ANALYSIS_CLASSIFIER (default on) puts the trained call classifier on the
// analysis threads, and `off` leaves the rules alone. The call is one the rules miss (no "call back" phrase: a time
// and "try then"); the classifier was trained on calls like it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient } from '../support/server.ts';

const TRANSCRIPT = [
  { speaker: 'agent', text: 'Hello sir, is this a good time to talk about your loan?', start_time: 0.4, end_time: 3.5 },
  { speaker: 'customer', text: "Not really, I'm about to board a flight. Can you try tomorrow after lunch?", start_time: 4, end_time: 8.5 },
  { speaker: 'agent', text: 'Sure sir.', start_time: 9, end_time: 10 },
];

const withClassifier = await startServer({ env: {} });
const rulesOnly = await startServer({ env: { ANALYSIS_CLASSIFIER: 'off' } });

async function intentOf(api: ApiClient): Promise<Record<string, any>> {
  const submitted = await api.post('/v1/transcription', { transcript: TRANSCRIPT, language: 'en-IN', features: ['intent', 'sentiment'] });
  assert.is(submitted.status, 202, submitted.text);
  const started = Date.now();
  for (;;) {
    const job = await api.get(`/v1/transcription/${submitted.body.job_id}`);
    assert.is(job.status, 200, job.text);
    if (job.body.status === 'completed') return job.body;
    assert.ok(['pending', 'processing'].includes(job.body.status), job.body.status);
    if (Date.now() - started > 30_000) throw new Error('the job did not complete');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('the default server answers with the classifier; ANALYSIS_CLASSIFIER=off with the rules alone', async () => {
  const on = await intentOf(client(withClassifier, (await createWorkspace(withClassifier, 'On')).key));
  const off = await intentOf(client(rulesOnly, (await createWorkspace(rulesOnly, 'Off')).key));
  assert.is(on.intent, 'callback_request');
  assert.is(off.intent, null);
  // Both are the offline analyzer: the job reports `lexicon` either way.
  assert.is(on.analyzer.name, 'lexicon');
  assert.is(off.analyzer.name, 'lexicon');
});

test.after(async () => {
  await withClassifier.stop();
  await rulesOnly.stop();
});

test.run();
