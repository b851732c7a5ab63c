import { attemptCallId, campaignDecider, type CampaignEvent, type ContactInput, type CreateCampaign } from '../../domain/campaign.ts';

/** Shared builders for the campaign suites. */
export const T0 = '2026-03-02T04:00:00.000Z';

export function at(minutesAfterT0: number): string {
  return new Date(Date.parse(T0) + minutesAfterT0 * 60_000).toISOString();
}

export function contacts(count: number): ContactInput[] {
  return Array.from({ length: count }, (_, index) => ({
    phone: `+9198765${String(index).padStart(5, '0')}`,
    name: `Customer ${index}`,
    loan_amount: 1000 * (index + 1),
  }));
}

/** A campaign of script `scr_test`, found at version 3 (using no variables beyond name and phone). */
export function createCommand(overrides: Partial<CreateCampaign['data']> = {}): CreateCampaign {
  return {
    type: 'CreateCampaign',
    facts: { script: { version: 3, variables: [] } },
    data: {
      campaign_id: 'cmp_test',
      workspace_id: 'ws_test',
      name: 'Renewals',
      script_id: 'scr_test',
      language: 'hi-IN',
      contacts: contacts(3),
      max_attempts: 2,
      retry_interval_minutes: 60,
      created_at: T0,
      ...overrides,
    },
  };
}

/** The events of a created campaign (CampaignCreated + ContactsAdded). */
export function created(overrides: Partial<CreateCampaign['data']> = {}): CampaignEvent[] {
  return campaignDecider.decide(createCommand(overrides), campaignDecider.initialState());
}

export function started(overrides: Partial<CreateCampaign['data']> = {}): CampaignEvent[] {
  return [...created(overrides), { type: 'CampaignStarted', data: { started_at: at(1), trigger: 'manual' } }];
}

export function attemptStarted(contactIndex: number, attempt: number, minute = 2): CampaignEvent {
  return { type: 'ContactAttemptStarted', data: { contact_index: contactIndex, attempt, call_id: callId(contactIndex, attempt), started_at: at(minute) } };
}

/** The call of an attempt: its id is derived (attemptCallId), as the campaign requires. */
export function callId(contactIndex: number, attempt: number, campaignId = 'cmp_test'): string {
  return attemptCallId(campaignId, contactIndex, attempt);
}
