import { deterministicId } from '../domain/shared/deterministic-id.ts';
import { newId } from '../infra/ids.ts';
import { principalOf, type AppContext } from './context.ts';

/**
 * The id of what a creating request creates. With an `Idempotency-Key` it is derived from the workspace, the key
 * and when the key's first run began, so a retry after that run died between its append and its response (no
 * response stored to replay) creates under the same id, which the aggregate refuses as a duplicate
 * (commands/create-once.ts): a campaign is never created, and so never dialed, twice. The same key used again
 * after its 24 hours begins anew and creates anew. Without a key it is a new random id.
 */
export function resourceId(c: AppContext, prefix: string, now: Date): string {
  const idempotency = c.get('idempotencyKey');
  if (idempotency === undefined) return newId(prefix, now);
  return deterministicId(prefix, principalOf(c).workspaceId, idempotency.key, idempotency.begunAtMs);
}
