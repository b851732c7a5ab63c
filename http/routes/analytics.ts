import type { z } from '@hono/zod-openapi';
import { validateLanguage } from '../../domain/campaign.ts';
import { callAnalytics, type CallTotals } from '../../projections/call-analytics.ts';
import { findCall } from '../../projections/calls.ts';
import { callQaResults, qaSums } from '../../projections/qa-analytics.ts';
import { parseAnalyticsRange } from '../analytics-range.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import type { ResourcePorts } from '../ports.ts';
import { AggregatedQaSchema, CallAnalyticsQuery, CallAnalyticsSchema, CallQaSchema, QaAnalyticsQuery } from '../schemas/analytics.ts';

const TAG = 'Analytics';

const callAnalyticsRoute = defineRoute({
  method: 'get',
  path: '/analytics/calls',
  operationId: 'getCallAnalytics',
  tags: [TAG],
  summary: 'Call analytics over a range',
  description: 'Totals, connection rate, durations, sentiment and intent mix and QA average of the calls that started in the range; `group_by` adds per-period or per-dimension figures (days and weeks with zeros).',
  request: { query: CallAnalyticsQuery },
  responses: { 200: { description: 'The figures.', content: { 'application/json': { schema: CallAnalyticsSchema } } } },
});

const qaAnalyticsRoute = defineRoute({
  method: 'get',
  path: '/analytics/qa',
  operationId: 'getQaAnalytics',
  tags: [TAG],
  summary: 'QA results of a call, or QA aggregated over a range',
  description: 'With `call_id`: that call\'s QA results (404 when the call does not exist; empty `results` when it was not scored). Otherwise `from` and `to` are required.',
  request: { query: QaAnalyticsQuery },
  responses: {
    200: {
      description: 'A call\'s results (with call_id) or the aggregate.',
      content: { 'application/json': { schema: CallQaSchema.or(AggregatedQaSchema) } },
    },
  },
});

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** An average over `count` items with the figure; null when none has it. */
const averageOf = (sum: number, count: number) => (count === 0 ? null : round(sum / count, 2));
const rateOf = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 4));

function groupFigures(group: string, totals: CallTotals) {
  // A period without calls shows every metric as 0 (the spec's rule for empty days).
  const empty = totals.total_calls === 0;
  return {
    // The read model keys calls without a campaign or an agent by '' (SQLite keys treat NULLs as distinct); the API
    // says null, as the reports do for the same calls.
    group: group === '' ? null : group,
    total_calls: totals.total_calls,
    connected_calls: totals.connected_calls,
    avg_duration_seconds: empty ? 0 : averageOf(totals.duration_sum, totals.connected_calls),
    avg_qa_score: empty ? 0 : averageOf(totals.qa_sum, totals.qa_count),
  };
}

export function analyticsRoutes({ readDb }: Pick<ResourcePorts, 'readDb'>) {
  const router = createRouter();

  router.openapi(callAnalyticsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    const range = parseAnalyticsRange(query);
    if (query.language !== undefined) validateLanguage(query.language);
    const filter = { campaign_id: query.campaign_id, agent_id: query.agent_id, language: query.language };
    const { totals, intents, groups } = callAnalytics(readDb, workspaceId, range, filter, query.group_by);
    const analysed = totals.positive + totals.neutral + totals.negative;
    const body: z.infer<typeof CallAnalyticsSchema> = {
      from: query.from,
      to: query.to,
      timezone: range.timezone,
      total_calls: totals.total_calls,
      connected_calls: totals.connected_calls,
      connection_rate: rateOf(totals.connected_calls, totals.total_calls),
      avg_duration_seconds: averageOf(totals.duration_sum, totals.connected_calls),
      sentiment_breakdown: { positive: rateOf(totals.positive, analysed), neutral: rateOf(totals.neutral, analysed), negative: rateOf(totals.negative, analysed) },
      intent_breakdown: intents,
      avg_qa_score: averageOf(totals.qa_sum, totals.qa_count),
    };
    if (groups) body.grouped_data = groups.map(({ group, totals: groupTotals }) => groupFigures(group, groupTotals));
    return c.json(body, 200);
  });

  router.openapi(qaAnalyticsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    if (query.call_id !== undefined) {
      if (!findCall(readDb, workspaceId, query.call_id)) throw resourceNotFound('call', query.call_id);
      return c.json({ call_id: query.call_id, results: callQaResults(readDb, workspaceId, query.call_id) }, 200);
    }
    if (query.from === undefined) throw invalidParameter('from', null, 'an ISO 8601 date or date-time (required without call_id)');
    if (query.to === undefined) throw invalidParameter('to', null, 'an ISO 8601 date or date-time (required without call_id)');
    const range = parseAnalyticsRange({ from: query.from, to: query.to, timezone: query.timezone });
    const sums = qaSums(readDb, workspaceId, range, { agent_id: query.agent_id, scorecard_id: query.scorecard_id });
    return c.json(
      {
        from: query.from,
        to: query.to,
        timezone: range.timezone,
        calls_evaluated: sums.evaluated,
        overall_score: averageOf(sums.score_sum, sums.evaluated),
        pass_rate: rateOf(sums.passed, sums.evaluated),
        parameter_scores: sums.parameters.map((parameter) => ({
          name: parameter.name,
          avg_score: averageOf(parameter.score_sum, parameter.evaluated) ?? 0,
          max_score: parameter.max_score,
          pass_rate: rateOf(parameter.passed, parameter.evaluated),
        })),
      },
      200,
    );
  });

  return router;
}
