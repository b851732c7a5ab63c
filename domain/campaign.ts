import type { Decider } from './shared/decider.ts';
import { decide } from './campaign/decide.ts';
import { evolve, initialState } from './campaign/evolve.ts';
import { campaignStateBytes } from './campaign/queries.ts';
import type { CampaignCommand, CampaignEvent, CampaignState } from './campaign/types.ts';
import { streamCategory } from './shared/stream-name.ts';

/** The campaign aggregate (stream `campaign-<id>`). Its parts live in domain/campaign/. */
export const campaignDecider: Decider<CampaignCommand, CampaignEvent, CampaignState> = { initialState, evolve, decide, sizeOf: campaignStateBytes };

const campaignStreams = streamCategory('campaign');
export const campaignStream = campaignStreams.stream;
export const campaignIdOf = campaignStreams.idOf;

export * from './campaign/types.ts';
export * from './campaign/queries.ts';
export { attemptCallId } from './campaign/attempt-call-id.ts';
export { CONTACT_STATUSES, statusAt, type ContactTable } from './campaign/contact-table.ts';
export {
  CONTACTS_PER_EVENT,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETRY_INTERVAL_MINUTES,
  MAX_ATTEMPTS_RANGE,
  MAX_NAME_LENGTH,
  MAX_RETRY_INTERVAL_MINUTES,
  invalidParameter,
  validateContacts,
  validateCreateCampaign,
  validateLanguage,
  validateSchedule,
} from './campaign/validation.ts';
export { isValidCallingHours, isValidTimezone, isWithinCallingHours, nextCallingTime, resolveScheduleTime, type CallingHours } from './campaign/schedule.ts';
