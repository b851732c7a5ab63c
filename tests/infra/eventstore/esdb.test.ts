import { test } from 'uvu';
import { randomUUID } from 'node:crypto';
import { createEsdbEventStore } from '../../../infra/eventstore/esdb.ts';

/**
 * The shared event-store contract against a real EventStoreDB, only when `EVENTSTORE_URL` points at one
 * (e.g. `esdb://localhost:2113?tls=false`). Each store gets its own random stream prefix, so every test sees
 * an empty store although they all share one database (and earlier runs' events stay where they are).
 */
const url = process.env.EVENTSTORE_URL;

if (!url) {
  console.log('eventstoredb contract suite: skipped (EVENTSTORE_URL not set)');
  test.run();
} else {
  // Imported only when it runs: the skip path must not depend on anything the contract needs.
  const { defineEventStoreContract } = await import('./contract.ts');
  defineEventStoreContract('eventstoredb', async () => {
    const store = createEsdbEventStore(url, { streamPrefix: `t${randomUUID().replaceAll('-', '').slice(0, 12)}-` });
    return { store, cleanup: () => store.close() };
  });
}
