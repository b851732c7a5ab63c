import { searchTranscripts } from '../../projections/transcript-search-queries.ts';
import { searchWords } from '../../projections/search-text.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import type { ResourcePorts } from '../ports.ts';
import { AnalyticsSearchQuery, TranscriptSearchResponseSchema } from '../schemas/analytics-search.ts';
import { checkTimeRange } from '../schemas/time-range.ts';

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
  responses: { 200: { description: 'A page of matching segments.', content: { 'application/json': { schema: TranscriptSearchResponseSchema } } } },
});

export function analyticsSearchRoutes({ readDb }: Pick<ResourcePorts, 'readDb'>) {
  const router = createRouter();
  router.openapi(searchRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    checkTimeRange(query, { to: c.req.query('to') });
    const { total, results } = searchTranscripts(readDb, {
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
    return c.json({ query: query.query, total_matches: total, limit: query.limit, offset: query.offset, results }, 200);
  });
  return router;
}
