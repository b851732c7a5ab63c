/**
 * npm run bench:cluster — several real server processes on one embedded event store (CLUSTER=true, one
 * EVENTSTORE_FILE, a DATA_DIR each), as docs/operations.md describes:
 *   1. a campaign of BENCH_CONTACTS (default 500) sandbox contacts with 1, 2 and 3 nodes: calls per second until
 *      `completed` (read on the node that took the request), and CPU milliseconds per call summed over every node
 *      (each node's process, its projection thread included), and per node. The leader decides what to dial; every
 *      node carries calls it claims from the calls queue: the share of calls each node carried is read from the
 *      store's WorkClaimed events.
 *   2. transcription jobs with 1, 2 and 3 nodes: BENCH_TRANSCRIPTS (default 300) transcript-only jobs, then
 *      BENCH_AUDIO_JOBS (default 2) jobs with an `audio_url` (a synthesised stereo call of at least
 *      BENCH_AUDIO_SECONDS, default 10, which one pass of the speech bench's script already exceeds: 53 s; served
 *      by a local HTTP server, heard by PocketSphinx), each set submitted at once from three workspaces in turn
 *      over every node. Jobs per second from the first submission to the last completion, CPU milliseconds per job
 *      summed over every node (child processes included: ffmpeg, PocketSphinx), and the jobs each node ran (its
 *      WorkClaimed events). The leader admits the jobs to the lanes' queues (CLUSTER_WORKER_NODES = the number of
 *      nodes).
 *   3. failover, BENCH_FAILOVERS times (default 3) on two nodes: SIGKILL the leader, then the time until another
 *      node reports `leader: true` and until the campaign timer that came due meanwhile has fired; the killed node
 *      is started again (same DATA_DIR) before the next round.
 * Env: BENCH_CONTACTS, BENCH_TRANSCRIPTS, BENCH_AUDIO_JOBS, BENCH_AUDIO_SECONDS, BENCH_PHASES (default
 * `calls,transcriptions,failover`), BENCH_FAILOVERS, BENCH_CONCURRENCY (the workspace's dialing concurrency,
 * default 10), LEADER_LEASE_MS (default 6000).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, client, startServer, type ApiClient, type TestServer } from '../tests/support/server.ts';
import { loanRenewalScript } from '../tests/support/scripts.ts';
import { renewalConversation } from '../tests/support/transcripts.ts';
import { buildSampleCall } from '../infra/speech/sample-call.ts';
import { encodeWav } from '../infra/speech/wav.ts';
import { SCRIPT } from './speech.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 500);
const FAILOVERS = Number(process.env.BENCH_FAILOVERS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const TRANSCRIPTS = Number(process.env.BENCH_TRANSCRIPTS ?? 300);
const AUDIO_JOBS = Number(process.env.BENCH_AUDIO_JOBS ?? 2);
const AUDIO_SECONDS = Number(process.env.BENCH_AUDIO_SECONDS ?? 10);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'calls,transcriptions,failover').split(','));
const TICKS_PER_SECOND = 100;

interface Cluster {
  nodes: TestServer[];
  environment: Record<string, string>;
  key: string;
  scriptId: string;
  directory: string;
}

/**
 * CPU milliseconds (user + system) a process has used so far, every thread included, and its child processes that
 * have ended (ffmpeg and PocketSphinx for an audio job; a sandbox call has none).
 */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function leaderOf(nodes: TestServer[]): Promise<TestServer[]> {
  const answers = await Promise.all(
    nodes.map(async (node) => {
      try {
        const response = await fetch(`${node.baseUrl}/health`);
        return response.ok && ((await response.json()) as { leader: boolean }).leader ? node : null;
      } catch {
        return null;
      }
    }),
  );
  return answers.filter((node): node is TestServer => node !== null);
}

