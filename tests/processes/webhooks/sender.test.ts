import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LookupGate, type ResolvedAddress } from '../../../infra/outbound/lookup-gate.ts';
import { sendDelivery, type DeliveryRequest } from '../../../processes/webhooks/sender.ts';

// One attempt: its deadline holds the DNS lookup too.

const request: DeliveryRequest = { url: 'https://never.hooks.test/in', secret: 'whsec_1', body: '{}', event: 'call.completed', eventId: 'evt_1', deliveryId: 'dlv_1', attempt: 1 };
const hungDns = () => new LookupGate(() => new Promise<ResolvedAddress[]>(() => undefined), { total: 2, perLane: 1 });

test('a DNS lookup that never answers fails the attempt at its deadline, saying so', async () => {
  const result = await sendDelivery(request, { allowPrivateTargets: false, timeoutMs: 300, resolver: hungDns(), workspaceId: 'ws_1' });
  assert.is(result.error, 'timeout: no response within 0.3 s (the DNS lookup of never.hooks.test did not finish)');
  assert.is(result.http_status, null);
  assert.is(result.interrupted, false, 'a failed attempt, to be recorded and retried');
  assert.ok(result.duration_ms >= 290 && result.duration_ms < 1_000, String(result.duration_ms));
});

test('a shutdown during the lookup interrupts the attempt (not recorded)', async () => {
  const shutdown = new AbortController();
  setTimeout(() => shutdown.abort(), 50);
  const result = await sendDelivery(request, { allowPrivateTargets: false, timeoutMs: 5_000, resolver: hungDns(), signal: shutdown.signal });
  assert.is(result.interrupted, true);
  assert.ok(result.duration_ms < 1_000);
});

test.run();
