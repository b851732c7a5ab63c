import { suite } from 'uvu';
import { idempotencyKeyDecider } from '../../domain/idempotency-key.ts';
import { given } from './given-when-then.ts';

const key = suite('idempotency key claims (cluster)');
const WINDOW = 24 * 60 * 60 * 1000;
const claim = (fingerprint: string, nowMs: number) => ({ type: 'ClaimIdempotencyKey' as const, fingerprint, nowMs, windowMs: WINDOW });
const claimed = (fingerprint: string, begunAtMs: number) => ({ type: 'IdempotencyKeyClaimed' as const, data: { fingerprint, begun_at_ms: begunAtMs } });

key('the first claim wins the key', () => {
  given(idempotencyKeyDecider, []).when(claim('post /v1/campaigns {a}', 1_000)).then([claimed('post /v1/campaigns {a}', 1_000)]);
});

key('a claim within the window leaves the first claim standing, for the same request or another', () => {
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(claim('A', 2_000)).thenNothing();
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(claim('B', 1_000 + WINDOW - 1)).thenNothing();
});

key('after the window the key is claimed anew', () => {
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(claim('B', 1_000 + WINDOW)).then([claimed('B', 1_000 + WINDOW)]);
});

key.run();
