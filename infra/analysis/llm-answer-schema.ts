/**
 * What an LLM's answer must be before the job uses it (llm-transcript-analysis.ts): the requested fields, each in
 * range. A model can answer anything: a sentiment of 3.0, an intent we never defined, a speaker who was not on the
 * call, a "summary" in the wrong script. Each is a rejected answer (a retry, then the offline analyzer), never a
 * value on the job.
 */
import { z } from 'zod';
import { INTENT_LABELS } from './intent-labels.ts';
import type { LlmField } from './llm-prompt.ts';
import type { SentimentResult } from './port.ts';

export interface LlmAnswer {
  summary?: string;
  sentiment?: SentimentResult;
  intent?: string | null;
}

const Score = z.number().min(-1).max(1);

/** Summaries are 2 to 4 sentences; this bounds a rambling one. */
const MAX_SUMMARY_CHARACTERS = 2_000;

/** Letters a summary in the language must contain (a romanised or English summary of a Tamil call is rejected). */
const SCRIPTS: Record<string, RegExp> = {
  hi: /\p{Script=Devanagari}/u,
  mr: /\p{Script=Devanagari}/u,
  ta: /\p{Script=Tamil}/u,
  te: /\p{Script=Telugu}/u,
};

/**
 * The schema of an answer asking for `fields` about a call with `speakers`, whose summary is written in
 * `summaryLanguage` (a prompt language of llm-prompt.ts). Fields not asked for are ignored.
 */
export function llmAnswerSchema(fields: readonly LlmField[], speakers: readonly string[], summaryLanguage: string) {
  const script = SCRIPTS[summaryLanguage];
  const summary = z
    .string()
    .trim()
    .min(1)
    .max(MAX_SUMMARY_CHARACTERS)
    .refine((text) => script === undefined || script.test(text), { error: `a summary written in the script of the call's language (${summaryLanguage})` });
  const sentiment = z
    .object({ overall: Score, by_speaker: z.record(z.string(), Score) })
    .refine((value) => speakers.every((speaker) => speaker in value.by_speaker), { error: `a score for every speaker (${speakers.join(', ')})`, path: ['by_speaker'] })
    .refine((value) => Object.keys(value.by_speaker).every((speaker) => speakers.includes(speaker)), { error: `no speaker but ${speakers.join(', ')}`, path: ['by_speaker'] });
  const intent = z.enum(INTENT_LABELS).nullable();
  return z.object({
    ...(fields.includes('summary') ? { summary } : {}),
    ...(fields.includes('sentiment') ? { sentiment } : {}),
    ...(fields.includes('intent') ? { intent } : {}),
  });
}

/** The first problem of a rejected answer in words (`sentiment.overall: Too big: expected number to be <=1`). */
export function describeSchemaProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}
