// Requests with large bodies take turns on the real server (http/middleware/large-body-turns.ts): eight 300 KB
// campaigns sent at once are handled one at a time, the others waiting with their bodies unread, so one workspace's
// burst of large bodies holds at most one of them in memory and on the event loop.
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

function gauge(metrics: string, name: string): number {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line, `${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

test('eight large campaigns sent at once are handled one at a time, the others waiting (http_large_bodies_*)', async () => {
  const server = await startServer();
  try {
    const a = await createWorkspace(server, 'A');
    const scriptId = (await client(server, a.key).post('/v1/scripts', loanRenewalScript())).body.id as string;
    const bodies = Array.from({ length: 8 }, (_, index) => campaignBody(scriptId, `A${index}`, index * 10_000));
    assert.ok(bodies[0]!.length > LARGE_BODY_BYTES, `${bodies[0]!.length} bytes`);
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
    const statuses = await Promise.all(
      bodies.map(async (body) => {
        const response = await fetch(`${server.baseUrl}/v1/campaigns`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    done = true;
    await watching;
    assert.equal(statuses, Array(8).fill(201));
    assert.is(seen.inFlight, 1, 'never more than one at a time');
    assert.ok(seen.waiting >= 3, `at most ${seen.waiting} seen waiting`);
    const after = await (await fetch(`${server.baseUrl}/metrics`)).text();
    assert.is(gauge(after, 'http_large_bodies_in_flight') + gauge(after, 'http_large_bodies_waiting'), 0, 'nothing left behind');
  } finally {
    await server.stop();
  }
});

test.run();
