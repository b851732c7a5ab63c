import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTACTS_DECIDED_OFF_THREAD, type DecisionsOffThread } from '../../commands/decisions-off-thread.ts';
import { CommandHandler, DEFAULT_STATE_CACHE_BYTES } from '../../commands/handler.ts';
import { campaignDecider, campaignStream } from '../../domain/campaign.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { createSqliteEventStore } from '../../infra/eventstore/sqlite.ts';
import { createDecisionPool } from '../../infra/worker-threads/decision-pool.ts';
import { contacts, createCommand } from '../domain/campaign-fixtures.ts';

const context = { workspaceId: 'ws_test', actor: 'test', now: new Date('2026-03-02T04:00:00Z'), correlationId: 'corr' };
const LARGE = CONTACTS_DECIDED_OFF_THREAD + 3_000;

/** The real decision thread, counting what it is asked. */
function countedPool() {
  const pool = createDecisionPool();
  const asked: string[] = [];
  const counted: DecisionsOffThread & { asked: string[]; close(): Promise<void> } = {
    asked,
    decide: (name, command, workspaceId) => {
      asked.push(name);
      return pool.decide(name, command, workspaceId);
    },
    close: () => pool.close(),
  };
  return counted;
}

function setUp() {
  const directory = mkdtempSync(join(tmpdir(), 'off-thread-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const pool = countedPool();
  return {
    store,
    pool,
    threaded: new CommandHandler(store, DEFAULT_STATE_CACHE_BYTES, pool),
    here: new CommandHandler(store),
    async close() {
      await pool.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

test('a large campaign decided on the thread stores the same events and folds the same state as one decided here', async () => {
  const rig = setUp();
  try {
    const command = createCommand({ contacts: contacts(LARGE) });
    const threaded = await rig.threaded.handle(campaignDecider, campaignStream('cmp_a'), command, context);
    const here = await rig.here.handle(campaignDecider, campaignStream('cmp_b'), command, context);
    assert.equal(rig.pool.asked, ['campaign']);
    assert.equal(threaded.events, here.events);
    assert.equal(threaded.state, here.state);
    const storedA = await rig.store.readStream(campaignStream('cmp_a'));
    const storedB = await rig.store.readStream(campaignStream('cmp_b'));
    assert.is(storedA.length, here.events.length);
    assert.equal(storedA.map((event) => [event.type, event.data]), storedB.map((event) => [event.type, event.data]));
    // The next command folds from the cache the handler evolved after the append.
    const started = await rig.threaded.handle(campaignDecider, campaignStream('cmp_a'), { type: 'StartCampaign', data: { at: '2026-03-02T04:01:00.000Z', trigger: 'manual' } }, context);
    assert.is(started.events[0]!.type, 'CampaignStarted');
  } finally {
    await rig.close();
  }
});

test('a refusal decided on the thread is the same DomainError as one decided here', async () => {
  const rig = setUp();
  try {
    const list = contacts(LARGE);
    list[LARGE - 1] = { ...list[LARGE - 1]!, phone: list[0]!.phone };
    const command = createCommand({ contacts: list });
    const refusal = async (handler: CommandHandler, stream: string) => {
      try {
        await handler.handle(campaignDecider, stream, command, context);
      } catch (error) {
        return error;
      }
      return null;
    };
    const threaded = await refusal(rig.threaded, campaignStream('cmp_c'));
    const here = await refusal(rig.here, campaignStream('cmp_d'));
    assert.ok(here instanceof DomainError, 'the decider refuses a repeated phone');
    assert.ok(threaded instanceof DomainError);
    assert.is(threaded.code, here.code);
    assert.is(threaded.message, here.message);
    assert.equal(threaded.details, here.details);
    assert.equal(rig.pool.asked, ['campaign']);
    assert.is(await rig.store.headPosition(), 0, 'nothing appended');
  } finally {
    await rig.close();
  }
});

test('small campaigns and commands on existing streams are decided here', async () => {
  const rig = setUp();
  try {
    await rig.threaded.handle(campaignDecider, campaignStream('cmp_e'), createCommand(), context);
    const again = await rig.threaded.handle(campaignDecider, campaignStream('cmp_e'), createCommand({ contacts: contacts(LARGE) }), context, { tolerate: ['already_exists'] });
    assert.ok('refused' in again && again.refused.code === 'already_exists');
    assert.equal(rig.pool.asked, []);
  } finally {
    await rig.close();
  }
});

test.run();
