import { Agent, request, type ClientRequest } from 'node:http';
import type { ObservedResponse } from './response-contract.ts';

/**
 * One request over node:http, as sent (no URL normalisation, no body checks). The body goes up in slices and
 * stops as soon as the server has answered: a server that refuses a large upload early (413, `Connection: close`)
 * must be observed answering, not make the client fail with EPIPE (as fetch does).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const SLICE_BYTES = 256 * 1024;

function drainedOrClosed(outgoing: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done);
      resolve();
    };
    outgoing.on('drain', done).on('close', done);
  });
}

export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<ObservedResponse> {
  const url = new URL(baseUrl);
  const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8');
  // Node sends DELETE bodies without a length unless told, which the server would read as a second request.
  const allHeaders = bytes === undefined ? headers : { ...headers, 'content-length': String(bytes.byteLength) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request({ host: url.hostname, port: url.port, method, path, headers: allHeaders, agent }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', (error) => {
      // The answer may still be on its way (a loaded machine): only a server that never answers fails the request.
      if (!answered) setTimeout(() => answered || reject(new Error(`${method} ${path.slice(0, 100)} (${bytes?.byteLength ?? 0} bytes): ${error.message}`)), 5_000);
    });
    if (bytes === undefined) {
      outgoing.end();
      return;
    }
    void (async () => {
      // A server that refuses a large body by its declared length answers before reading it: give it the chance,
      // since a refused upload that keeps coming is reset, and the reset discards the answer.
      if (bytes.byteLength > SLICE_BYTES) {
        outgoing.flushHeaders();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (let offset = 0; offset < bytes.byteLength && !answered && !outgoing.destroyed; offset += SLICE_BYTES) {
        if (!outgoing.write(bytes.subarray(offset, offset + SLICE_BYTES))) await drainedOrClosed(outgoing);
      }
      if (!outgoing.destroyed) outgoing.end();
    })();
  });
}
