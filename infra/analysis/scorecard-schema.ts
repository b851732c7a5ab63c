/**
 * QA scorecards: named parameters, each a check on the transcript worth `max_score` points when it holds.
 *
 * Check types:
 *   agent_says     the agent says one of the phrases; optionally starting within the first `within_seconds` of
 *                  the recording, or ending within the last `in_last_seconds` of it (a closing check)
 *   agent_avoids   the agent says none of the phrases (compliance: threats, abuse)
 *   customer_says  the customer says one of the phrases
 *   talk_ratio     the agent's share of speaking time is at most `max_agent_share` (and at least
 *                  `min_agent_share` when given)
 *   max_silence    no gap between consecutive speech lasts longer than `max_seconds`
 * Phrases are keyed by language subtag (en, hi, mr, ta, te); see qa.ts for how a call's language picks lists.
 */
import { z } from 'zod';

export const MAX_PARAMETERS = 50;
export const CHECK_TYPES = ['agent_says', 'agent_avoids', 'customer_says', 'talk_ratio', 'max_silence'] as const;

const LANGUAGE_SUBTAG = /^[a-z]{2,3}$/;

const phraseListsSchema = z
  .record(
    z.string(),
    z
      .array(
        z.string({ error: 'each phrase must be text' }).trim().min(1, { error: 'phrases must not be empty text' }),
        { error: 'each language must map to a list of phrases' },
      )
      .min(1, { error: 'each language must list at least one phrase' }),
    { error: 'phrases must be an object of language subtag to a list of phrases, e.g. {"en": ["hello"]}' },
  )
  .superRefine((lists, context) => {
    const languages = Object.keys(lists);
    if (languages.length === 0) {
      context.addIssue({ code: 'custom', message: 'phrases must list phrases for at least one language' });
    }
    for (const language of languages) {
      if (!LANGUAGE_SUBTAG.test(language)) {
        context.addIssue({
          code: 'custom',
          path: [language],
          message:
            `phrases must be keyed by a lower-case language subtag such as en, hi, mr, ta, te (got "${language}")`,
        });
      }
    }
  });

const positiveSeconds = (field: string) =>
  z.number({ error: `${field} must be a number of seconds` }).gt(0, { error: `${field} must be greater than 0` });

const share = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .gt(0, { error: `${field} must be greater than 0 and at most 1` })
    .lte(1, { error: `${field} must be greater than 0 and at most 1` });

const agentSaysSchema = z.strictObject({
  type: z.literal('agent_says'),
  phrases: phraseListsSchema,
  within_seconds: positiveSeconds('within_seconds').optional(),
  in_last_seconds: positiveSeconds('in_last_seconds').optional(),
});

const agentAvoidsSchema = z.strictObject({ type: z.literal('agent_avoids'), phrases: phraseListsSchema });

const customerSaysSchema = z.strictObject({ type: z.literal('customer_says'), phrases: phraseListsSchema });

const talkRatioSchema = z
  .strictObject({
    type: z.literal('talk_ratio'),
    max_agent_share: share('max_agent_share').optional(),
    min_agent_share: z
      .number({ error: 'min_agent_share must be a number' })
      .gte(0, { error: 'min_agent_share must be at least 0 and below 1' })
      .lt(1, { error: 'min_agent_share must be at least 0 and below 1' })
      .optional(),
  })
  .superRefine((check, context) => {
    if (check.max_agent_share === undefined && check.min_agent_share === undefined) {
      context.addIssue({ code: 'custom', message: 'talk_ratio needs max_agent_share, min_agent_share or both' });
    }
    if (
      check.max_agent_share !== undefined &&
      check.min_agent_share !== undefined &&
      check.min_agent_share >= check.max_agent_share
    ) {
      context.addIssue({
        code: 'custom',
        path: ['min_agent_share'],
        message: 'min_agent_share must be below max_agent_share',
      });
    }
  });

const maxSilenceSchema = z.strictObject({
  type: z.literal('max_silence'),
  max_seconds: positiveSeconds('max_seconds'),
});

const checkSchema = z.discriminatedUnion(
  'type',
  [agentSaysSchema, agentAvoidsSchema, customerSaysSchema, talkRatioSchema, maxSilenceSchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `check.type must be one of ${CHECK_TYPES.join(', ')}`
        : 'check must be an object',
  },
);

// Strict like the checks: a misspelt field ("max_scor") is refused, never silently dropped.
const parameterSchema = z.strictObject({
  name: z
    .string({ error: 'parameter name must be text' })
    .trim()
    .min(1, { error: 'parameter name must not be empty' })
    .max(100, { error: 'parameter name must be at most 100 characters' }),
  description: z.string({ error: 'parameter description must be text' }).max(1000).optional(),
  max_score: z
    .number({ error: 'max_score must be a number' })
    .gt(0, { error: 'max_score must be greater than 0' })
    .lte(1000, { error: 'max_score must be at most 1000' }),
  check: checkSchema,
});

export const scorecardSchema = z
  .strictObject({
    name: z
      .string({ error: 'name must be text' })
      .trim()
      .min(1, { error: 'name must not be empty' })
      .max(200, { error: 'name must be at most 200 characters' }),
    description: z.string({ error: 'description must be text' }).max(2000).optional(),
    pass_threshold: z
      .number({ error: 'pass_threshold must be a number from 0 to 100' })
      .gte(0, { error: 'pass_threshold must be a number from 0 to 100' })
      .lte(100, { error: 'pass_threshold must be a number from 0 to 100' }),
    parameters: z
      .array(parameterSchema, { error: 'parameters must be a list' })
      .min(1, { error: `parameters must hold 1 to ${MAX_PARAMETERS} parameters` })
      .max(MAX_PARAMETERS, { error: `parameters must hold 1 to ${MAX_PARAMETERS} parameters` }),
  })
  .superRefine((scorecard, context) => {
    const seen = new Set<string>();
    scorecard.parameters.forEach((parameter, index) => {
      if (seen.has(parameter.name)) {
        context.addIssue({
          code: 'custom',
          path: ['parameters', index, 'name'],
          message: `parameter name "${parameter.name}" is used more than once; names must be unique`,
        });
      }
      seen.add(parameter.name);
    });
  });

export type Scorecard = z.infer<typeof scorecardSchema>;
export type ScorecardParameter = Scorecard['parameters'][number];
export type ScorecardCheck = ScorecardParameter['check'];
export type PhraseLists = Record<string, string[]>;
