/**
 * A real HTTP server on 127.0.0.1 that answers POST /v1/chat/completions in the documented OpenAI shape
 * (`choices[0].message.content`), scripted per test: good, malformed, slow, failing answers. It records every
 * request (headers and parsed body) and the most requests it held at once, so tests can check what the service
 * sent and its concurrency limit.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: { type: string }; max_tokens?: number; [key: string]: unknown };
}

export interface ChatReply {
  /** Default 200. */
  status?: number;
  /** The assistant message's content (a JSON text when well-behaved). */
  content?: string;
  /** A whole raw body instead of the chat-completion envelope. */
  rawBody?: string;
  /** Waits this long before answering (a slow model). */
  delayMs?: number;
  /** Default `stop`. */
  finishReason?: string;
}

export type ChatScript = (request: ChatRequest, index: number) => ChatReply;

export interface ChatCompletionsServer {
  /** The base URL (`http://127.0.0.1:PORT/v1`): what ANALYZER_API_URL is set to. */
  readonly url: string;
  readonly requests: ChatRequest[];
  /** The most requests in progress at once so far. */
  readonly maxConcurrent: number;
  /** Replaces the script (and clears the records). */
  reset(script: ChatScript): void;
  close(): Promise<void>;
}

/** A chat-completion document as OpenAI, vLLM, llama.cpp and Ollama answer it. */
export function chatCompletion(content: string, finishReason = 'stop'): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
  });
}

export async function startChatCompletionsServer(initial: ChatScript): Promise<ChatCompletionsServer> {
  let script = initial;
  const requests: ChatRequest[] = [];
  let inFlight = 0;
  let maxConcurrent = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      inFlight++;
      maxConcurrent = Math.max(maxConcurrent, inFlight);
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        inFlight--;
      };
      outgoing.on('close', finish);
      const request: ChatRequest = { path: incoming.url ?? '', headers: incoming.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      const index = requests.push(request) - 1;
      const reply = script(request, index);
      const send = () => {
        if (outgoing.destroyed) return finish();
        const body = reply.rawBody ?? chatCompletion(reply.content ?? '', reply.finishReason);
        outgoing.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        outgoing.end(body, finish);
      };
      if (reply.delayMs) {
        const timer = setTimeout(send, reply.delayMs);
        outgoing.on('close', () => clearTimeout(timer));
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxConcurrent() {
      return maxConcurrent;
    },
    reset(next) {
      script = next;
      requests.length = 0;
      maxConcurrent = inFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