async function startCluster(size: number, extraEnvironment: Record<string, string> = {}): Promise<Cluster> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const environment = {
    CLUSTER: 'true',
    EVENTSTORE_FILE: join(directory, 'events.db'),
    SECRETS_KEY: 'bench-cluster-secrets-key-0123456789abcdef',
    URL_SIGNING_SECRET: 'bench-cluster-url-signing-secret-012345678',
    SANDBOX_SPEED: '1000000000',
    LOG_LEVEL: 'error',
    ...(process.env.LEADER_LEASE_MS ? { LEADER_LEASE_MS: process.env.LEADER_LEASE_MS } : {}),
    ...extraEnvironment,
  };
  const nodes: TestServer[] = [];
  for (let index = 0; index < size; index++) {
    nodes.push(await startServer({ dataDir: join(directory, `n${index + 1}`), env: { ...environment, NODE_ID: `n${index + 1}` }, logFile: join(directory, `n${index + 1}.log`) }));
  }
  await poll(() => leaderOf(nodes), (leaders) => leaders.length === 1, 30_000, 'a leader');
  const created = await cli(nodes[0]!.dataDir, ['workspaces', 'create', '--name', 'Bench', '--json'], environment);
  if (created.code !== 0) throw new Error(created.stderr);
  const { key, workspace_id: workspaceId } = JSON.parse(created.stdout) as { key: string; workspace_id: string };
  const concurrency = await cli(nodes[0]!.dataDir, ['workspaces', 'set-concurrency', workspaceId, String(CONCURRENCY), '--json'], environment);
  if (concurrency.code !== 0) throw new Error(concurrency.stderr);
  const api = client(nodes[0]!, key);
  await poll(() => api.get('/v1/scripts'), (r) => r.status === 200, 30_000, 'the key on node 1');
  const script = await api.post('/v1/scripts', loanRenewalScript());
  if (script.status !== 201) throw new Error(script.text);
  return { nodes, environment, key, scriptId: script.body.id as string, directory };
}

async function stopCluster(cluster: Cluster): Promise<void> {
  for (const node of cluster.nodes) await node.stop({ keepData: true });
  rmSync(cluster.directory, { recursive: true, force: true });
}

function campaignBody(scriptId: string, count: number, offset: number, startsAt?: Date) {
  return {
    name: `Bench ${offset}`,
    script_id: scriptId,
    language: 'hi-IN',
    recording_enabled: false,
    contacts: Array.from({ length: count }, (_, index) => ({ phone: `+91${9_000_000_000 + offset + index}`, name: `Customer ${index}`, amount: 50_000, lender: 'Sahay' })),
    ...(startsAt ? { schedule: { start_time: startsAt.toISOString(), timezone: 'UTC' } } : {}),
  };
}

async function throughput(size: number): Promise<void> {
  const cluster = await startCluster(size);
  try {
    const api: ApiClient = client(cluster.nodes[0]!, cluster.key);
    const created = await api.post('/v1/campaigns', campaignBody(cluster.scriptId, CONTACTS, size * 100_000));
    if (created.status !== 201) throw new Error(created.text);
    const before = cluster.nodes.map((node) => cpuMs(node.pid!));
    const started = Date.now();
    const start = await api.patch(`/v1/campaigns/${created.body.id}`, { action: 'start' });
    if (start.status !== 200) throw new Error(start.text);
    const done = await poll(() => api.get(`/v1/campaigns/${created.body.id}`), (r) => r.body.status === 'completed', 600_000, 'the campaign to complete');
    const seconds = (Date.now() - started) / 1000;
    // Let the followers' projections catch up before reading their CPU.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const used = cluster.nodes.map((node, index) => cpuMs(node.pid!) - before[index]!);
    const calls = done.body.calls_made as number;
    const total = used.reduce((sum, ms) => sum + ms, 0);
    const events = new Database(cluster.environment.EVENTSTORE_FILE!, { readonly: true });
    const carried = events.prepare("SELECT json_extract(data, '$.consumer') AS node, count(*) AS n FROM events WHERE type = 'WorkClaimed' GROUP BY node ORDER BY node").all() as Array<{ node: string; n: number }>;
    events.close();
    const [leader] = await leaderOf(cluster.nodes);
    console.log(
      `${size} node(s): ${calls} calls in ${seconds.toFixed(1)} s = ${(calls / seconds).toFixed(1)} calls/s; CPU ${(total / calls).toFixed(1)} ms per call over all nodes (${used.map((ms, index) => `n${index + 1}${cluster.nodes[index] === leader ? ' (leader)' : ''} ${(ms / calls).toFixed(1)}`).join(', ')}); calls carried: ${carried.map((row) => `${row.node} ${row.n}`).join(', ')}`,
    );
  } finally {
    await stopCluster(cluster);
  }
}

