/**
 * A hostile workspace (A) and a normal one (B) on one real server, for the noisy-neighbour test
 * (tests/http/noisy-neighbour.test.ts) and `npm run bench:isolation`:
 *
 * - A at once: transcripts built to be expensive to analyse (4,000 sentences sharing one word), audio URLs that
 *   trickle a byte at a time, campaigns of 20,000 contacts started as fast as its rate limit allows, and 20
 *   webhooks to receivers that accept the connection and never answer (every attempt runs to its deadline);
 * - B, one operation after the other: list campaigns, submit a small transcript job (its completion is timed),
 *   now and then create and start a 5-contact campaign; its healthy webhook receiver times each delivery.
 *
 * Figures: B's API latency (every request), job latency (submission to completed), webhook latency (envelope
 * timestamp to arrival), the server's RSS (sampled from /metrics), and every 5xx either workspace saw.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { AbuseSettings } from './noisy-neighbour-abuse.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loanRenewalScript } from './scripts.ts';
import { client, createWorkspace, setRateLimit, startServer, type ApiClient, type TestServer } from './server.ts';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from './https-receiver.ts';

/**
 * A's abuses (all by default), chosen one by one to find which of them costs B most (`BENCH_ABUSE`):
 * - `transcripts`: 4,000-sentence transcripts submitted back to back;
 * - `audio`: audio URLs that trickle a byte at a time;
 * - `campaigns`: 20,000-contact campaigns created every 3 s;
 * - `starts`: and started (they dial);
 * - `webhooks`: 20 webhooks on every event, to receivers that never answer (set up here).
 */
export const ABUSE_KINDS = ['transcripts', 'audio', 'campaigns', 'starts', 'webhooks'] as const;
export type AbuseKind = (typeof ABUSE_KINDS)[number];

export interface IsolationFigures {
  apiMs: number[];
  /** The same latencies by B's operation ('list campaigns', 'submit job', 'create campaign', 'start campaign'): which of them make the p99. */
  apiMsByOperation: Record<string, number[]>;
  jobMs: number[];
  webhookMs: number[];
  serverErrors: number;
  requests: number;
}

const ABUSE_MODULE = new URL('./noisy-neighbour-abuse.ts', import.meta.url).href;

export interface NoisyNeighbourRig {
  server: TestServer;
  /** B's figures over `seconds`, with A's abuse running meanwhile or not. */
  measure(seconds: number, withAbuse: boolean): Promise<IsolationFigures & { abuseRequests: number; abuseServerErrors: number }>;
  /** Highest RSS of the server seen so far (bytes), sampled every 500 ms. */
  peakRssBytes(): number;
  close(): Promise<void>;
}

const SMALL_TRANSCRIPT = [
  { speaker: 'agent', text: 'Hello, this is Asha from Sahay Finance about your loan renewal.', start_time: 0, end_time: 3 },
  { speaker: 'customer', text: 'Yes, I would like to renew it, thank you.', start_time: 3.5, end_time: 6 },
];

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function contacts(count: number, offset: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => ({ phone: `+9198${String(offset + index).padStart(8, '0')}`, name: `C${index}`, amount: 100, lender: 'Sahay' }));
}

