import { deterministicId } from '../shared/deterministic-id.ts';

/**
 * The call of attempt `attempt` (1-based) of contact `contactIndex` of a campaign has this id, always: derived, so a
 * dialer that replays a reservation after a crash places the same call, and the campaign need not store the call
 * ids of its attempts (it recomputes them to check an outcome against its attempt).
 */
export function attemptCallId(campaignId: string, contactIndex: number, attempt: number): string {
  return deterministicId('cal', campaignId, contactIndex, attempt);
}
