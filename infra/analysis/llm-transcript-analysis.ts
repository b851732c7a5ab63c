/**
 * The optional LLM analyzer (ANALYZER_API_URL): summary, sentiment and intent from an OpenAI-compatible
 * chat-completions endpoint, QA scoring always offline. It wraps the offline TranscriptAnalysis (the worker pool
 * running the lexicon analyzer), which is also its fallback: when the request fails, times out, or the answer is
 * not valid twice, the lexicon analyzer answers and the job says why (`analyzer.fallback_reason`). A job never
 * fails because the LLM did.
 *
 * Where it runs: on the event loop, not in the pool's worker threads. The call is network I/O (seconds of waiting,
 * no CPU), and a worker thread waiting for it would hold one of the few analysis slots and run out the pool's CPU
 * budget while idle. What this side does with the CPU is bounded and small: the prompt is built in one pass over
 * a transcript the API already caps (1,000,000 characters) and cut to the token budget, and the answer read is
 * capped at 1 MB before JSON.parse and a zod check.
 *
 * Concurrency: at most `concurrency` requests at once across the process (ANALYZER_CONCURRENCY); waiting jobs take
 * turns by workspace (WorkspaceTurns), so one workspace's burst does not hold the LLM for the others. The request
 * timeout counts from when a request is sent, not from the wait for a slot.
 */
import type { Logger } from '../logger.ts';
import { WorkspaceTurns } from '../worker-threads/workspace-turns.ts';
import { ChatCompletionFailed, type ChatCompletionsClient } from './chat-completions-client.ts';
import { describeSchemaProblem, llmAnswerSchema, type LlmAnswer } from './llm-answer-schema.ts';
import { buildPrompt, correctionMessages, type LlmField } from './llm-prompt.ts';
import type { AnalysisTaskOptions, AnalyzerFallbackReason, AnalyzerReport, TranscriptAnalysis, TranscriptAnalysisInput, TranscriptAnalysisResult } from './transcript-analysis.ts';

export interface LlmAnalysisOptions {
  client: ChatCompletionsClient;
  /** Requests at once across the process (ANALYZER_CONCURRENCY). */
  concurrency: number;
  /** The prompt's size limit in estimated tokens (ANALYZER_MAX_INPUT_TOKENS); the transcript is cut to fit. */
  maxInputTokens: number;
  logger: Logger;
}

const LLM_FIELDS: readonly LlmField[] = ['summary', 'sentiment', 'intent'];

class AnswerRejected extends Error {
  constructor(
    readonly reason: 'invalid_json' | 'schema_invalid',
    readonly detail: string,
  ) {
    super(detail);
  }
}

export function llmTranscriptAnalysis(offline: TranscriptAnalysis, options: LlmAnalysisOptions): TranscriptAnalysis {
  const { client, logger } = options;
  const slots = new WorkspaceTurns(options.concurrency);

  /** The validated answer, after at most one retry of an answer that was not valid JSON of the schema. */
  async function ask(input: TranscriptAnalysisInput, fields: LlmField[], taskOptions: AnalysisTaskOptions): Promise<LlmAnswer> {
    const prompt = buildPrompt({ segments: input.segments, language: input.language, fields, maxInputTokens: options.maxInputTokens });
    if (prompt.truncated) logger.info({ job_id: taskOptions.jobId, omitted_turns: prompt.omittedLines, estimated_tokens: prompt.estimatedTokens }, 'transcript cut to the analyzer token budget');
    const schema = llmAnswerSchema(fields, prompt.speakers, prompt.promptLanguage);
    let messages = prompt.messages;
    const turn = await slots.take(taskOptions.workspaceId ?? '', taskOptions.signal);
    const started = Date.now();
    try {
      for (let attempt = 1; ; attempt++) {
        const content = await client.complete(messages, taskOptions.signal);
        try {
          const answer = validated(content, schema);
          logger.debug({ job_id: taskOptions.jobId, model: client.model, attempts: attempt, ms: Date.now() - started, estimated_tokens: prompt.estimatedTokens }, 'LLM analyzer answered');
          return answer;
        } catch (error) {
          if (!(error instanceof AnswerRejected) || attempt === 2) throw error;
          logger.info({ job_id: taskOptions.jobId, reason: error.reason, problem: error.detail }, 'analyzer answer rejected; asking once more');
          messages = [...prompt.messages, ...correctionMessages(content, error.detail)];
        }
      }
    } finally {
      turn.end();
    }
  }

  return {
    async analyse(input, taskOptions = {}) {
      const fields = LLM_FIELDS.filter((field) => input.features.includes(field));
      if (fields.length === 0) return offline.analyse(input, taskOptions);
      // Nothing was said (a silent recording): nothing to ask a model about; the lexicon's empty result stands.
      if (!input.segments.some((segment) => segment.text.trim() !== '')) return offline.analyse(input, taskOptions);
      let answer: LlmAnswer;
      try {
        answer = await ask(input, fields, taskOptions);
      } catch (error) {
        if (taskOptions.signal?.aborted) throw taskOptions.signal.reason;
        const fallback = fallbackOf(error);
        logger.warn({ job_id: taskOptions.jobId, reason: fallback.fallback_reason, detail: fallback.fallback_detail, err: error }, 'LLM analyzer failed; the lexicon analyzer answers');
        return { ...(await offline.analyse(input, taskOptions)), analyzer: fallback };
      }
      // QA scoring stays offline (a scorecard's checks are exact phrase rules, not a model's opinion).
      const qa = input.features.includes('qa_scoring') && input.scorecard !== null ? (await offline.analyse({ ...input, features: ['qa_scoring'] }, taskOptions)).qa_score : null;
      const report: AnalyzerReport = { name: 'llm', model: client.model, fallback_reason: null, fallback_detail: null };
      return {
        summary: fields.includes('summary') ? answer.summary! : null,
        sentiment: fields.includes('sentiment') ? answer.sentiment! : null,
        intent: fields.includes('intent') ? (answer.intent ?? null) : null,
        qa_score: qa,
        analyzer: report,
      } satisfies TranscriptAnalysisResult;
    },
    close: () => offline.close(),
  };
}

/**
 * The answer as the schema reads it. `response_format: json_object` is asked for, but not every server enforces
 * it: a JSON object inside a Markdown code fence is accepted too, and so is one after a reasoning model's
 * `<think>…</think>` block (Qwen3, DeepSeek-R1 served without a reasoning parser).
 */
function validated(content: string, schema: ReturnType<typeof llmAnswerSchema>): LlmAnswer {
  const thought = content.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
  const unfenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(thought)?.[1] ?? thought;
  let json: unknown;
  try {
    json = JSON.parse(unfenced);
  } catch {
    throw new AnswerRejected('invalid_json', 'the answer was not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new AnswerRejected('invalid_json', 'the answer was not a JSON object');
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AnswerRejected('schema_invalid', describeSchemaProblem(parsed.error));
  return parsed.data as LlmAnswer;
}

function fallbackOf(error: unknown): AnalyzerReport {
  let reason: AnalyzerFallbackReason;
  let detail: string;
  if (error instanceof ChatCompletionFailed) {
    reason = error.reason;
    detail = error.detail;
  } else if (error instanceof AnswerRejected) {
    reason = error.reason;
    detail = `${error.detail} (twice)`;
  } else {
    reason = 'invalid_response';
    detail = 'the analyzer answer could not be used';
  }
  return { name: 'lexicon', model: null, fallback_reason: reason, fallback_detail: detail };
}
