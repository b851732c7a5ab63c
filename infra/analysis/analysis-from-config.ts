/**
 * The TranscriptAnalysis the server uses: the offline pool (lexicon analyzer on worker threads), behind the LLM
 * analyzer when ANALYZER_API_URL is set. The configuration was validated at start (infra/config.ts).
 */
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { createChatCompletionsClient } from './chat-completions-client.ts';
import { llmTranscriptAnalysis } from './llm-transcript-analysis.ts';
import type { TranscriptAnalysis } from './transcript-analysis.ts';

export type AnalyzerConfig = Pick<
  Config,
  | 'ANALYZER_API_URL'
  | 'ANALYZER_API_KEY'
  | 'ANALYZER_MODEL'
  | 'ANALYZER_TIMEOUT_SECONDS'
  | 'ANALYZER_CONCURRENCY'
  | 'ANALYZER_MAX_INPUT_TOKENS'
  | 'ANALYZER_MAX_OUTPUT_TOKENS'
  | 'ALLOW_PRIVATE_TARGETS'
>;

export function transcriptAnalysisFromConfig(config: AnalyzerConfig, offline: TranscriptAnalysis, logger: Logger): TranscriptAnalysis {
  if (config.ANALYZER_API_URL === undefined || config.ANALYZER_MODEL === undefined) return offline;
  const client = createChatCompletionsClient({
    url: config.ANALYZER_API_URL,
    apiKey: config.ANALYZER_API_KEY,
    model: config.ANALYZER_MODEL,
    policy: { allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS, protocols: ['http:', 'https:'] },
    timeoutMs: config.ANALYZER_TIMEOUT_SECONDS * 1000,
    maxOutputTokens: config.ANALYZER_MAX_OUTPUT_TOKENS,
  });
  // The key stays out of this line (and every other): the host and model are enough to tell which server is used.
  logger.info({ analyzer_host: new URL(config.ANALYZER_API_URL).host, model: config.ANALYZER_MODEL, concurrency: config.ANALYZER_CONCURRENCY }, 'LLM analyzer configured');
  return llmTranscriptAnalysis(offline, {
    client,
    concurrency: config.ANALYZER_CONCURRENCY,
    maxInputTokens: config.ANALYZER_MAX_INPUT_TOKENS,
    logger,
  });
}
