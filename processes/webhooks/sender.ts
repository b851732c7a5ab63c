import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Resolver } from '../../infra/outbound/lookup-gate.ts';
import { OutboundTargetRefused, OutboundTimeout, openOutbound } from '../../infra/outbound/request.ts';
import { DELIVERY_HEADERS } from './delivery-headers.ts';

/** The spec: a delivery fails when no 2xx arrives within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export const SIGNATURE_HEADER = DELIVERY_HEADERS.signature;

/** `sha256=<hex HMAC-SHA256 of the raw body keyed with the secret>` (SPEC "Signature"). */
export function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface DeliveryRequest {
  url: string;
  secret: string | null;
  body: string;
  event: string;
  eventId: string;
  deliveryId: string;
  attempt: number;
}

export interface SendResult {
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  /** We stopped the attempt ourselves (shutdown): it says nothing about the receiver. */
  interrupted: boolean;
  /** Why the target was refused, with the address it resolved to: for the operator's debug log, never recorded. */
  refusalDetail?: string;
}

export interface SenderOptions {
  allowPrivateTargets: boolean;
  /** The attempt's deadline: DNS lookup, connect, TLS and response headers. */
  timeoutMs?: number;
  /** Aborts the attempt (shutdown); the result is then `interrupted` and must not be recorded. */
  signal?: AbortSignal;
  /** The webhook's workspace: its DNS lookups take turns with other workspaces' (infra/outbound/lookup-gate.ts). */
  workspaceId?: string;
  /** Resolves the host (default: getaddrinfo with bounded concurrency); tests pass a fake. */
  resolver?: Resolver;
}

/**
 * POSTs one attempt: the exact bytes that were signed, through the SSRF-guarded client (https only, the address
 * checked again at every attempt and connected to as checked). Any answer is reported, 2xx or not; no answer
 * within the deadline (DNS lookup, connect, TLS, headers) is an error. Redirects are not followed: a 3xx is a failed attempt.
 */
export async function sendDelivery(request: DeliveryRequest, options: SenderOptions): Promise<SendResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(request.body)),
    'User-Agent': 'voice-calling-service-webhooks/1',
    [DELIVERY_HEADERS.event]: request.event,
    [DELIVERY_HEADERS.eventId]: request.eventId,
    [DELIVERY_HEADERS.delivery]: request.deliveryId,
    [DELIVERY_HEADERS.attempt]: String(request.attempt),
  };
  if (request.secret !== null) headers[SIGNATURE_HEADER] = signatureOf(request.secret, request.body);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // openOutbound holds the whole attempt (lookup included) to the deadline.
    const response = await openOutbound(request.url, {
      method: 'POST',
      headers,
      body: request.body,
      timeoutMs,
      maxRedirects: 0,
      policy: { allowPrivateTargets: options.allowPrivateTargets, protocols: ['https:'] },
      signal: options.signal,
      resolver: options.resolver,
      lane: options.workspaceId === undefined ? undefined : `workspace:${options.workspaceId}`,
    });
    // Only the status matters; the body is discarded without holding the attempt up.
    response.body.on('error', () => undefined);
    response.body.resume();
    return { http_status: response.status, error: null, duration_ms: elapsed(), interrupted: false };
  } catch (error) {
    const interrupted = options.signal?.aborted === true && !(error instanceof OutboundTimeout);
    const refusalDetail = error instanceof OutboundTargetRefused ? error.detail : undefined;
    return { http_status: null, error: describe(error, timeoutMs), duration_ms: elapsed(), interrupted, ...(refusalDetail ? { refusalDetail } : {}) };
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundTimeout) {
    const lookup = error.lookupOf === null ? '' : ` (the DNS lookup of ${error.lookupOf} did not finish)`;
    return `timeout: no response within ${timeoutMs / 1000} s${lookup}`;
  }
  if (error instanceof OutboundTargetRefused) return `target_not_allowed: ${error.message}`;
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  if (/no response within/.test(message)) return `timeout: no response within ${timeoutMs / 1000} s`;
  return code ? `${code}: ${message}` : message;
}
