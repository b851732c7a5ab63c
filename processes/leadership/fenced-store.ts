import { FencedOff, type EventStore, type Fence } from '../../infra/eventstore/port.ts';
import { TERMS_STREAM } from './lease-decision.ts';

/**
 * The event store as a cluster leader's singleton work sees it: every append carries the fence of the term this
 * node holds, so the store refuses it once another node has taken the lease. Without a term (the node no longer
 * leads, or never did) every append is refused here.
 */
export function fencedStore(store: EventStore, currentFence: () => Fence | null): EventStore {
  return {
    ...store,
    append(stream, events, options) {
      const fence = currentFence();
      if (fence === null) return Promise.reject(new FencedOff({ stream: TERMS_STREAM, revision: -1 }, 'no_stream'));
      return store.append(stream, events, { ...options, fence });
    },
  };
}
