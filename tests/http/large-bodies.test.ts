// Requests with large bodies take turns on the real server (http/middleware/large-body-turns.ts): handled one at a
// time server-wide, workspaces in turn, each read in its workspace's own queue, so a burst of large bodies holds one
// of them on the event loop, and a client trickling its upload holds up only its own workspace.
import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LARGE_BODY_BYTES } from '../../http/middleware/json-body.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { client, createWorkspace, startServer } from '../support/server.ts';

function campaignBody(scriptId: string, name: string, first: number): string {
  const contacts = Array.from({ length: 4_000 }, (_, index) => ({ phone: `+9198${String(first + index).padStart(8, '0')}`, name: `C${index}`, amount: 100, lender: 'Sahay' }));
  // Calling hours that are never now: nothing dials while the test runs.
  return JSON.stringify({ name, script_id: scriptId, language: 'en-IN', contacts, calling_hours: { start: '03:00', end: '03:01' } });
}

async function postCampaign(baseUrl: string, key: string, body: string, signal?: AbortSignal): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/campaigns`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body, signal });
  await response.arrayBuffer();
  return response.status;
}

const server = await startServer();
test.after(() => server.stop());

/** The value of one series of /metrics, by its name and labels as Prometheus prints them (undefined: absent). */
function metricValue(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function gauge(metrics: string, name: string): number {
  const value = metricValue(metrics, name);
  assert.ok(value !== undefined, `${name} in /metrics`);
  return value;
}

test('eight large campaigns of four workspaces sent at once are handled one at a time, the others waiting (http_large_bodies_*)', async () => {
  const posts: Array<{ key: string; body: string }> = [];
  for (let workspace = 0; workspace < 4; workspace++) {
    const { key } = await createWorkspace(server, `W${workspace}`);
    const scriptId = (await client(server, key).post('/v1/scripts', loanRenewalScript())).body.id as string;
    for (let index = 0; index < 2; index++) posts.push({ key, body: campaignBody(scriptId, `W${workspace}-${index}`, (workspace * 2 + index) * 10_000) });
  }
  assert.ok(posts[0]!.body.length > LARGE_BODY_BYTES, `${posts[0]!.body.length} bytes`);
  let done = false;
  const seen = { inFlight: 0, waiting: 0 };
  const watching = (async () => {
    while (!done) {
      const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
      seen.inFlight = Math.max(seen.inFlight, gauge(metrics, 'http_large_bodies_in_flight'));
      seen.waiting = Math.max(seen.waiting, gauge(metrics, 'http_large_bodies_waiting'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const statuses = await Promise.all(posts.map(({ key, body }) => postCampaign(server.baseUrl, key, body)));
  done = true;
  await watching;
  assert.equal(statuses, Array(8).fill(201));
  assert.is(seen.inFlight, 1, 'never more than one at a time');
  assert.ok(seen.waiting >= 2, `at most ${seen.waiting} seen waiting`);
  const after = await (await fetch(`${server.baseUrl}/metrics`)).text();
  assert.is(gauge(after, 'http_large_bodies_in_flight') + gauge(after, 'http_large_bodies_waiting'), 0, 'nothing left behind');
});

function campaignRequests(metrics: string, status: number): number {
  return metricValue(metrics, `http_requests_total{method="POST",route="/v1/campaigns",status="${status}"}`) ?? 0;
}

test('a large body that trickles in holds only its own workspace: another workspace\'s large campaign is created meanwhile; the client then hanging up is a 499, not a server error', async () => {
  const [a, b] = [await createWorkspace(server, 'A'), await createWorkspace(server, 'B')];
  const scriptB = (await client(server, b.key).post('/v1/scripts', loanRenewalScript())).body.id as string;
  // A declares 400 KB and sends one: the rest never comes while B's request runs.
  const { hostname, port } = new URL(server.baseUrl);
  const trickling = httpRequest({ hostname, port, method: 'POST', path: '/v1/campaigns', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'content-length': String(400 * 1024) } });
  trickling.on('error', () => undefined);
  trickling.write('{"name": "slow", "contacts": [');
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const status = await postCampaign(server.baseUrl, b.key, campaignBody(scriptB, 'B', 500_000), AbortSignal.timeout(15_000)).catch((error: Error) => error.name);
    assert.is(status, 201, 'B\'s campaign is created while A\'s upload trickles');
    assert.ok(Date.now() - started < 15_000, `B waited ${Date.now() - started} ms`);
  } finally {
    trickling.destroy();
  }
  // The trickling client hung up mid-body: counted as 499 (client closed request), not as a 500 of ours.
  let metrics = '';
  for (let attempt = 0; attempt < 50 && campaignRequests(metrics, 499) === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
  }
  assert.is(campaignRequests(metrics, 499), 1, 'the abandoned upload is counted as 499');
  assert.is(campaignRequests(metrics, 500), 0, 'and not as a server error');
  assert.not.match(server.output(), /unexpected error/, 'nor logged as one');
});

test.run();