/** A conversation of 24 lines: a transcript job's analysis (summary, sentiment, intent) has something to chew on. */
const TRANSCRIPT = renewalConversation(24);

/**
 * Submits `count` jobs at once (20 requests at a time), from the workspaces in turn and to the nodes in turn, and
 * measures until every one of them has ended in the shared store.
 */
async function runJobs(cluster: Cluster, apis: ApiClient[][], label: string, count: number, body: Record<string, unknown>): Promise<void> {
  const events = new Database(cluster.environment.EVENTSTORE_FILE!, { readonly: true });
  try {
    const ended = () => (events.prepare("SELECT count(*) AS n FROM events WHERE type IN ('TranscriptionJobCompleted', 'TranscriptionJobFailed')").get() as { n: number }).n;
    const failed = () => (events.prepare("SELECT count(*) AS n FROM events WHERE type = 'TranscriptionJobFailed'").get() as { n: number }).n;
    const runs = () =>
      new Map(
        (events.prepare("SELECT json_extract(data, '$.consumer') AS node, count(*) AS n FROM events WHERE type = 'WorkClaimed' AND json_extract(data, '$.queue') LIKE 'transcriptions_%' GROUP BY node").all() as Array<{ node: string; n: number }>).map((row) => [row.node, row.n]),
      );
    const endedBefore = ended();
    const failedBefore = failed();
    const runsBefore = runs();
    const before = cluster.nodes.map((node) => cpuMs(node.pid!));
    const started = Date.now();
    for (let index = 0; index < count; index += 20) {
      const batch = Array.from({ length: Math.min(20, count - index) }, (_, offset) => {
        const n = index + offset;
        return apis[n % apis.length]![n % cluster.nodes.length]!.post('/v1/transcription', body);
      });
      for (const response of await Promise.all(batch)) if (response.status !== 202) throw new Error(response.text);
    }
    await poll(async () => ended() - endedBefore, (n) => n >= count, 900_000, `${label} jobs to end`);
    const seconds = (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const used = cluster.nodes.map((node, index) => cpuMs(node.pid!) - before[index]!);
    const total = used.reduce((sum, ms) => sum + ms, 0);
    const ran = [...runs()].map(([node, n]) => `${node} ${n - (runsBefore.get(node) ?? 0)}`);
    const [leader] = await leaderOf(cluster.nodes);
    console.log(
      `  ${label}: ${count} jobs in ${seconds.toFixed(1)} s = ${(count / seconds).toFixed(2)} jobs/s; CPU ${(total / count).toFixed(1)} ms per job over all nodes (${used.map((ms, index) => `n${index + 1}${cluster.nodes[index] === leader ? ' (leader)' : ''} ${(ms / count).toFixed(1)}`).join(', ')}); ran: ${ran.join(', ')}${failed() > failedBefore ? `; ${failed() - failedBefore} failed` : ''}`,
    );
  } finally {
    events.close();
  }
}

async function transcriptions(size: number, audio: { url: string; seconds: number }): Promise<void> {
  const cluster = await startCluster(size, { ALLOW_PRIVATE_TARGETS: 'true', CLUSTER_WORKER_NODES: String(size) });
  try {
    // Three workspaces in turn: one alone may hold every admission slot but one (as on a lone node).
    const keys = [cluster.key];
    for (const name of ['Bench 2', 'Bench 3']) {
      const created = await cli(cluster.nodes[0]!.dataDir, ['workspaces', 'create', '--name', name, '--json'], cluster.environment);
      if (created.code !== 0) throw new Error(created.stderr);
      keys.push((JSON.parse(created.stdout) as { key: string }).key);
    }
    const apis = keys.map((key) => cluster.nodes.map((node) => client(node, key)));
    for (const api of apis.flat()) await poll(() => api.get('/v1/scripts'), (r) => r.status === 200, 30_000, 'every key on every node');
    console.log(`${size} node(s):`);
    // A first job of each kind warms every node up (module loading, the analysis threads, the first ffmpeg): not counted.
    await runJobs(cluster, apis, 'warm-up', size, { transcript: TRANSCRIPT, language: 'en-IN' });
    await runJobs(cluster, apis, 'transcripts', TRANSCRIPTS, { transcript: TRANSCRIPT, language: 'en-IN' });
    if (AUDIO_JOBS > 0) await runJobs(cluster, apis, `audio (${audio.seconds.toFixed(0)} s stereo calls)`, AUDIO_JOBS, { audio_url: audio.url, language: 'en-IN', speakers: 2 });
  } finally {
    await stopCluster(cluster);
  }
}

/** A synthesised call served over loopback HTTP for the audio jobs (the nodes run with ALLOW_PRIVATE_TARGETS). */
async function audioServer(): Promise<{ url: string; seconds: number; close(): void }> {
  const call = await buildSampleCall(SCRIPT, { minDurationSeconds: AUDIO_SECONDS });
  const wav = encodeWav(call.audio);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    response.end(wav);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/call.wav`, seconds: call.durationSeconds, close: () => server.close() };
}

async function failover(): Promise<void> {
  const cluster = await startCluster(2);
  try {
    for (let round = 1; round <= FAILOVERS; round++) {
      const [leader] = await poll(() => leaderOf(cluster.nodes), (leaders) => leaders.length === 1, 30_000, 'a leader');
      const follower = cluster.nodes.find((node) => node !== leader)!;
      const api = client(follower, cluster.key);
      await poll(() => api.get(`/v1/scripts/${cluster.scriptId}`), (r) => r.status === 200, 30_000, 'the script on the follower');
      const startsAt = new Date(Date.now() + 1_500);
      const created = await api.post('/v1/campaigns', campaignBody(cluster.scriptId, 2, round * 1_000, startsAt));
      if (created.status !== 201) throw new Error(created.text);
      process.kill(leader!.pid!, 'SIGKILL');
      const killedAt = Date.now();
      await poll(() => leaderOf([follower]), (leaders) => leaders.length === 1, 60_000, 'the follower to lead');
      const ledMs = Date.now() - killedAt;
      await poll(() => api.get(`/v1/campaigns/${created.body.id}`), (r) => r.status === 200 && r.body.status !== 'scheduled', 60_000, 'the timer to fire');
      const firedMs = Date.now() - killedAt;
      console.log(`failover ${round}: new leader ${(ledMs / 1000).toFixed(2)} s after SIGKILL; due timer (due ${((startsAt.getTime() - killedAt) / 1000).toFixed(2)} s after) fired ${(firedMs / 1000).toFixed(2)} s after SIGKILL`);
      await leader!.restart();
    }
  } finally {
    await stopCluster(cluster);
  }
}

console.log(`bench:cluster — ${CONTACTS} contacts per campaign, dialing concurrency ${CONCURRENCY}, lease ${process.env.LEADER_LEASE_MS ?? 6000} ms`);
if (PHASES.has('calls')) for (const size of [1, 2, 3]) await throughput(size);
if (PHASES.has('transcriptions')) {
  console.log(`transcription jobs through the queue: ${TRANSCRIPTS} transcript-only jobs, ${AUDIO_JOBS} audio jobs, from three workspaces`);
  const audio = await audioServer();
  try {
    for (const size of [1, 2, 3]) await transcriptions(size, audio);
  } finally {
    audio.close();
  }
}
if (PHASES.has('failover') && FAILOVERS > 0) await failover();
