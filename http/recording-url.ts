import type { Runtime } from '../composition.ts';

/** How long a recording URL works after it is handed out (the spec: one hour). */
export const RECORDING_URL_VALIDITY_MS = 60 * 60 * 1000;

/** The path a call's recording is served at (GET /v1/recordings/{call_id}); what the URL signature covers. */
export function recordingPath(callId: string): string {
  return `/v1/recordings/${encodeURIComponent(callId)}`;
}

/**
 * Where clients reach this server: `PUBLIC_BASE_URL` when set (behind a proxy or a load balancer), otherwise the
 * address the server listens on, with a wildcard host (0.0.0.0, ::) replaced by the loopback address.
 */
export function publicBaseUrl(config: Pick<Runtime['config'], 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' || config.HOST === '' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

/**
 * The signed `recording_url` of a call, valid one hour from now (the service clock), or null when the call has
 * no stored recording (recording off, or not answered). Every reader of a call (GET /v1/calls/{id}, webhook
 * payloads) signs a fresh URL when it builds its document. The blob key itself is not in the URL: the route
 * looks the recording up by call id, so a URL can never name another object.
 */
export function recordingUrlFor(runtime: Pick<Runtime, 'config' | 'clock' | 'urlSigner'>, callId: string, blobKey: string | null): string | null {
  if (blobKey === null) return null;
  const path = recordingPath(callId);
  const expiresAt = new Date(runtime.clock.now().getTime() + RECORDING_URL_VALIDITY_MS);
  return `${publicBaseUrl(runtime.config)}${path}?${runtime.urlSigner.sign(path, expiresAt)}`;
}
