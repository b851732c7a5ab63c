/**
 * One request to an OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp's server, Ollama, OpenAI), through
 * the outbound guard (infra/outbound/request.ts: the address is checked and pinned; private targets only with
 * ALLOW_PRIVATE_TARGETS). Returns `choices[0].message.content`; every way it can fail is a ChatCompletionFailed
 * with a stable `reason` that the job shows (docs/analysis.md) and a `detail` safe to show to the job's client: it
 * never holds the endpoint's address or the API key.
 *
 * Endpoint: ANALYZER_API_URL is a base address (`http://host:11434` → `http://host:11434/v1/chat/completions`); one
 * ending in `/v1` gets `/chat/completions`; one ending in `/chat/completions` is used as given.
 */
import { openOutbound, OutboundTargetRefused, OutboundTimeout, type OutboundPolicy } from '../outbound/request.ts';
import type { ChatMessage } from './llm-prompt.ts';
import type { AnalyzerFallbackReason } from './transcript-analysis.ts';

/** How a request failed: the fallback reasons of the job (transcript-analysis.ts) that are not about the content. */
export type ChatFailureReason = Exclude<AnalyzerFallbackReason, 'invalid_json' | 'schema_invalid'>;

export class ChatCompletionFailed extends Error {
  constructor(
    readonly reason: ChatFailureReason,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${reason}: ${detail}`, options);
    this.name = 'ChatCompletionFailed';
  }
}

export function chatCompletionsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.endsWith('/chat/completions')) return trimmed;
  if (trimmed.endsWith('/v1')) return `${trimmed}/chat/completions`;
  return `${trimmed}/v1/chat/completions`;
}

export interface ChatCompletionsOptions {
  /** ANALYZER_API_URL. */
  url: string;
  /** ANALYZER_API_KEY: sent as `Authorization: Bearer ...` when set; never logged or shown. */
  apiKey?: string;
  /** ANALYZER_MODEL. */
  model: string;
  policy: OutboundPolicy;
  /** The whole request: connect, the answer's head and its body (ANALYZER_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** `max_tokens` of each answer (ANALYZER_MAX_OUTPUT_TOKENS). */
  maxOutputTokens: number;
}

/** A chat-completions answer of a few hundred tokens is a few kilobytes; this bounds a server gone wrong. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface ChatCompletionsClient {
  readonly model: string;
  complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string>;
}

export function createChatCompletionsClient(options: ChatCompletionsOptions): ChatCompletionsClient {
  const endpoint = chatCompletionsEndpoint(options.url);
  const timeoutSeconds = options.timeoutMs / 1000;
  return {
    model: options.model,
    async complete(messages, signal) {
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const body = JSON.stringify({
        model: options.model,
        messages,
        response_format: { type: 'json_object' },
        temperature: 0,
        max_tokens: options.maxOutputTokens,
        stream: false,
      });
      let text: string;
      let status: number;
      try {
        const response = await openOutbound(endpoint, { method: 'POST', headers, body, timeoutMs: options.timeoutMs, policy: options.policy, signal: stop });
        status = response.status;
        text = await readCapped(response.body, MAX_RESPONSE_BYTES, stop);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (deadline.aborted || error instanceof OutboundTimeout) throw new ChatCompletionFailed('timeout', `no answer within ${timeoutSeconds} s`, { cause: error });
        if (error instanceof OutboundTargetRefused) throw new ChatCompletionFailed('target_refused', 'the analyzer endpoint is not an allowed target (see ALLOW_PRIVATE_TARGETS)', { cause: error });
        if (error instanceof ResponseTooLarge) throw new ChatCompletionFailed('invalid_response', `the answer was larger than ${MAX_RESPONSE_BYTES} bytes`, { cause: error });
        throw new ChatCompletionFailed('unreachable', 'the analyzer endpoint could not be reached', { cause: error });
      }
      if (status < 200 || status > 299) {
        // The start of the answer goes to the operator's log (the cause); a proxy that echoes the key must not put it there.
        const excerpt = options.apiKey ? text.slice(0, 300).replaceAll(options.apiKey, '[redacted]') : text.slice(0, 300);
        throw new ChatCompletionFailed('http_error', `the analyzer endpoint answered HTTP ${status}`, { cause: new Error(excerpt) });
      }
      return contentOf(text);
    },
  };
}

class ResponseTooLarge extends Error {}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): void }, maxBytes: number, stop: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let received = 0;
  const onStop = () => body.destroy(stop.reason instanceof Error ? stop.reason : new Error('aborted'));
  stop.addEventListener('abort', onStop, { once: true });
  try {
    for await (const chunk of body) {
      received += chunk.length;
      if (received > maxBytes) {
        body.destroy();
        throw new ResponseTooLarge();
      }
      chunks.push(chunk);
    }
  } finally {
    stop.removeEventListener('abort', onStop);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `choices[0].message.content` of the documented answer shape; a cut-off answer (`finish_reason: length`) is a failure. */
function contentOf(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ChatCompletionFailed('invalid_response', 'the endpoint did not answer with a chat completion (not JSON)');
  }
  const choice = (parsed as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> } | null)?.choices?.[0];
  if (choice === undefined || typeof choice?.message?.content !== 'string') {
    throw new ChatCompletionFailed('invalid_response', 'the endpoint did not answer with a chat completion (no choices[0].message.content)');
  }
  if (choice.finish_reason === 'length') throw new ChatCompletionFailed('output_budget_exceeded', 'the answer was cut off at the output token budget (ANALYZER_MAX_OUTPUT_TOKENS)');
  return choice.message.content;
}
