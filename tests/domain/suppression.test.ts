import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isSuppressed, suppressionDecider, type SuppressionEvent } from '../../domain/suppression.ts';
import { estimatedStateBytes } from '../../commands/state-bytes.ts';
import { fold } from '../../domain/shared/decider.ts';
import { given } from './given-when-then.ts';

const phone = '+919876500007';
const suppressed: SuppressionEvent[] = [
  { type: 'NumberSuppressed', data: { phone, source: 'call_outcome', call_id: 'cal_1', reason: null, suppressed_at: '2026-03-02T04:00:00.000Z' } },
];

test('a dnd outcome puts the number on the list', () => {
  given(suppressionDecider)
    .when({ type: 'SuppressNumber', data: { phone, source: 'call_outcome', call_id: 'cal_1', at: '2026-03-02T04:00:00.000Z' } })
    .then(suppressed);
  assert.ok(isSuppressed(fold(suppressionDecider, suppressed), phone));
  assert.not.ok(isSuppressed(fold(suppressionDecider, suppressed), '+919876500008'));
});

test('adding a listed number again changes nothing', () => {
  given(suppressionDecider, suppressed).when({ type: 'SuppressNumber', data: { phone, source: 'api', at: '2026-03-03T00:00:00.000Z' } }).thenNothing();
});

test('the API removes a number; removing an unlisted one is resource_not_found', () => {
  given(suppressionDecider, suppressed)
    .when({ type: 'UnsuppressNumber', data: { phone, at: '2026-03-03T00:00:00.000Z' } })
    .then([{ type: 'NumberUnsuppressed', data: { phone, unsuppressed_at: '2026-03-03T00:00:00.000Z' } }]);
  const state = fold(suppressionDecider, [...suppressed, { type: 'NumberUnsuppressed', data: { phone, unsuppressed_at: 'x' } }]);
  assert.not.ok(isSuppressed(state, phone));
  given(suppressionDecider).when({ type: 'UnsuppressNumber', data: { phone, at: 'x' } }).thenThrows('resource_not_found', { resource_type: 'suppressed_number' });
});

test('a malformed number is invalid_parameter', () => {
  given(suppressionDecider).when({ type: 'SuppressNumber', data: { phone: '98765', source: 'api', at: 'x' } }).thenThrows('invalid_parameter', { field: 'phone' });
});

test('sizeOf: a list is estimated by its numbers, close to what a walk of it counts (the command handler\'s cache is bounded by size)', () => {
  const events: SuppressionEvent[] = Array.from({ length: 10_000 }, (_, index) => ({
    type: 'NumberSuppressed',
    data: { phone: `+9198${String(index).padStart(8, '0')}`, source: 'api', call_id: null, reason: null, suppressed_at: '2026-03-02T04:00:00.000Z' },
  }));
  const list = fold(suppressionDecider, events);
  const estimate = suppressionDecider.sizeOf!(list);
  assert.ok(estimate >= 10_000 * 150, String(estimate));
  const walked = estimatedStateBytes(list);
  assert.ok(estimate > walked / 2 && estimate < walked * 2, `${estimate} against a walk's ${walked}`);
});

test.run();
