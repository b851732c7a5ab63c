import * as fc from 'fast-check';
import { suite } from 'uvu';
import { webhookDecider, type WebhookCommand } from '../../../domain/webhook.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { id, time, nullable } from './domain-values.ts';

const properties = suite('webhook decider: properties');

const ids = { webhook_id: id('wh_1', 'wh_2'), workspace_id: id('ws_1', 'ws_2') };
const register: fc.Arbitrary<WebhookCommand> = fc.record({
  type: fc.constant('RegisterWebhook' as const),
  data: fc.record({
    ...ids,
    url: fc.constantFrom('https://example.com/hook', ''),
    events: fc.array(fc.constantFrom('*', 'call.completed', 'no.such.event'), { maxLength: 3 }),
    secret: nullable(fc.constantFrom('sealed:abc', '')),
    secret_sealed: fc.constant(true as const),
    created_at: time,
  }),
});
const remove: fc.Arbitrary<WebhookCommand> = fc.record({ type: fc.constant('DeleteWebhook' as const), data: fc.record({ ...ids, deleted_at: time }) });

properties('random command sequences: only domain refusals, deletion is final and forgets the secret', () => {
  checkDeciderProperties({
    decider: webhookDecider,
    command: fc.oneof(register, remove),
    opening: register,
    invariants: [
      { name: 'deletion is final', broken: (after, before) => (before.status === 'deleted' && after.status !== 'deleted' ? after.status : null) },
      { name: 'a deleted webhook keeps no secret', broken: (after) => (after.status === 'deleted' && after.secret !== null ? 'secret kept' : null) },
      {
        name: 'a registration records one event',
        broken: (_after, _before, events) => (events.some((event) => event.type === 'WebhookRegistered') && events.length !== 1 ? 'more than one event' : null),
      },
    ],
  });
});

properties.run();
