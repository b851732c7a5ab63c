import type { Commands } from '../../commands/handler.ts';
import { callDecider, callStream, type CallState } from '../../domain/call.ts';
import { campaignDecider, campaignStream, type AttemptOutcome } from '../../domain/campaign.ts';
import { suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { DialingSlots } from './dialing-slots.ts';

const ACTOR = 'call-runner';

/**
 * What follows the end of a call, wherever the end was found (the runner that ran it, or recovery after a
 * restart that finds an ended call whose follow-ups were cut short): the do-not-call list for a `dnd` call, the
 * campaign contact's attempt outcome, and the workspace's dialing slot. Every step is idempotent (the campaign
 * refuses a second outcome for the attempt as `already_exists`, the suppression list ignores a listed number), so
 * settling twice is harmless.
 */
export class CallSettlement {
  constructor(
    private readonly ports: { commands: Commands; clock: Clock },
    private readonly slots: DialingSlots,
  ) {}

  async settle(callId: string, options: { outcome?: AttemptOutcome; causationId?: string | null } = {}): Promise<void> {
    const { commands, clock } = this.ports;
    const { state } = await commands.load(callDecider, callStream(callId));
    const placed = state.placed;
    if (!placed || state.status === 'in_progress' || state.status === null) return;
    const context = { workspaceId: placed.workspace_id, actor: ACTOR, now: clock.now(), causationId: options.causationId ?? null };
    try {
      // The number is on the do-not-call list before the campaign learns the outcome: the outcome may complete the
      // campaign, and whoever sees `campaign.completed` finds every `dnd` number already suppressed.
      if (state.disposition === 'dnd') {
        await commands.handle(
          suppressionDecider,
          suppressionStream(placed.workspace_id),
          {
            type: 'SuppressNumber',
            data: { phone: placed.contact.phone, source: 'call_outcome', call_id: callId, reason: 'the customer asked not to be called again', at: context.now.toISOString() },
          },
          context,
        );
      }
      if (placed.campaign_id !== null && placed.contact_index !== null) {
        await commands.handle(
          campaignDecider,
          campaignStream(placed.campaign_id),
          {
            type: 'RecordContactAttemptOutcome',
            data: {
              contact_index: placed.contact_index,
              call_id: callId,
              outcome: options.outcome ?? outcomeOf(state),
              disposition: state.answered_at !== null ? state.disposition : null,
              ended_at: state.ended_at!,
            },
          },
          context,
          { tolerate: ['already_exists'] },
        );
      }
    } finally {
      this.slots.release(placed.workspace_id, callId);
    }
  }
}

/**
 * The attempt outcome as the call's record tells it. The runner passes the carrier's exact outcome (busy or no
 * answer); a call settled by recovery only knows "not answered", which the campaign treats the same way. A call
 * our side interrupted counts as not reached: the customer may or may not have heard the phone ring.
 */
export function outcomeOf(state: CallState): AttemptOutcome {
  if (state.status === 'failed') {
    if (state.failure_reason === 'number_suppressed') return 'suppressed';
    return state.failure_reason === 'invalid_number' ? 'invalid_number' : 'carrier_error';
  }
  return state.answered_at !== null ? 'connected' : 'no_answer';
}
