/**
 * npm run bench:large-bodies — one workspace's burst of the largest request bodies the API takes (campaigns of
 * 100,000 contacts, ~7 MB) against another workspace's small requests (issue 12; http/middleware/large-body-turns.ts).
 * On one real server:
 * 1. workspace B lists its campaigns every 20 ms for BENCH_SECONDS (default 20) alone, then again while A posts
 *    such campaigns back to back, BENCH_CONCURRENCY (default 2) at a time: B's p50/p99, A's campaigns a second;
 * 2. A sends BENCH_BURST (default 40) of them at once: the server's peak RSS, and whether all were created.
 * Requests with large bodies take turns, one at a time, workspaces in turn; without turns (measured on 2026-11-27)
 * B's p50/p99 under (1) were 33/133 ms against 2/5 ms alone, and (2) peaked at 1.6 GB.
 */
import { readFileSync } from 'node:fs';
import { percentile } from '../tests/support/noisy-neighbour.ts';
import { loanRenewalScript } from '../tests/support/scripts.ts';
import { client, createWorkspace, setRateLimit, startServer } from '../tests/support/server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const BURST = Number(process.env.BENCH_BURST ?? 40);
const CONTACTS = 100_000;

const server = await startServer({ env: { SANDBOX_SPEED: '1', LOG_LEVEL: 'warn' } });
try {
  const [a, b] = [await createWorkspace(server, 'A (bulk)'), await createWorkspace(server, 'B (normal)')];
  await setRateLimit(server, b.workspaceId, 100_000);
  const apiB = client(server, b.key);
  const scriptA = (await client(server, a.key).post('/v1/scripts', loanRenewalScript())).body.id as string;
  // Calling hours that are never now: the campaigns are created, not dialled.
  const campaign = (index: number) =>
    JSON.stringify({
      name: `A${index}`,
      script_id: scriptA,
      language: 'en-IN',
      calling_hours: { start: '03:00', end: '03:01' },
      contacts: Array.from({ length: CONTACTS }, (_, contact) => ({ phone: `+9197${String(index * CONTACTS + contact).padStart(8, '0')}`, name: `C${contact}`, amount: 100, lender: 'Sahay' })),
    });
  const bodies = Array.from({ length: Math.max(CONCURRENCY * 2, BURST) }, (_, index) => campaign(index));
  const postA = async (body: string): Promise<number> => {
    const response = await fetch(`${server.baseUrl}/v1/campaigns`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    return response.status;
  };
  console.log(`large-bodies benchmark: ${(bodies[0]!.length / 1048576).toFixed(1)} MB campaigns of ${CONTACTS.toLocaleString('en')} contacts`);

  async function listCampaignsOfB(deadline: number): Promise<number[]> {
    const latencies: number[] = [];
    while (Date.now() < deadline) {
      const started = performance.now();
      await apiB.get('/v1/campaigns?limit=20');
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return latencies;
  }
  const describe = (label: string, latencies: number[]) =>
    `  ${label.padEnd(28)} n=${String(latencies.length).padStart(5)}  p50 ${percentile(latencies, 0.5).toFixed(1).padStart(7)} ms  p99 ${percentile(latencies, 0.99).toFixed(1).padStart(7)} ms`;

  const alone = await listCampaignsOfB(Date.now() + SECONDS * 1000);
  console.log(describe('B alone', alone));
  const deadline = Date.now() + SECONDS * 1000;
  let created = 0;
  let next = 0;
  const bulk = async () => {
    while (Date.now() < deadline) if ((await postA(bodies[next++ % bodies.length]!)) === 201) created++;
  };
  const [loaded] = await Promise.all([listCampaignsOfB(deadline), ...Array.from({ length: CONCURRENCY }, bulk)]);
  console.log(describe(`B with A (${CONCURRENCY} at a time)`, loaded));
  console.log(`  A created ${created} campaigns (${(created / SECONDS).toFixed(1)} a second)`);

  let peakRss = 0;
  const sampler = setInterval(() => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
    if (match) peakRss = Math.max(peakRss, Number(match[1]) / 1024);
  }, 100);
  const started = Date.now();
  const statuses = await Promise.all(bodies.slice(0, BURST).map(postA));
  clearInterval(sampler);
  const ok = statuses.filter((status) => status === 201).length;
  console.log(`burst of ${BURST} at once: ${ok} created in ${((Date.now() - started) / 1000).toFixed(1)} s; server peak RSS ${peakRss.toFixed(0)} MB (target ≤ 1024 MB)`);
} finally {
  await server.stop();
}
