/**
 * A webhook receiver for tests: a real HTTPS server on loopback with a self-signed certificate made here with
 * openssl (for `localhost` and `127.0.0.1`), which records every request and verifies its signature the way the
 * spec tells receivers to: HMAC-SHA256 of the raw body, compared in constant time.
 *
 *   const certificate = makeCertificate();                      // { certPath, keyPath, cert, key, remove() }
 *   const receiver = await startReceiver(certificate, 'sekret'); // receiver.url, receiver.requests
 *   receiver.respond = () => 500;                                // or { status, delayMs }
 *
 * The service trusts the certificate through NODE_EXTRA_CA_CERTS=certPath (set in the server's environment).
 */
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  certPath: string;
  keyPath: string;
  cert: string;
  key: string;
  remove(): void;
}

export function makeCertificate(): Certificate {
  const directory = mkdtempSync(join(tmpdir(), 'receiver-cert-'));
  const certPath = join(directory, 'cert.pem');
  const keyPath = join(directory, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** `true`/`false` when the request carried a signature and the receiver has a secret; null otherwise. */
  signatureValid: boolean | null;
  receivedAt: number;
}

export type Behaviour = (request: ReceivedRequest) => number | { status: number; delayMs: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respond: Behaviour;
  /** Requests for one event name. */
  of(event: string): ReceivedRequest[];
  close(): Promise<void>;
}

/** The spec's verification: strip `sha256=`, compare the hex digests in constant time. */
export function verifySignature(secret: string, raw: string, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw, 'utf8').digest('hex'), 'utf8');
  const given = Buffer.from(header.slice('sha256='.length), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startReceiver(certificate: Certificate, secret: string | null = null, respond: Behaviour = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = {
    url: '',
    requests,
    respond,
    of: (event) => requests.filter((request) => request.body?.event === event),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const header = request.headers['x-service-signature'] as string | undefined;
      const received: ReceivedRequest = {
        path: request.url ?? '',
        headers: request.headers,
        raw,
        body,
        signatureValid: secret !== null && header !== undefined ? verifySignature(secret, raw, header) : null,
        receivedAt: Date.now(),
      };
      requests.push(received);
      const answer = receiver.respond(received);
      const { status, delayMs } = typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
      const send = () => {
        if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (delayMs > 0) {
        // A delayed answer ends with its connection: a receiver that never answers must not keep the process alive.
        const timer = setTimeout(send, delayMs);
        response.on('close', () => clearTimeout(timer));
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
