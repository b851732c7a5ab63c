import type { Database } from 'better-sqlite3';
import { contactNamesOf } from '../../projections/calls.ts';
import { SearchBudgetExceededError, type TranscriptSearcher } from '../../infra/search/port.ts';
import { searchWords } from '../../projections/search-text.ts';
import { errorResponse } from '../contract/error-responses.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { ApiError } from '../errors.ts';
import { AnalyticsSearchQuery, TranscriptSearchResponseSchema } from '../schemas/analytics-search.ts';
import { checkTimeRange } from '../schemas/time-range.ts';
import { validateLanguage } from '../../domain/campaign/validation.ts';

const searchRoute = defineRoute({
  method: 'get',
  path: '/analytics/search',
  operationId: 'searchTranscripts',
  tags: ['Analytics'],
  summary: 'Search transcripts',
  description:
    'Every segment of every call transcript and standalone transcription job of the workspace. One result is the segment ' +
    'holding the first word; newest call first, then by time in the call. Details in docs/analysis.md (Search).',
  request: { query: AnalyticsSearchQuery },
  responses: {
    200: { description: 'A page of matching segments.', content: { 'application/json': { schema: TranscriptSearchResponseSchema } } },
    503: errorResponse(
      'search_budget_exceeded: the search did not finish within the server\'s budget (`details.budget_ms`, SEARCH_BUDGET_MS); ' +
        'narrow it (a longer word, `from`/`to`, `language`). service_unavailable: the API key tables are being rebuilt after an upgrade; retry after `Retry-After` seconds.',
    ),
  },
});

export function analyticsSearchRoutes({ transcriptSearch, readDb }: { transcriptSearch: TranscriptSearcher; readDb: Database }) {
  const router = createRouter();
  router.openapi(searchRoute, async (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    checkTimeRange(query, { to: c.req.query('to') });
    // A language no call can have is refused, as the other endpoints' language filters do, not answered with nothing.
    if (query.language !== undefined) validateLanguage(query.language);
    try {
      const { total, results } = await transcriptSearch.search({
        workspaceId,
        words: searchWords(query.query),
        from: query.from,
        to: query.to,
        language: query.language,
        campaignId: query.campaign_id,
        callId: query.call_id,
        speaker: query.speaker,
        limit: query.limit,
        offset: query.offset,
      });
      const names = contactNamesOf(readDb, workspaceId, results.flatMap((hit) => (hit.call_id ? [hit.call_id] : [])));
      const named = results.map((hit) => ({ ...hit, contact_name: hit.call_id ? (names.get(hit.call_id) ?? null) : null }));
      return c.json({ query: query.query, total_matches: total, limit: query.limit, offset: query.offset, results: named }, 200);
    } catch (error) {
      if (error instanceof SearchBudgetExceededError) {
        throw new ApiError('search_budget_exceeded', `The search did not finish within ${error.budgetMs} ms; narrow it with a longer word, from/to or language.`, {
          budget_ms: error.budgetMs,
        });
      }
      throw error;
    }
  });
  return router;
}
