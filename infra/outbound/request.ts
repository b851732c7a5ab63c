import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy.ts';
import { systemResolver, type Resolver } from './lookup-gate.ts';

/**
 * Outbound HTTP for webhooks and audio downloads, guarded against server-side request forgery: the host is
 * resolved once, every address it resolves to must be public (unless private targets are allowed), and the
 * connection goes to the address that was checked, so a DNS answer that changes between check and connect
 * (rebinding) cannot slip through. Redirects are followed only when asked, each one checked again.
 *
 * The deadline (`timeoutMs`) covers the whole request up to the response head: the DNS lookups (which wait their
 * turn for a slot, see lookup-gate.ts), connect, TLS, every redirect and the response head.
 */
export class OutboundTargetRefused extends Error {
  readonly code = 'target_not_allowed';
  /**
   * What was refused, for the operator's debug log only: the address a name resolved to. The message never holds
   * it (it reaches API clients and job errors, and would tell them what internal names resolve to). Not
   * enumerable, so an error serialised into a log line does not carry it either.
   */
  declare readonly detail: string | undefined;
  /**
   * @param unresolvable the host has no address now: unlike the other refusals, this may change by itself (a
   *   name not yet published, a DNS outage), so a caller checking a URL for later use may accept it.
   */
  constructor(
    message: string,
    readonly unresolvable = false,
    detail?: string,
  ) {
    super(message);
    this.name = 'OutboundTargetRefused';
    Object.defineProperty(this, 'detail', { value: detail, enumerable: false });
  }
}

/** No response head within the deadline; `lookupOf` names the host whose DNS lookup had not finished, if any. */
export class OutboundTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(
    readonly timeoutMs: number,
    readonly lookupOf: string | null,
  ) {
    super(`no response within ${timeoutMs} ms${lookupOf === null ? '' : ` (the DNS lookup of ${lookupOf} did not finish)`}`);
    this.name = 'OutboundTimeout';
  }
}

/** How a host is resolved: by whom (tests inject a fake), in whose turn, until when. */
export interface ResolveOptions {
  /** Default: getaddrinfo with bounded concurrency (`systemResolver`). */
  resolver?: Resolver;
  /** Whose turn in the lookup queue (the webhook sender passes the workspace); default: the host. */
  lane?: string;
  /** Gives up (rejecting with its reason) while waiting for the lookup. */
  signal?: AbortSignal;
}

/** The policy in words (the same for every refusal, so it tells nothing about the host). */
const REFUSED_RANGES = '(private, loopback, link-local and reserved addresses are refused)';

export interface VettedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface OutboundPolicy {
  allowPrivateTargets: boolean;
  protocols: ReadonlyArray<'http:' | 'https:'>;
}

/** The URL itself, before any resolution: a URL, of an allowed protocol, without credentials. */
export function vetUrl(rawUrl: string, policy: Pick<OutboundPolicy, 'protocols'>): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundTargetRefused(`not a URL: ${rawUrl}`);
  }
  if (!policy.protocols.includes(url.protocol as 'http:' | 'https:')) {
    throw new OutboundTargetRefused(`${url.protocol} URLs are not allowed (allowed: ${policy.protocols.join(', ')})`);
  }
  if (url.username || url.password) throw new OutboundTargetRefused('URLs with credentials are not allowed');
  return url;
}

