/**
 * Webhook delivery benchmark (`npm run bench:webhooks`): EVENTS domain events (default 10,000) fanned out to three
 * local HTTPS receivers, one of which fails every request slowly (503 after FAILING_DELAY_MS, default 2,000 ms),
 * then the same run with the third receiver healthy. Prints deliveries per second to the healthy receivers and the
 * p50/p99 latency from each event's append to its delivery, for both runs: equal figures show that the failing
 * receiver did not slow the others. Targets: ≥ 500 deliveries/s, p99 ≤ 500 ms.
 *
 * The service side runs in a child process (the runtime with its real SQLite event store, read models, fan-out and
 * dispatcher), which trusts the receivers' self-signed certificate through NODE_EXTRA_CA_CERTS, as a deployment
 * would. Events are appended at RATE events/s (default 250, i.e. 500 deliveries/s to the two healthy receivers);
 * `RATE=0` appends them all at once and measures the throughput of a backlog instead.
 * Env: EVENTS, RATE, FAILING_DELAY_MS, EVENTSTORE_SYNC (default full, the service default), PROFILE_DIR.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCertificate, startReceiver, type Receiver } from '../tests/support/https-receiver.ts';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const RATE = Number(process.env.RATE ?? 250);
const FAILING_DELAY_MS = Number(process.env.FAILING_DELAY_MS ?? 2_000);
const SECRET = 'bench-secret';
const BACKLOG_CHUNK = 100;

interface ServiceInput {
  urls: string[];
  events: number;
  rate: number;
}

// ------------------------------------------------------------------------------------------- service (child)

async function runService(input: ServiceInput): Promise<void> {
  const { createRuntime } = await import('../composition.ts');
  const { loadConfig } = await import('../infra/config.ts');
  const { createLogger } = await import('../infra/logger.ts');
  const { webhookProcessManagers } = await import('../processes/webhooks/index.ts');
  const { webhookDecider, webhookStream } = await import('../domain/webhook.ts');
  const { newId } = await import('../infra/ids.ts');
  const { registerWebhookCommand } = await import('../commands/register-webhook.ts');
  const runtime = createRuntime(loadConfig(), createLogger('warn'), (rt) => webhookProcessManagers({ ...rt, recordingLinks: { ...rt.recordingLinks, urlFor: () => null } }));
  await runtime.start();
  const now = runtime.clock.now();
  for (const url of input.urls) {
    const webhookId = newId('wh', now);
    await runtime.commands.handle(
      webhookDecider,
      webhookStream(webhookId),
      registerWebhookCommand(runtime.secrets, { webhook_id: webhookId, workspace_id: 'ws_bench', url, events: ['transcription.completed'], secret: SECRET, created_at: now.toISOString()}),
      { workspaceId: 'ws_bench', actor: 'bench', now },
    );
  }
  await runtime.projections.catchUp();
  process.send!({ ready: true });
  const started = Date.now();
  const appendOne = async (index: number) => {
    const appendedAt = Date.now();
    const at = new Date(appendedAt).toISOString();
    await runtime.store.append(
      `transcription-job_bench_${index}`,
      [
        {
          type: 'TranscriptionJobCompleted',
          data: { job_id: `job_bench_${index}`, language: 'en-IN', call_id: null, metadata: { appended_at_ms: appendedAt, index }, completed_at: at },
          metadata: { workspace_id: 'ws_bench', actor: 'bench', correlation_id: `bench-${index}`, causation_id: null, occurred_at: at, schema_version: 1 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  };
  if (input.rate === 0) {
    // A backlog: appended BACKLOG_CHUNK at a time (the store commits each group in one transaction), so the
    // producer does not bound what is measured by waiting for one append at a time.
    for (let index = 0; index < input.events; index += BACKLOG_CHUNK) {
      await Promise.all(Array.from({ length: Math.min(BACKLOG_CHUNK, input.events - index) }, (_, offset) => appendOne(index + offset)));
    }
  } else {
    for (let index = 0; index < input.events; index++) {
      const due = started + (index * 1000) / input.rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await appendOne(index);
    }
  }
  process.on('message', () => {
    // Why attempts failed (beyond the failing receiver's 503s): the errors recorded, counted.
    const failures = new Map<string, number>();
    for (const row of runtime.readDb.prepare<[], { attempts: string }>("SELECT attempts FROM webhook_deliveries WHERE attempts LIKE '%error%'").all()) {
      for (const attempt of JSON.parse(row.attempts) as Array<{ error: string | null; http_status: number | null }>) {
        if (attempt.error === null && attempt.http_status === 503) continue;
        const key = attempt.error ?? `HTTP ${attempt.http_status}`;
        if (attempt.error !== null || (attempt.http_status ?? 200) >= 300) failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
    if (failures.size > 0) console.log(`failed attempts (other than 503s): ${JSON.stringify(Object.fromEntries(failures))}`);
    void runtime.close().then(() => process.exit(0));
  });
}

// ------------------------------------------------------------------------------------------ driver (parent)

interface RunResult {
  label: string;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  healthy: number;
  failingAttempts: number;
  /** Repeated deliveries of one envelope id (retries after a lost answer), not counted above. */
  duplicates: number;
  seconds: number;
}

