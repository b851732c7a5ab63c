import type { Principal, ResolvedRoute } from '../context.ts';
import { ApiError } from '../errors.ts';
import { SCOPE_RANK } from './resolve-route.ts';

/**
 * Scopes: Read-Only keys may only GET (and HEAD); Read-Write keys may also POST, PUT, PATCH and DELETE; Admin
 * keys may also manage API keys. The requirement of each route comes from the route table (method floor, raised
 * by a route's `scope` in its definition), so a new route is covered without doing anything.
 */
export function requireScope(route: ResolvedRoute, principal: Principal): void {
  if (SCOPE_RANK[principal.scope] < SCOPE_RANK[route.requiredScope]) {
    throw new ApiError('forbidden', `This action needs ${route.requiredScope === 'Admin' ? 'an' : 'a'} ${route.requiredScope} key; this key is ${principal.scope}.`, {
      required_scope: route.requiredScope,
      current_scope: principal.scope,
    });
  }
}
