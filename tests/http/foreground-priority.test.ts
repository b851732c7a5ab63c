import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../infra/config.ts';
import { threadsOfProcess } from '../support/proc-threads.ts';
import { client, createWorkspace, startServer } from '../support/server.ts';

// The event loop's thread serves every workspace's requests and the read models' thread is what read-your-writes waits
// for. An operator may raise them (FOREGROUND_THREAD_NICE, unset by default; the trade-off is in infra/config.ts);
// the other threads the server starts must not inherit that priority.

const privileged = process.platform === 'linux' && process.getuid?.() === 0;

test('FOREGROUND_THREAD_NICE is unset by default and bounds to -20..19', () => {
  assert.is(loadConfig({}).FOREGROUND_THREAD_NICE, undefined);
  assert.is(loadConfig({ FOREGROUND_THREAD_NICE: '-10' }).FOREGROUND_THREAD_NICE, -10);
  assert.throws(() => loadConfig({ FOREGROUND_THREAD_NICE: '-21' }));
  assert.throws(() => loadConfig({ FOREGROUND_THREAD_NICE: '20' }));
});

test('a real server: the event loop and read model threads run at the value given, the other threads it starts at their own', async () => {
  if (process.platform !== 'linux') return;
  const server = await startServer({ env: { FOREGROUND_THREAD_NICE: '-7', ANALYSIS_THREAD_NICE: '0', SEARCH_INDEX_THREAD_NICE: '10', SPEECH_TOOL_NICE: '10' } });
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
    // Below 0 needs root or CAP_SYS_NICE; refused, the server starts anyway at its starting value and says so in its log.
    assert.is(eventLoop.nice, privileged ? -7 : 0, JSON.stringify([...threads.values()]));
    const named = (name: string) => [...threads.values()].filter((thread) => thread.name === name).map(({ nice }) => nice);
    assert.equal(named('read-models'), [privileged ? -7 : 0], 'the read lane runs with the event loop');
    assert.equal(named('search-index'), [10]);
    assert.equal(named('speech-tools').filter((nice) => nice !== 10), [], 'the tool thread keeps its own value');
    const analysis = named('analysis');
    assert.ok(analysis.length > 0, `analysis threads: ${JSON.stringify([...threads.values()])}`);
    assert.ok(analysis.every((nice) => nice === 0), `analysis threads at ${analysis}`);
    if (!privileged) assert.match(server.output(), 'could not change their priority');
  } finally {
    await server.stop();
  }
});

test.run();
