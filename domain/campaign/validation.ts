import { characterCount } from '../shared/text/character-count.ts';
import { CALL_PURPOSE_DESCRIPTION, isCallPurpose, validateReservedFields } from '../compliance/contact-fields.ts';
import { DomainError } from '../shared/errors.ts';
import { E164_DESCRIPTION, isE164 } from '../shared/phone.ts';
import { BCP47_DESCRIPTION, isBcp47Shape, isSupportedLanguage, SUPPORTED_LANGUAGES_DESCRIPTION, type SupportedLanguage } from '../shared/language.ts';
import { isValidCallingHours, isValidTimezone, resolveScheduleTime, type CallingHours } from './schedule.ts';
import { VOICEMAIL_ACTIONS, type CampaignContact, type CampaignSchedule, type CampaignSettings, type ContactInput, type CreateCampaign } from './types.ts';

/**
 * The rules of a campaign body that the domain owns. The HTTP layer validates shapes with zod first (and may
 * call these functions itself to report the same errors); the decider calls them again as a guard, so a campaign
 * created by the CLI or a test obeys the same rules.
 */
export const MAX_ATTEMPTS_RANGE = { min: 1, max: 5 } as const;
export const DEFAULT_MAX_ATTEMPTS = 1;
export const DEFAULT_RETRY_INTERVAL_MINUTES = 240;
/** 30 days: a longer interval is almost certainly minutes mistaken for seconds or hours. */
export const MAX_RETRY_INTERVAL_MINUTES = 43_200;
export const MAX_NAME_LENGTH = 255;
export const CONTACTS_PER_EVENT = 1_000;

export function invalidParameter(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

export interface ValidCampaign extends CampaignSettings {
  contacts: CampaignContact[];
}

export function validateLanguage(language: unknown, field = 'language'): SupportedLanguage {
  if (!isBcp47Shape(language)) throw invalidParameter(field, language, BCP47_DESCRIPTION);
  if (!isSupportedLanguage(language)) throw invalidParameter(field, language, SUPPORTED_LANGUAGES_DESCRIPTION);
  return language;
}

/** Phones must be E.164 and unique within the campaign; the first offender is reported as `contacts[i].phone`. */
export function validateContacts(contacts: readonly ContactInput[], firstIndex = 0): CampaignContact[] {
  if (!Array.isArray(contacts) || contacts.length === 0) throw invalidParameter('contacts', contacts, 'a non-empty array of contacts');
  const seen = new Map<string, number>();
  return contacts.map((contact, position) => {
    const index = firstIndex + position;
    if (typeof contact !== 'object' || contact === null) throw invalidParameter(`contacts[${index}]`, contact, 'an object with phone and name');
    const { phone, name } = contact;
    const variables: Record<string, unknown> = {};
    // A loop rather than rest destructuring: this runs 100,000 times for a large campaign.
    for (const key in contact) if (key !== 'phone' && key !== 'name' && Object.hasOwn(contact, key)) variables[key] = contact[key];
    if (!isE164(phone)) throw invalidParameter(`contacts[${index}].phone`, phone, E164_DESCRIPTION);
    const earlier = seen.get(phone);
    if (earlier !== undefined) {
      throw invalidParameter(`contacts[${index}].phone`, phone, `a phone not already in the campaign (same as contacts[${earlier}].phone)`);
    }
    seen.set(phone, index);
    if (typeof name !== 'string' || name.trim().length === 0) throw invalidParameter(`contacts[${index}].name`, name, 'a non-empty string');
    validateReservedFields(variables, `contacts[${index}]`);
    return { index, phone, name, variables };
  });
}

export function validateSchedule(schedule: CampaignSchedule | null | undefined): Pick<ValidCampaign, 'schedule' | 'starts_at' | 'ends_at' | 'timezone'> {
  if (schedule === undefined || schedule === null) return { schedule: null, starts_at: null, ends_at: null, timezone: 'UTC' };
  const timezone = schedule.timezone ?? 'UTC';
  if (!isValidTimezone(timezone)) throw invalidParameter('schedule.timezone', schedule.timezone, 'an IANA timezone name, e.g. Asia/Kolkata');
  const startsAt = typeof schedule.start_time === 'string' ? resolveScheduleTime(schedule.start_time, timezone) : null;
  if (!startsAt) throw invalidParameter('schedule.start_time', schedule.start_time, 'an ISO 8601 date-time');
  let endsAt: Date | null = null;
  if (schedule.end_time !== undefined) {
    endsAt = typeof schedule.end_time === 'string' ? resolveScheduleTime(schedule.end_time, timezone) : null;
    if (!endsAt) throw invalidParameter('schedule.end_time', schedule.end_time, 'an ISO 8601 date-time');
    if (endsAt.getTime() <= startsAt.getTime()) throw invalidParameter('schedule.end_time', schedule.end_time, 'a time after start_time');
  }
  return { schedule, starts_at: startsAt.toISOString(), ends_at: endsAt?.toISOString() ?? null, timezone };
}

export function validateCreateCampaign(data: CreateCampaign['data']): ValidCampaign {
  if (typeof data.name !== 'string' || data.name.trim().length === 0 || characterCount(data.name) > MAX_NAME_LENGTH) {
    throw invalidParameter('name', data.name, `a non-empty string of at most ${MAX_NAME_LENGTH} characters`);
  }
  if (typeof data.script_id !== 'string' || data.script_id.length === 0) throw invalidParameter('script_id', data.script_id, 'a script id');
  const language = validateLanguage(data.language);
  const maxAttempts = data.max_attempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < MAX_ATTEMPTS_RANGE.min || maxAttempts > MAX_ATTEMPTS_RANGE.max) {
    throw invalidParameter('max_attempts', data.max_attempts, 'an integer from 1 to 5');
  }
  const retryInterval = data.retry_interval_minutes ?? DEFAULT_RETRY_INTERVAL_MINUTES;
  if (!Number.isInteger(retryInterval) || retryInterval < 1 || retryInterval > MAX_RETRY_INTERVAL_MINUTES) {
    throw invalidParameter('retry_interval_minutes', data.retry_interval_minutes, `an integer from 1 to ${MAX_RETRY_INTERVAL_MINUTES}`);
  }
  const purpose = data.purpose ?? 'service';
  if (!isCallPurpose(purpose)) throw invalidParameter('purpose', data.purpose, CALL_PURPOSE_DESCRIPTION);
  const callerId = data.caller_id ?? null;
  if (callerId !== null && !isE164(callerId)) throw invalidParameter('caller_id', data.caller_id, E164_DESCRIPTION);
  const voicemail = data.voicemail ?? 'hang_up';
  if (!(VOICEMAIL_ACTIONS as readonly string[]).includes(voicemail)) throw invalidParameter('voicemail', data.voicemail, VOICEMAIL_ACTIONS.join(' or '));
  const callingHours = data.calling_hours ?? null;
  if (callingHours !== null && !isValidCallingHours(callingHours)) {
    throw invalidParameter('calling_hours', callingHours, 'an object {start: "HH:MM", end: "HH:MM"} with start different from end');
  }
  return {
    name: data.name,
    language,
    max_attempts: maxAttempts,
    retry_interval_minutes: retryInterval,
    ...validateSchedule(data.schedule),
    calling_hours: callingHours,
    recording_enabled: data.recording_enabled ?? true,
    qa_scorecard_id: data.qa_scorecard_id ?? null,
    purpose,
    caller_id: callerId,
    voicemail,
    contacts: validateContacts(data.contacts),
  };
}
