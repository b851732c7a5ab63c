import type { PlaceCallFacts } from '../../domain/call.ts';

/**
 * The facts a PlaceCall carries (domain/call.ts), for tests that place calls through the command handler: the
 * number is not suppressed and, for a single call, the script is found, enabled for single calls and uses
 * `variables`.
 */
export function placeableFacts(variables: readonly string[] = []): PlaceCallFacts {
  return { suppressed: false, script: { version: 1, single_call_enabled: true, variables } };
}
