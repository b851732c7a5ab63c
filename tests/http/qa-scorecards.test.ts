// QA scorecard CRUD over the real server: create, read, list, replace (versions), delete, validation details,
// workspace isolation, and a job keeping the version it pinned.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient } from '../support/server.ts';

const server = await startServer();
const api: ApiClient = client(server, (await createWorkspace(server, 'QA')).key);
const stranger: ApiClient = client(server, (await createWorkspace(server, 'Other')).key);

const SCORECARD = {
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [
    { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning', 'hello'], hi: ['नमस्ते', 'namaste'] }, within_seconds: 15 } },
    { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } },
    { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['yes'] } } },
    { name: 'talk_balance', max_score: 10, check: { type: 'talk_ratio', max_agent_share: 0.7 } },
  ],
};

async function invalid(body: unknown): Promise<Record<string, unknown>> {
  const response = await api.post('/v1/qa/scorecards', body);
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter');
  return response.body.error.details;
}

test('create, get, list, replace, replace with the same content, delete', async () => {
  const created = await api.post('/v1/qa/scorecards', SCORECARD);
  assert.is(created.status, 201, created.text);
  assert.match(created.body.id, /^qsc_/);
  assert.equal(created.body, { id: created.body.id, ...SCORECARD, version: 1, created_at: created.body.created_at, updated_at: created.body.created_at });
  const id = created.body.id as string;
  assert.equal((await api.get(`/v1/qa/scorecards/${id}`)).body, created.body);
  const list = await api.get('/v1/qa/scorecards');
  assert.equal([list.body.total, list.body.data[0].id], [1, id]);

  const changed = { ...SCORECARD, pass_threshold: 80 };
  const replaced = await api.put(`/v1/qa/scorecards/${id}`, changed);
  assert.is(replaced.status, 200, replaced.text);
  assert.equal([replaced.body.version, replaced.body.pass_threshold, replaced.body.created_at], [2, 80, created.body.created_at]);
  const again = await api.put(`/v1/qa/scorecards/${id}`, changed);
  assert.is(again.body.version, 2, 'the same content is not a new version');
  assert.equal((await api.get(`/v1/qa/scorecards/${id}`)).body, replaced.body);

  const deleted = await api.delete(`/v1/qa/scorecards/${id}`);
  assert.equal([deleted.status, deleted.body], [200, { id, deleted: true }]);
  const gone = await api.get(`/v1/qa/scorecards/${id}`);
  assert.equal([gone.status, gone.body.error.details], [404, { resource_type: 'qa_scorecard', id }]);
  assert.is((await api.delete(`/v1/qa/scorecards/${id}`)).status, 404);
  assert.is((await api.put(`/v1/qa/scorecards/${id}`, SCORECARD)).status, 404);
  assert.is((await api.get('/v1/qa/scorecards')).body.total, 0);
});

test('validation details', async () => {
  assert.equal(await invalid({ ...SCORECARD, pass_threshold: 101 }), { field: 'pass_threshold', provided: 101, expected: 'pass_threshold must be a number from 0 to 100' });
  assert.equal(await invalid({ ...SCORECARD, parameters: [] }), { field: 'parameters', provided: [], expected: 'parameters must hold 1 to 50 parameters' });
  const duplicate = await invalid({ ...SCORECARD, parameters: [SCORECARD.parameters[0], SCORECARD.parameters[0]] });
  assert.equal([duplicate.field, duplicate.expected], ['parameters[1].name', 'parameter name "greeting" is used more than once; names must be unique']);
  const misspelt = await invalid({ ...SCORECARD, parameters: [{ name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['hi'] }, within_second: 15 } }] });
  assert.is(misspelt.field, 'parameters[0].check.within_second');
  const type = await invalid({ ...SCORECARD, parameters: [{ name: 'x', max_score: 10, check: { type: 'agent_sings' } }] });
  assert.equal([type.field, type.expected], ['parameters[0].check.type', 'check.type must be one of agent_says, agent_avoids, customer_says, talk_ratio, max_silence']);
  const subtag = await invalid({ ...SCORECARD, parameters: [{ name: 'x', max_score: 10, check: { type: 'agent_says', phrases: { 'en-IN': ['hi'] } } }] });
  assert.is(subtag.field, 'parameters[0].check.phrases.en-IN');
  assert.is((await invalid({ ...SCORECARD, pass_treshold: 70 })).field, 'pass_treshold');
  assert.is((await invalid({ ...SCORECARD, name: '  ' })).field, 'name');
});

test('another workspace sees nothing of the scorecard', async () => {
  const created = await api.post('/v1/qa/scorecards', SCORECARD);
  const id = created.body.id as string;
  for (const response of [await stranger.get(`/v1/qa/scorecards/${id}`), await stranger.put(`/v1/qa/scorecards/${id}`, SCORECARD), await stranger.delete(`/v1/qa/scorecards/${id}`)]) {
    assert.equal([response.status, response.body.error.details], [404, { resource_type: 'qa_scorecard', id }]);
  }
  assert.is((await stranger.get('/v1/qa/scorecards')).body.total, 0);
  assert.is((await api.get(`/v1/qa/scorecards/${id}`)).status, 200);
});

test('a job scores with the version it was submitted with, even after the scorecard changes or goes', async () => {
  const created = await api.post('/v1/qa/scorecards', { name: 'Greeting only', pass_threshold: 50, parameters: [SCORECARD.parameters[0]] });
  const transcript = [{ speaker: 'agent', text: 'Hello, good morning.', start_time: 0, end_time: 2 }];
  const submitted = await api.post('/v1/transcription', { transcript, language: 'en-IN', features: ['qa_scoring'], qa_scorecard_id: created.body.id });
  assert.is(submitted.status, 202, submitted.text);
  await api.delete(`/v1/qa/scorecards/${created.body.id}`);
  let job: Record<string, any> = {};
  for (let tries = 0; tries < 200 && job.status !== 'completed'; tries++) {
    job = (await api.get(`/v1/transcription/${submitted.body.job_id}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.is(job.status, 'completed', JSON.stringify(job));
  assert.equal([job.qa_score.overall_score, job.qa_score.parameter_scores.length], [100, 1]);
});

test.after(async () => server.stop());

test.run();
