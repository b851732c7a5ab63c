import { z } from '@hono/zod-openapi';
import { scorecardSchema } from '../../infra/analysis/scorecard-schema.ts';
import { Timestamp, listEnvelope } from './common.ts';

/**
 * The body of POST /v1/qa/scorecards and PUT /v1/qa/scorecards/{id}: the analysis module's scorecard schema, the
 * same one the scorer reads, so what is accepted is exactly what can be scored (docs/analysis.md lists the
 * checks and every validation message).
 */
// zod's own `.meta` (the OpenAPI generator reads `id` as the component name): the analysis module builds this
// schema with plain zod, possibly before @hono/zod-openapi has added `.openapi` to zod's schemas.
export const QaScorecardBody = scorecardSchema.meta({
  id: 'QaScorecardInput',
  example: {
    name: 'Renewal QA',
    pass_threshold: 70,
    parameters: [
      { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning', 'hello'], hi: ['नमस्ते', 'namaste'] }, within_seconds: 15 } },
      { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } },
      { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['yes'] } } },
      { name: 'talk_balance', max_score: 10, check: { type: 'talk_ratio', max_agent_share: 0.7 } },
    ],
  },
});

export const QaScorecardSchema = z
  .object({
    id: z.string().openapi({ example: 'qsc_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    name: z.string(),
    description: z.string().optional(),
    pass_threshold: z.number(),
    parameters: z.array(z.record(z.string(), z.unknown())).openapi({ description: 'As submitted.' }),
    version: z.int().openapi({ description: 'Starts at 1; every PUT that changes the scorecard adds one. Jobs keep the version they were submitted with.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('QaScorecard');

export const QaScorecardListSchema = listEnvelope(QaScorecardSchema, 'QaScorecardList');

export const DeletedQaScorecardSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedQaScorecard');