export async function vetTarget(rawUrl: string, policy: OutboundPolicy, options: ResolveOptions = {}): Promise<VettedTarget> {
  const url = vetUrl(rawUrl, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ReadonlyArray<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver).resolve(host, { signal: options.signal, lane: options.lane });
    } catch (error) {
      // The caller's deadline or shutdown: no verdict on the host.
      if (options.signal?.aborted) throw options.signal.reason;
      throw new OutboundTargetRefused(`the host ${host} does not resolve`, true);
    }
  }
  if (addresses.length === 0) throw new OutboundTargetRefused(`the host ${host} does not resolve`, true);
  if (!policy.allowPrivateTargets) {
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    // The address stays out of the message: the client learns that the target is refused, not where it points.
    if (blocked) throw new OutboundTargetRefused(`the host ${host} is not an allowed target ${REFUSED_RANGES}`, false, `${host} resolves to ${blocked.address}, a private, loopback, link-local or reserved address`);
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that always answers with the vetted address. */
function pinnedLookup(target: VettedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

export interface OutboundRequest extends Pick<ResolveOptions, 'resolver' | 'lane'> {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /**
   * Deadline up to the response head: DNS lookups (waiting for a slot included), connect, TLS, redirects, headers
   * (an OutboundTimeout). Afterwards it is the socket's idle timeout while the body is read.
   */
  timeoutMs: number;
  maxRedirects?: number;
  policy: OutboundPolicy;
  /** Aborts the request (the lookup, the connection and the body). */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The final URL after redirects. */
  url: string;
  body: IncomingMessage;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Sends a request and resolves with the response head; the caller reads (or destroys) `body`. */
export async function openOutbound(rawUrl: string, request: OutboundRequest): Promise<OutboundResponse> {
  let currentUrl = rawUrl;
  let method = request.method ?? 'GET';
  let body = request.body;
  // One signal for the whole request up to the head: the deadline, or the caller's signal.
  const stop = new AbortController();
  let resolving: string | null = null;
  const deadline = setTimeout(() => stop.abort(new OutboundTimeout(request.timeoutMs, resolving)), request.timeoutMs);
  const onCallerAbort = () => stop.abort(request.signal!.reason);
  if (request.signal?.aborted) onCallerAbort();
  else request.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    for (let redirects = 0; ; redirects++) {
      resolving = URL.canParse(currentUrl) ? new URL(currentUrl).hostname : null;
      const target = await vetTarget(currentUrl, request.policy, { resolver: request.resolver, lane: request.lane, signal: stop.signal });
      resolving = null;
      const response = await sendOnce(target, { ...request, method, body }, stop.signal);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location || redirects >= (request.maxRedirects ?? 0)) {
        return { ...response, url: target.url.toString() };
      }
      response.body.resume();
      currentUrl = new URL(location, target.url).toString();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  } finally {
    clearTimeout(deadline);
    request.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Idle keep-alive connections are closed before a receiver's usual 5 s keep-alive timeout closes them under us. */
const IDLE_SOCKET_MS = 4_000;
const MAX_AGENTS = 256;
const agents = new Map<string, http.Agent>();
let sharedSecureContext: tls.SecureContext | null = null;

/**
 * One TLS context for every outbound connection (the process-wide settings: a `ca` set on the global agent, and
 * NODE_EXTRA_CA_CERTS). Without it each new connection builds its own, a millisecond or more of the event loop: a
 * workspace whose webhook receivers never answer opens a new connection on every attempt.
 */
function secureContext(): tls.SecureContext {
  return (sharedSecureContext ??= tls.createSecureContext(https.globalAgent.options as tls.SecureContextOptions));
}

/**
 * A keep-alive agent per vetted target (protocol, host, port and the address that was checked): a connection is
 * only ever reused for the same host at the same vetted address, so reuse cannot bypass the address check, and
 * repeated requests (webhook deliveries) skip a TCP and TLS handshake each. The least recently used agents beyond
 * MAX_AGENTS are closed so that many distinct targets cannot hold sockets open.
 */
function agentFor(target: VettedTarget): http.Agent {
  const key = `${target.url.protocol}//${target.url.host}|${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    // The process-wide TLS settings (a `ca` set on the global agent) apply to these connections too.
    agent = target.url.protocol === 'https:' ? new https.Agent({ ...https.globalAgent.options, ...options, secureContext: secureContext() }) : new http.Agent(options);
  }
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value as [string, http.Agent];
    agents.delete(oldestKey);
    oldest.destroy();
  }
  return agent;
}

/** One request to a vetted target; `stop` (the deadline) destroys it until its head has arrived. */
function sendOnce(target: VettedTarget, request: OutboundRequest & { method: 'GET' | 'POST' }, stop: AbortSignal): Promise<Omit<OutboundResponse, 'url'>> {
  return new Promise((resolve, reject) => {
    if (stop.aborted) return reject(stop.reason);
    const client = target.url.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      target.url,
      {
        method: request.method,
        headers: request.headers,
        agent: agentFor(target),
        lookup: pinnedLookup(target),
        signal: request.signal,
        // Certificates are checked against the URL's host name, not the pinned address.
        servername: isIP(target.url.hostname) ? undefined : target.url.hostname,
      },
      (incoming) => {
        stop.removeEventListener('abort', onStop);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: incoming });
      },
    );
    const onStop = () => outgoing.destroy(stop.reason);
    stop.addEventListener('abort', onStop, { once: true });
    outgoing.setTimeout(request.timeoutMs, () => outgoing.destroy(new Error(`no response within ${request.timeoutMs} ms`)));
    outgoing.on('error', (error) => {
      stop.removeEventListener('abort', onStop);
      reject(error);
    });
    outgoing.end(request.body);
  });
}
