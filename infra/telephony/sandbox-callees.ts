/**
 * The sandbox carrier's callees: how the person at a number behaves, by the number's last two digits. Pure and
 * deterministic, so a test (or a client trying the API) can predict every outcome. docs/calling.md has the table.
 */
export type CalleeBehaviour =
  | 'never_answers'
  | 'busy'
  | 'invalid_number'
  | 'affirms'
  | 'declines'
  | 'callback_later'
  | 'requests_human'
  | 'stop_calling'
  | 'silent';

/** What a talking callee says to every question: an intent of the analysis module's reply classifier. */
export type CalleeIntent = 'affirm' | 'deny' | 'callback_later' | 'request_human' | 'stop_calling';

const BY_LAST_TWO_DIGITS: Record<string, CalleeBehaviour> = {
  '00': 'never_answers',
  '01': 'busy',
  '02': 'invalid_number',
  '03': 'affirms',
  '04': 'declines',
  '05': 'callback_later',
  '06': 'requests_human',
  '07': 'stop_calling',
  '09': 'silent',
};

/** Behaviours 03-07, for numbers with other endings. */
const TALKING: CalleeBehaviour[] = ['affirms', 'declines', 'callback_later', 'requests_human', 'stop_calling'];

export const INTENT_OF_BEHAVIOUR: Partial<Record<CalleeBehaviour, CalleeIntent>> = {
  affirms: 'affirm',
  declines: 'deny',
  callback_later: 'callback_later',
  requests_human: 'request_human',
  stop_calling: 'stop_calling',
};

export function calleeBehaviour(phone: string, attempt: number): CalleeBehaviour {
  const ending = phone.slice(-2);
  // 08: away on the first attempt, reachable and agreeable later (exercises retries end to end).
  if (ending === '08') return attempt <= 1 ? 'never_answers' : 'affirms';
  return BY_LAST_TWO_DIGITS[ending] ?? TALKING[hash(phone, 1) % TALKING.length]!;
}

/** Seconds of ringing before the callee answers: 2 to 6, fixed per number. */
export function ringSecondsBeforeAnswer(phone: string): number {
  return 2 + (hash(phone, 2) % 5);
}

/** FNV-1a over the text and a salt: stable across processes and releases, unlike anything seeded. */
export function hash(text: string, salt: number): number {
  let value = 0x811c9dc5 ^ salt;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}
