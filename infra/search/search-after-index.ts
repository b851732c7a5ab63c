import type { TranscriptSearcher } from './port.ts';

/**
 * A searcher that first waits until the search index (its own lane, search.db: projections/read-model-lanes.ts)
 * shows what the read models show: a client that saw its job completed finds its transcript, as it would have with
 * one lane. The wait is bounded like read-your-writes: past it, the search answers from the index as it is.
 */
export function searchingAfterIndex(searcher: TranscriptSearcher, indexCaughtUp: () => Promise<boolean>): TranscriptSearcher {
  return {
    async search(search) {
      await indexCaughtUp();
      return searcher.search(search);
    },
    close: () => searcher.close(),
  };
}
