import type { Principal } from './context.ts';

/**
 * Requests the dashboard makes to the API inside this process, on behalf of a signed-in session. The principal is
 * attached to the Request object itself (a WeakMap, not a header), so nothing arriving over the network can claim
 * one: only code holding the very object can. The gate takes it in place of a bearer key and then runs every other
 * step as for any request (rate limit, scope, body, idempotency, the route's validation), so a page does exactly
 * what the API does, with the same refusals.
 */
const principals = new WeakMap<Request, Principal>();

export function internalRequest(principal: Principal, url: string, init?: RequestInit): Request {
  const request = new Request(url, init);
  principals.set(request, principal);
  return request;
}

/** The principal of an in-process request, if this request is one. */
export function internalPrincipalOf(request: Request): Principal | undefined {
  return principals.get(request);
}
