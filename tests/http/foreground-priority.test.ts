import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../infra/config.ts';
import { threadsOfProcess } from '../support/proc-threads.ts';
import { client, createWorkspace, startServer } from '../support/server.ts';

// The event loop's thread serves every workspace's requests. It runs raised (EVENT_LOOP_THREAD_NICE, default -10) so
// that, on a machine a neighbour's work saturates, it gets a core when a request arrives instead of waiting its turn
// behind the analysis threads; the threads the server starts must not inherit that priority.

const privileged = process.platform === 'linux' && process.getuid?.() === 0;

test('EVENT_LOOP_THREAD_NICE defaults to -10 and bounds to -20..19', () => {
  assert.is(loadConfig({}).EVENT_LOOP_THREAD_NICE, -10);
  assert.is(loadConfig({ EVENT_LOOP_THREAD_NICE: '0' }).EVENT_LOOP_THREAD_NICE, 0);
  assert.throws(() => loadConfig({ EVENT_LOOP_THREAD_NICE: '-21' }));
  assert.throws(() => loadConfig({ EVENT_LOOP_THREAD_NICE: '20' }));
});

test('a real server: the event loop thread runs at the value given, and the threads it starts at their own', async () => {
  if (process.platform !== 'linux') return;
  const server = await startServer({ env: { EVENT_LOOP_THREAD_NICE: '-7', ANALYSIS_THREAD_NICE: '0', SEARCH_INDEX_THREAD_NICE: '10', SPEECH_TOOL_NICE: '10' } });
  try {
    const workspace = await createWorkspace(server, 'priority');
    const api = client(server, workspace.key);
    // A job starts the analysis threads; a campaign-free sandbox call is not needed: the job's own work is enough.
    const job = await api.post('/v1/transcription', { transcript: [{ speaker: 'agent', text: 'Hello, this is Asha.', start_time: 0, end_time: 2 }], language: 'en-IN', features: ['transcription', 'summary'] });
    assert.is(job.status, 202, job.text);
    for (let polls = 0; polls < 200; polls++) {
      if ((await api.get(`/v1/transcription/${job.body.job_id}`)).body?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const threads = threadsOfProcess(server.pid!);
    const eventLoop = threads.get(server.pid!)!;
    // Below 0 needs root or CAP_SYS_NICE; refused, the server starts anyway at 0 and says so in its log.
    assert.is(eventLoop.nice, privileged ? -7 : 0, JSON.stringify([...threads.values()]));
    const named = (name: string) => [...threads.values()].filter((thread) => thread.name === name).map(({ nice }) => nice);
    assert.equal(named('read-models'), [0], 'the read lane does not inherit the raised priority');
    assert.equal(named('search-index'), [10]);
    const analysis = named('analysis');
    assert.ok(analysis.length > 0, `analysis threads: ${JSON.stringify([...threads.values()])}`);
    assert.ok(analysis.every((nice) => nice === 0), `analysis threads at ${analysis}`);
    if (!privileged) assert.match(server.output(), 'could not change its priority');
  } finally {
    await server.stop();
  }
});

test.run();
