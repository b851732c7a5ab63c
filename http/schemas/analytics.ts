import { z } from '@hono/zod-openapi';
import { SENTIMENT_BUCKETS } from '../../projections/sentiment-bucket.ts';

/** The analytics endpoints' queries and results (SPEC: Call analytics result, Aggregated QA result). */

const timeBound = (description: string, example: string) => z.string().openapi({ description, example });

const timezone = z
  .string()
  .optional()
  .openapi({ description: 'IANA time zone for date bounds and day/week boundaries (beyond the spec; default UTC).', example: 'Asia/Kolkata' });

export const CallAnalyticsQuery = z.object({
  from: timeBound('Inclusive. A date is that whole day in `timezone`; a date-time without offset is wall-clock time in `timezone`.', '2026-03-01'),
  to: timeBound('Inclusive (a date covers that whole day). At most 366 days after `from`.', '2026-03-31'),
  campaign_id: z.string().optional(),
  agent_id: z.string().optional().openapi({ description: 'Calls handled by that agent (human escalations and manually dialed calls).' }),
  language: z.string().optional().openapi({ description: 'BCP-47 code of the calls.', example: 'hi-IN' }),
  group_by: z.enum(['day', 'week', 'agent', 'campaign', 'language']).optional().openapi({ description: 'Adds `grouped_data`. Weeks start on Monday (ISO 8601).' }),
  timezone,
});

const average = (description: string) => z.number().nullable().openapi({ description });

const GroupSchema = z
  .object({
    group: z.string().nullable().openapi({ description: 'day/week: the period start date (YYYY-MM-DD, in `timezone`); agent/campaign: the id (null for the calls without one: single calls without an agent, standalone jobs; as in the reports); language: the code.' }),
    total_calls: z.int(),
    connected_calls: z.int(),
    avg_duration_seconds: average('Over connected calls; 0 for a period without calls, null when calls but none connected.'),
    avg_qa_score: average('Over QA-scored calls; 0 for a period without calls, null when none was scored.'),
  })
  .openapi('CallAnalyticsGroup');

export const CallAnalyticsSchema = z
  .object({
    from: z.string().openapi({ description: 'Echo of the query.' }),
    to: z.string().openapi({ description: 'Echo of the query.' }),
    timezone: z.string(),
    total_calls: z.int().openapi({ description: 'Calls that started in the range (campaign attempts and single calls).' }),
    connected_calls: z.int().openapi({ description: 'Calls that were answered.' }),
    connection_rate: z.number().openapi({ description: 'connected_calls / total_calls; 0 without calls.' }),
    avg_duration_seconds: average('Average duration of connected calls; null when none connected.'),
    sentiment_breakdown: z
      .object(Object.fromEntries(SENTIMENT_BUCKETS.map((bucket) => [bucket, z.number()])) as Record<(typeof SENTIMENT_BUCKETS)[number], z.ZodNumber>)
      .openapi({ description: 'Fractions of the analysed calls (overall sentiment > 0.25 positive, < -0.25 negative, else neutral); all 0 when none was analysed.' }),
    intent_breakdown: z.record(z.string(), z.int()).openapi({ description: 'Intent label to number of calls.' }),
    avg_qa_score: average('Average QA overall_score (0-100) of scored calls; null when none was scored.'),
    grouped_data: z.array(GroupSchema).optional().openapi({ description: 'Only with group_by; day and week list every period of the range, zeros included.' }),
  })
  .openapi('CallAnalytics');

export const QaAnalyticsQuery = z.object({
  call_id: z.string().optional().openapi({ description: 'When given, every other filter is ignored: that call\'s QA results.' }),
  from: timeBound('Required without call_id. Inclusive; see /analytics/calls.', '2026-03-01').optional(),
  to: timeBound('Required without call_id. Inclusive.', '2026-03-31').optional(),
  agent_id: z.string().optional(),
  scorecard_id: z.string().optional(),
  timezone,
});

const ParameterScoreSchema = z.object({ parameter_name: z.string(), score: z.number(), max_score: z.number(), passed: z.boolean() });

export const CallQaSchema = z
  .object({
    call_id: z.string(),
    results: z
      .array(
        z.object({
          scorecard_id: z.string(),
          scorecard_version: z.int(),
          overall_score: z.number().openapi({ description: 'Percentage 0-100.' }),
          passed: z.boolean(),
          parameter_scores: z.array(ParameterScoreSchema),
        }),
      )
      .openapi({ description: 'One per scorecard the call was scored against; empty when it was not scored.' }),
  })
  .openapi('CallQaResults');

export const AggregatedQaSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    calls_evaluated: z.int().openapi({ description: 'Scored calls and standalone transcription jobs in the range.' }),
    overall_score: average('Average overall_score; null when nothing was evaluated.'),
    pass_rate: z.number().openapi({ description: 'Fraction of evaluations that passed; 0 when none.' }),
    parameter_scores: z
      .array(z.object({ name: z.string(), avg_score: z.number(), max_score: z.number(), pass_rate: z.number() }))
      .openapi({ description: 'By parameter name, across scorecards and versions; max_score is the highest the parameter had.' }),
  })
  .openapi('AggregatedQa');
