import type { TranscriptSearch, TranscriptSearchResult } from '../../projections/transcript-search-queries.ts';

/** One page of transcript search (GET /v1/analytics/search): the exact total and the page's results. */
export interface TranscriptSearchPage {
  total: number;
  results: TranscriptSearchResult[];
}

/** Runs transcript searches over the read models somewhere the event loop does not wait for them. */
export interface TranscriptSearcher {
  search(search: TranscriptSearch): Promise<TranscriptSearchPage>;
  close(): Promise<void>;
}

/** A search ran past its budget (SEARCH_BUDGET_MS) and was stopped. */
export class SearchBudgetExceededError extends Error {
  constructor(readonly budgetMs: number) {
    super(`The search did not finish within ${budgetMs} ms.`);
    this.name = 'SearchBudgetExceededError';
  }
}
