import { OutboundTargetRefused, vetTarget, vetUrl, type OutboundPolicy } from '../infra/outbound/request.ts';
import { invalidParameter } from './errors.ts';

/** How long the API waits for the host's DNS lookup (its turn in the lookup queue included). */
const LOOKUP_TIMEOUT_MS = 10_000;

const PUBLIC_HOST = 'whose host resolves only to public addresses (not private, loopback, link-local, multicast or cloud metadata)';

export interface TargetCheck extends OutboundPolicy {
  /** The body field the URL came from (`url`, `audio_url`). */
  field: string;
  /** What the field takes, in words, before the address rule: `an https:// URL`. */
  expected: string;
  /** Accept a host that does not resolve now (the URL is used later, when it may; see OutboundTargetRefused). */
  acceptUnresolvable?: boolean;
}

/**
 * Refuses (400 `invalid_parameter` on `field`) a URL we will later call that the outbound policy would refuse then:
 * another protocol, credentials in it, or a host resolving to a private, loopback, link-local or reserved address
 * (unless ALLOW_PRIVATE_TARGETS). The call itself checks again (infra/outbound/request.ts), so an answer that
 * changes later cannot slip through; this tells the client now instead of failing their delivery or job.
 */
export async function checkOutboundTarget(url: string, check: TargetCheck): Promise<void> {
  try {
    vetUrl(url, check);
    // Any address is allowed and an unresolvable host accepted: nothing a DNS answer could refuse.
    if (check.allowPrivateTargets && check.acceptUnresolvable) return;
    // A lookup that does not finish in time counts as a host that does not resolve (now).
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new OutboundTargetRefused(`the host ${new URL(url).hostname} did not resolve in time`, true)), LOOKUP_TIMEOUT_MS);
    try {
      await vetTarget(url, check, { signal: stop.signal });
    } finally {
      clearTimeout(timer);
    }
  } catch (error) {
    if (!(error instanceof OutboundTargetRefused)) throw error;
    if (error.unresolvable && check.acceptUnresolvable) return;
    throw invalidParameter(check.field, url, `${check.expected} ${PUBLIC_HOST}`, `The ${check.field} is not allowed: ${error.message}.`);
  }
}
