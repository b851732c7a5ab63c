import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { upcast } from '../../domain/upcasters.ts';

// Each upcaster with a stored event of the old shape (docs/architecture.md, "Events, upcasting and types").

const metadata = { schema_version: 1 };

test('WebhookRegistered recorded before sealing (no secret_sealed): upcast to secret_sealed false, secret kept', () => {
  const stored = { type: 'WebhookRegistered', data: { webhook_id: 'wh_0', secret: 's3cret' } as Record<string, unknown>, metadata };
  assert.equal(upcast(stored).data, { webhook_id: 'wh_0', secret: 's3cret', secret_sealed: false });
});

test('events already in the current shape, and types without an upcaster, come back as the same object', () => {
  const sealed = { type: 'WebhookRegistered', data: { webhook_id: 'wh_1', secret: 'v1.x', secret_sealed: true } as Record<string, unknown>, metadata };
  assert.is(upcast(sealed), sealed);
  const other = { type: 'CallAnswered', data: { answered_at: '2026-03-01T10:00:00.000Z' } as Record<string, unknown>, metadata };
  assert.is(upcast(other), other);
});

test('CampaignCreated and CallPlaced recorded before purposes (issue 14): service', () => {
  const campaign = { type: 'CampaignCreated', data: { campaign_id: 'cmp_1', qa_scorecard_id: null } as Record<string, unknown>, metadata };
  assert.equal(upcast(campaign).data, { campaign_id: 'cmp_1', qa_scorecard_id: null, purpose: 'service' });
  const older = { type: 'CampaignCreated', data: { campaign_id: 'cmp_0' } as Record<string, unknown>, metadata };
  assert.equal(upcast(older).data, { campaign_id: 'cmp_0', qa_scorecard_id: null, purpose: 'service' });
  const recovery = { type: 'CampaignCreated', data: { campaign_id: 'cmp_2', qa_scorecard_id: null, purpose: 'recovery' } as Record<string, unknown>, metadata };
  assert.is(upcast(recovery), recovery);
  const call = { type: 'CallPlaced', data: { call_id: 'cal_1' } as Record<string, unknown>, metadata };
  assert.equal(upcast(call).data, { call_id: 'cal_1', purpose: 'service' });
});

test('an event whose data is parsed when read (the store\'s) is upcast when its data is first read, not before', () => {
  let parses = 0;
  const stored = { type: 'CampaignCreated', metadata } as { type: string; data: Record<string, unknown>; metadata: typeof metadata };
  Object.defineProperty(stored, 'data', { enumerable: true, get: () => (parses++, { campaign_id: 'cmp_1' }) });
  const upcasted = upcast(stored);
  assert.is(upcasted.type, 'CampaignCreated');
  assert.is(parses, 0, 'reading the type parsed nothing');
  assert.equal(upcasted.data, { campaign_id: 'cmp_1', qa_scorecard_id: null, purpose: 'service' });
  assert.is(upcasted.data, upcasted.data, 'upcast once');
  assert.is(parses, 1);
});

test.run();
