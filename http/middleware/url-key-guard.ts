import { containsApiKeySecret } from '../../infra/api-key-secret.ts';
import { unauthorized } from '../errors.ts';

/** Query parameters that carry credentials in other APIs; ours never accepts them (spec: "not in the URL"). */
const CREDENTIAL_PARAMETERS = new Set([
  'api_key', 'apikey', 'api-key', 'key', 'token', 'access_token', 'accesstoken', 'auth', 'auth_token',
  'authorization', 'bearer', 'secret', 'client_secret', 'password',
]);

/**
 * Refuses (401) any request whose URL carries an API key, whatever else it carries, even a valid Authorization
 * header: URLs end up in proxy logs and browser histories, and accepting them once teaches clients to do it.
 */
export function refuseKeysInUrl(url: string): void {
  if (containsApiKeySecret(url)) throw unauthorized();
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return;
  const query = url.slice(queryStart + 1);
  if (CLEAN_QUERIES.has(query)) return;
  for (const name of new URLSearchParams(query).keys()) {
    if (CREDENTIAL_PARAMETERS.has(name.toLowerCase())) throw unauthorized();
  }
  if (CLEAN_QUERIES.size >= REMEMBERED_QUERIES) CLEAN_QUERIES.clear();
  CLEAN_QUERIES.add(query);
}

// Query strings already found free of credential parameters: clients repeat a few (`limit=20`), and parsing one
// costs more than the look-up. Bounded: when full it starts over.
const REMEMBERED_QUERIES = 1_024;
const CLEAN_QUERIES = new Set<string>();
