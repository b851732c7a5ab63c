import { createRequire } from 'node:module';
import type * as EsdbClient from '@eventstore/db-client';

let loaded: typeof EsdbClient | null = null;

/**
 * The EventStoreDB client library, loaded on first use: with gRPC and protobuf it takes about 0.2 s to load, and
 * only a service configured with `EVENTSTORE_URL` needs it (the server, every worker thread and every CLI command
 * import the composition root, and paid for it on every start).
 */
export function esdbClient(): typeof EsdbClient {
  return (loaded ??= createRequire(import.meta.url)('@eventstore/db-client') as typeof EsdbClient);
}
