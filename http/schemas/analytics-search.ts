import { z } from '@hono/zod-openapi';
import { BCP47_DESCRIPTION, isBcp47Shape } from '../../domain/shared/language.ts';
import { searchWords } from '../../projections/search-text.ts';
import { PaginationQuery, Timestamp } from './common.ts';
import { TimeRangeQuery } from './time-range.ts';

export const MAX_QUERY_CHARACTERS = 200;
/** Each word after the first is one proximity condition of the SQL: ten bound a query's cost. */
export const MAX_QUERY_WORDS = 10;

const QUERY_EXPECTED = `a search text of 1 to ${MAX_QUERY_CHARACTERS} characters with at most ${MAX_QUERY_WORDS} words`;

const Identifier = (description: string) => z.string().min(1).max(100).optional().openapi({ description });

export const AnalyticsSearchQuery = PaginationQuery.extend({
  query: z
    .string({ error: QUERY_EXPECTED })
    .min(1, { error: QUERY_EXPECTED })
    .max(MAX_QUERY_CHARACTERS, { error: QUERY_EXPECTED })
    .refine((query) => searchWords(query).length > 0, { error: 'a search text with at least one character that is not white space' })
    .refine((query) => searchWords(query).length <= MAX_QUERY_WORDS, { error: QUERY_EXPECTED })
    .openapi({
      description:
        'Case-insensitive; matches parts of words in any script ("renew" finds "renewal"). Several words match where each ' +
        'occurs within 5 seconds of the segment holding the first. Punctuation is matched literally (no operators).',
      example: 'loan renewal',
    }),
  ...TimeRangeQuery,
  language: z.string().refine(isBcp47Shape, { error: BCP47_DESCRIPTION }).optional().openapi({ description: 'BCP-47, e.g. hi-IN.' }),
  campaign_id: Identifier('Only transcripts of this campaign\'s calls.'),
  call_id: Identifier('Only the transcript of this call.'),
  speaker: Identifier('Only results whose segment (the one holding the first word) was spoken by this speaker, e.g. `customer`.'),
});

const MatchedSegmentSchema = z.object({
  speaker: z.string().openapi({ example: 'customer' }),
  text: z.string().openapi({ description: 'Matched terms wrapped in `**`; markdown of the original text escaped with `\\`.', example: 'I want to **renew** my **loan**.' }),
  start_time: z.number().openapi({ example: 4.8 }),
  end_time: z.number().openapi({ example: 8.1 }),
});

export const TranscriptSearchResultSchema = MatchedSegmentSchema.extend({
  call_id: z.string().nullable().openapi({ description: 'Null for a standalone transcription job.', example: 'cal_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  job_id: z.string().openapi({ description: 'The transcription job whose transcript this is.', example: 'job_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  campaign_id: z.string().nullable(),
  contact_name: z.string().nullable().openapi({ description: 'Beyond the spec: the called contact\'s name, so that hits of many calls can be told apart; null for a standalone job.', example: 'Asha' }),
  timestamp: Timestamp.openapi({ description: 'The call\'s start (a standalone job: its submission) plus the segment\'s start_time.' }),
  other_segments: z.array(MatchedSegmentSchema).openapi({ description: 'For a phrase: the segments holding its other words, when not this one.' }),
}).openapi('TranscriptSearchResult');

export const TranscriptSearchResponseSchema = z
  .object({
    query: z.string(),
    total_matches: z.int(),
    limit: z.int(),
    offset: z.int(),
    results: z.array(TranscriptSearchResultSchema),
  })
  .openapi('TranscriptSearch');