/** A plain HTTP server whose every response trickles one byte every `everyMs` (a slow-loris audio URL). */
async function startTrickleServer(everyMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'audio/wav' });
    const timer = setInterval(() => response.write(Buffer.from([0])), everyMs);
    response.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export async function startNoisyNeighbourRig(options: { env?: Record<string, string>; abuses?: readonly AbuseKind[] } = {}): Promise<NoisyNeighbourRig> {
  const abuses = options.abuses ?? ABUSE_KINDS;
  const certificate: Certificate = makeCertificate();
  const healthy: Receiver = await startReceiver(certificate);
  const dead: Receiver = await startReceiver(certificate, null, () => ({ status: 200, delayMs: 3_600_000 }));
  const trickle = await startTrickleServer(2_000);
  const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: certificate.certPath, ...options.env } });
  const [a, b] = [await createWorkspace(server, 'A (hostile)'), await createWorkspace(server, 'B (normal)')];
  // B's own mix stays well inside its limit; A keeps the default (1,000 a minute), as a hostile tenant would have.
  await setRateLimit(server, b.workspaceId, 100_000);
  const apiA = client(server, a.key);
  const apiB = client(server, b.key);
  const scriptA = (await apiA.post('/v1/scripts', loanRenewalScript())).body.id as string;
  const scriptB = (await apiB.post('/v1/scripts', loanRenewalScript())).body.id as string;
  if (abuses.includes('webhooks')) for (let index = 0; index < 20; index++) await apiA.post('/v1/webhooks', { url: `${dead.url}/a${index}`, events: ['*'] });
  await apiB.post('/v1/webhooks', { url: `${healthy.url}/b`, events: ['transcription.completed', 'campaign.started', 'call.completed'] });

  // RSS from /proc, not /metrics: scraping every 500 ms would itself cost the server's event loop (prom-client's
  // default metrics take milliseconds), which Prometheus, scraping every 15 s or so, would not.
  let peakRss = 0;
  const sampler = setInterval(() => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
      if (match) peakRss = Math.max(peakRss, Number(match[1]) * 1024);
    } catch {
      // The server is restarting or gone: the next sample tells.
    }
  }, 500);

  async function timed(api: ApiClient, figures: IsolationFigures, operation: string, method: 'get' | 'post' | 'patch', path: string, body?: unknown) {
    const started = performance.now();
    figures.requests++;
    const record = () => {
      const elapsed = performance.now() - started;
      figures.apiMs.push(elapsed);
      (figures.apiMsByOperation[operation] ??= []).push(elapsed);
    };
    try {
      const response = method === 'get' ? await api.get(path) : method === 'post' ? await api.post(path, body) : await api.patch(path, body);
      record();
      if (response.status >= 500) figures.serverErrors++;
      return response;
    } catch {
      // No answer at all (the connection reset: a crashed or overwhelmed server) counts as a server error.
      record();
      figures.serverErrors++;
      return { status: 0, headers: new Headers(), body: null, text: '' };
    }
  }

  /** B's loop: one operation after the other until `deadline`. */
  async function normalMix(deadline: number, figures: IsolationFigures): Promise<void> {
    let round = 0;
    const jobs: Promise<void>[] = [];
    while (Date.now() < deadline) {
      round++;
      await timed(apiB, figures, 'list campaigns', 'get', '/v1/campaigns?limit=20');
      if (round % 3 === 0) {
        const submitted = performance.now();
        const job = await timed(apiB, figures, 'submit job', 'post', '/v1/transcription', { transcript: SMALL_TRANSCRIPT, language: 'en-IN', features: ['transcription', 'summary', 'sentiment'] });
        if (job.status === 202) {
          const jobId = job.body.job_id as string;
          jobs.push(
            (async () => {
              for (let polls = 0; polls < 1_200; polls++) {
                const read = await apiB.get(`/v1/transcription/${jobId}`).catch(() => ({ status: 0, body: null }));
                if (read.status >= 500 || read.status === 0) figures.serverErrors++;
                if (read.body?.status === 'completed' || read.body?.status === 'failed') break;
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
              figures.jobMs.push(performance.now() - submitted);
            })(),
          );
        }
      }
      if (round % 25 === 0) {
        const campaign = await timed(apiB, figures, 'create campaign', 'post', '/v1/campaigns', { name: 'B', script_id: scriptB, language: 'en-IN', contacts: contacts(5, 90_000_000 + round * 10) });
        if (campaign.status === 201) await timed(apiB, figures, 'start campaign', 'patch', `/v1/campaigns/${campaign.body.id}`, { action: 'start' });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(jobs);
  }

  /**
   * A's abuse, all at once, until `deadline`, from a worker thread: serialising A's megabyte bodies in the thread
   * that times B's requests would add the test's own stalls to B's latency.
   */
  async function abuse(deadline: number): Promise<{ requests: number; serverErrors: number }> {
    const worker = new Worker(new URL('../../infra/worker-threads/typescript-worker.mjs', import.meta.url), {
      workerData: { module: ABUSE_MODULE, settings: { baseUrl: server.baseUrl, key: a.key, scriptId: scriptA, trickleUrl: trickle.url, deadline, abuses } satisfies AbuseSettings },
      execArgv: [],
    });
    try {
      return await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    } finally {
      await worker.terminate();
    }
  }

  return {
    server,
    async measure(seconds, withAbuse) {
      const deadline = Date.now() + seconds * 1000;
      const figures: IsolationFigures = { apiMs: [], apiMsByOperation: {}, jobMs: [], webhookMs: [], serverErrors: 0, requests: 0 };
      const deliveredBefore = healthy.requests.length;
      const [, abuseFigures] = await Promise.all([normalMix(deadline, figures), withAbuse ? abuse(deadline) : Promise.resolve({ requests: 0, serverErrors: 0 })]);
      for (const request of healthy.requests.slice(deliveredBefore)) {
        const sent = Date.parse(request.body?.timestamp ?? '');
        if (Number.isFinite(sent)) figures.webhookMs.push(request.receivedAt - sent);
      }
      return { ...figures, abuseRequests: abuseFigures.requests, abuseServerErrors: abuseFigures.serverErrors };
    },
    peakRssBytes: () => peakRss,
    async close() {
      clearInterval(sampler);
      await server.stop();
      trickle.server.closeAllConnections();
      trickle.server.close();
      await Promise.all([healthy.close(), dead.close()]);
      certificate.remove();
    },
  };
}
