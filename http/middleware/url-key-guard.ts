import { containsApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import { BoundedMemo } from '../../infra/cache/bounded-memo.ts';
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
  if (queryStart !== -1) CLEAN_QUERIES.get(url.slice(queryStart + 1), refuseCredentialParameters);
}

function refuseCredentialParameters(query: string): true {
  for (const name of new URLSearchParams(query).keys()) {
    if (CREDENTIAL_PARAMETERS.has(name.toLowerCase())) throw unauthorized();
  }
  return true;
}

// Query strings already found free of credential parameters (one that has any throws, so it is never
// remembered): clients repeat a few (`limit=20`), and parsing one costs more than the look-up.
const CLEAN_QUERIES = new BoundedMemo<string, true>(1_024);