/** `PROFILE_DIR=<dir>`: the service child writes a CPU profile there (`node --cpu-prof`). */
function profileArgs(): string[] {
  return process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [];
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? NaN;
}

/**
 * One run: the two measured receivers plus a third one that fails (`withFailing`) or answers at once. The third
 * receiver is there in both runs, so both do the same fan-out work and differ only in the failures.
 */
async function run(label: string, withFailing: boolean, certPath: string, receivers: { healthy: Receiver[]; failing: Receiver; control: Receiver }): Promise<RunResult> {
  for (const receiver of [...receivers.healthy, receivers.failing, receivers.control]) receiver.requests.length = 0;
  const urls = [...receivers.healthy.map((receiver) => receiver.url), withFailing ? receivers.failing.url : receivers.control.url];
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const child = spawn(process.execPath, [...profileArgs(), '--import', 'tsx', fileURLToPath(import.meta.url), '--service', JSON.stringify({ urls, events: EVENTS, rate: RATE })], {
    env: { ...process.env, DATA_DIR: dataDir, NODE_EXTRA_CA_CERTS: certPath, ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', EVENTSTORE_SYNC: process.env.EVENTSTORE_SYNC ?? 'full' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  const started = Date.now();
  const expected = EVENTS * receivers.healthy.length;
  // At least once: an attempt whose answer was lost (reset, deadline) is retried a minute later; count each once.
  const unique = (receiver: Receiver) => new Set(receiver.requests.map((request) => request.body.id as string)).size;
  const healthyCount = () => receivers.healthy.reduce((sum, receiver) => sum + unique(receiver), 0);
  const deadline = started + 30 * 60_000;
  while (healthyCount() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const requests = receivers.healthy.flatMap((receiver) => {
    const seen = new Set<string>();
    return receiver.requests.filter((request) => !seen.has(request.body.id) && seen.add(request.body.id));
  });
  const duplicates = receivers.healthy.reduce((sum, receiver) => sum + receiver.requests.length, 0) - requests.length;
  const latencies = requests.map((request) => request.receivedAt - Number(request.body.data.metadata.appended_at_ms)).sort((a, b) => a - b);
  const first = Math.min(...requests.map((request) => Number(request.body.data.metadata.appended_at_ms)));
  const last = Math.max(...requests.map((request) => request.receivedAt));
  const unsigned = requests.filter((request) => request.signatureValid !== true).length;
  if (unsigned > 0) throw new Error(`${unsigned} deliveries without a valid signature`);
  const failingAttempts = receivers.failing.requests.length;
  child.send({ stop: true });
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
  return {
    label,
    deliveriesPerSecond: requests.length / ((last - first) / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    healthy: requests.length,
    failingAttempts,
    duplicates,
    seconds: (last - first) / 1000,
  };
}

async function main(): Promise<void> {
  const certificate = makeCertificate();
  const healthy = [await startReceiver(certificate, SECRET), await startReceiver(certificate, SECRET)];
  const failing = await startReceiver(certificate, SECRET, () => ({ status: 503, delayMs: FAILING_DELAY_MS }));
  const control = await startReceiver(certificate, SECRET);
  console.log(`webhooks: ${EVENTS} events, ${RATE > 0 ? `${RATE} events/s` : 'all at once'}, failing receiver answers 503 after ${FAILING_DELAY_MS} ms, EVENTSTORE_SYNC=${process.env.EVENTSTORE_SYNC ?? 'full'}`);
  const results: RunResult[] = [];
  try {
    results.push(await run('2 healthy + 1 failing', true, certificate.certPath, { healthy, failing, control }));
    results.push(await run('3 healthy (2 measured)', false, certificate.certPath, { healthy, failing, control }));
  } finally {
    await Promise.all([...healthy, failing, control].map((receiver) => receiver.close()));
    certificate.remove();
  }
  console.log('\n| run | healthy deliveries | deliveries/s (healthy) | p50 append→delivery | p99 | max | attempts at the failing receiver | repeated deliveries |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    console.log(
      `| ${result.label} | ${result.healthy} in ${result.seconds.toFixed(1)} s | ${result.deliveriesPerSecond.toFixed(0)} | ${result.p50} ms | ${result.p99} ms | ${result.max} ms | ${result.failingAttempts} | ${result.duplicates} |`,
    );
  }
  const [withFailing, without] = results;
  if (withFailing && without) {
    console.log(`\nfailing receiver's effect on the healthy ones: p99 ${withFailing.p99 - without.p99 >= 0 ? '+' : ''}${withFailing.p99 - without.p99} ms, throughput ${(((withFailing.deliveriesPerSecond - without.deliveriesPerSecond) / without.deliveriesPerSecond) * 100).toFixed(1)} %`);
    const met = withFailing.deliveriesPerSecond >= 500 * 0.98 && withFailing.p99 <= 500;
    console.log(`targets (≥ 500 deliveries/s, p99 ≤ 500 ms) with the failing receiver: ${met ? 'met' : 'NOT met'}`);
  }
}

if (process.argv[2] === '--service') {
  runService(JSON.parse(process.argv[3]!) as ServiceInput).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
