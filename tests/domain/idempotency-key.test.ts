import { suite } from 'uvu';
import { idempotencyKeyDecider } from '../../domain/idempotency-key.ts';
import { given } from './given-when-then.ts';

const key = suite('idempotency key claims (cluster)');
const WINDOW = 24 * 60 * 60 * 1000;
const claim = (fingerprint: string, nowMs: number) => ({ type: 'ClaimIdempotencyKey' as const, fingerprint, nowMs, windowMs: WINDOW });
const claimed = (fingerprint: string, begunAtMs: number) => ({ type: 'IdempotencyKeyClaimed' as const, data: { fingerprint, begun_at_ms: begunAtMs } });
const answer = (begunAtMs: number, body: string) => ({ type: 'RecordIdempotentAnswer' as const, begunAtMs, status: 201, contentType: 'application/json', body });
const answered = (begunAtMs: number, body: string) => ({ type: 'IdempotencyKeyAnswered' as const, data: { begun_at_ms: begunAtMs, status: 201, content_type: 'application/json', body } });

key('the first claim wins the key', () => {
  given(idempotencyKeyDecider, []).when(claim('post /v1/campaigns {a}', 1_000)).then([claimed('post /v1/campaigns {a}', 1_000)]);
});

key('a claim within the window leaves the first claim standing, for the same request or another', () => {
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(claim('A', 2_000)).thenNothing();
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(claim('B', 1_000 + WINDOW - 1)).thenNothing();
});

key('after the window the key is claimed anew', () => {
  given(idempotencyKeyDecider, [claimed('A', 1_000), answered(1_000, '{}')]).when(claim('B', 1_000 + WINDOW)).then([claimed('B', 1_000 + WINDOW)]);
});

key('the first answer of a claim is recorded; a second answer, or one for an older claim, changes nothing', () => {
  given(idempotencyKeyDecider, [claimed('A', 1_000)]).when(answer(1_000, '{"id":"cmp_1"}')).then([answered(1_000, '{"id":"cmp_1"}')]);
  given(idempotencyKeyDecider, [claimed('A', 1_000), answered(1_000, '{"id":"cmp_1"}')]).when(answer(1_000, '{"id":"cmp_1"}')).thenNothing();
  given(idempotencyKeyDecider, [claimed('A', 1_000), claimed('B', 1_000 + WINDOW)]).when(answer(1_000, '{}')).thenNothing();
  given(idempotencyKeyDecider, []).when(answer(1_000, '{}')).thenNothing();
});

key.run();
