import type { Commands } from '../../commands/handler.ts';
import { timerDecider, timerStream } from '../../domain/timer.ts';
import type { Clock } from '../../infra/clock/port.ts';

/**
 * The dialer's durable timers. Ids are derived from what they are for, so a replayed event schedules the same
 * timer again, which the timer aggregate ignores.
 */
export const CAMPAIGN_TIMER_KINDS = {
  start: 'campaign-start',
  end: 'campaign-end',
  retry: 'contact-retry',
  callingHours: 'calling-hours',
} as const;

export type CampaignTimerKind = (typeof CAMPAIGN_TIMER_KINDS)[keyof typeof CAMPAIGN_TIMER_KINDS];

export interface CampaignTimerPayload {
  campaign_id: string;
  contact_index?: number;
  attempt?: number;
}

export const campaignTimerIds = {
  start: (campaignId: string) => `campaign-start-${campaignId}`,
  end: (campaignId: string) => `campaign-end-${campaignId}`,
  retry: (campaignId: string, contactIndex: number, attempt: number) => `contact-retry-${campaignId}-${contactIndex}-${attempt}`,
  /** A compliance wait (window closed, cap reached): one attempt may wait several times, so the time is in the id. */
  complianceWait: (campaignId: string, contactIndex: number, attempt: number, resumesAt: Date) =>
    `compliance-wait-${campaignId}-${contactIndex}-${attempt}-${resumesAt.getTime()}`,
  /** One per opening: a campaign that finds its hours closed several times before they open schedules it once. */
  callingHours: (campaignId: string, opensAt: Date) => `calling-hours-${campaignId}-${opensAt.getTime()}`,
};

export function isCampaignTimerKind(kind: string): kind is CampaignTimerKind {
  return (Object.values(CAMPAIGN_TIMER_KINDS) as string[]).includes(kind);
}

/**
 * The payload of a campaign timer as the dialer scheduled it. Timers are generic (their payload is a record), so
 * this reads it back field by field instead of trusting a cast.
 */
export function campaignTimerPayload(payload: Record<string, unknown>): CampaignTimerPayload {
  const { campaign_id: campaignId, contact_index: contactIndex, attempt } = payload;
  if (typeof campaignId !== 'string') throw new Error('a campaign timer without a campaign_id');
  return {
    campaign_id: campaignId,
    ...(typeof contactIndex === 'number' ? { contact_index: contactIndex } : {}),
    ...(typeof attempt === 'number' ? { attempt } : {}),
  };
}

export async function scheduleCampaignTimer(
  { commands, clock }: { commands: Commands; clock: Clock },
  timer: { id: string; kind: CampaignTimerKind; dueAt: Date; payload: CampaignTimerPayload },
  context: { workspaceId: string; causationId?: string | null },
): Promise<void> {
  await commands.handle(
    timerDecider,
    timerStream(timer.id),
    { type: 'ScheduleTimer', timerId: timer.id, kind: timer.kind, dueAt: timer.dueAt, payload: { ...timer.payload } },
    { workspaceId: context.workspaceId, actor: 'dialer', now: clock.now(), causationId: context.causationId ?? null },
  );
}
