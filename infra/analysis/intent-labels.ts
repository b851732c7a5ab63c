/**
 * The customer intents the analyzer reports: the spec's four plus what collections, loan and insurance
 * campaigns need. One label per call: the customer's primary intent.
 */
export const INTENT_LABELS = [
  'loan_renewal_interest', // wants to renew / extend a loan that is closing or due for renewal
  'interested', // wants the offered product (insurance plan, card, top-up, new scheme): "send the details"
  'not_interested', // declines the offer
  'payment_promise', // commits to pay (a date, an amount): collections
  'payment_query', // asks what is due, EMIs left, charges, how to pay
  'policy_query', // asks what an insurance policy covers, sum assured, bonus, claim procedure
  'complaint', // reports a problem with the service: double debit, rejected claim, rude staff, refund
  'callback_request', // busy now, asks to be called at another time
  'human_agent_request', // wants a human / an officer instead of the voice bot or this agent
  'dnd_request', // do not call again, remove my number
  'wrong_number', // the callee is not the intended person
] as const;

export type IntentLabel = (typeof INTENT_LABELS)[number];

/**
 * Tie-break order when two intents score the same: requests that oblige the caller to act (stop calling,
 * fix the contact record, hand over to a human) outrank sales signals.
 */
export const INTENT_PRIORITY: readonly IntentLabel[] = [
  'dnd_request',
  'wrong_number',
  'human_agent_request',
  'complaint',
  'callback_request',
  'payment_promise',
  'payment_query',
  'policy_query',
  'loan_renewal_interest',
  'interested',
  'not_interested',
];

/** English noun phrases for the summary's template sentence ("The customer's main intent was ..."). */
export const INTENT_DESCRIPTIONS: Record<IntentLabel, string> = {
  loan_renewal_interest: 'interest in renewing the loan',
  interested: 'interest in the offer',
  not_interested: 'declining the offer',
  payment_promise: 'a promise to pay',
  payment_query: 'a question about payment',
  policy_query: 'a question about the policy',
  complaint: 'a complaint',
  callback_request: 'a request to be called back later',
  human_agent_request: 'a request to speak to a human agent',
  dnd_request: 'a request not to be called again',
  wrong_number: 'a wrong number',
};

export function isIntentLabel(value: unknown): value is IntentLabel {
  return typeof value === 'string' && (INTENT_LABELS as readonly string[]).includes(value);
}
