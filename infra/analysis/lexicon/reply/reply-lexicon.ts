/**
 * What a customer's reply means for the live conversation engine, and the shape of one language's keyword
 * lists for it. Lists are phrases; matching drops a phrase that lies inside a longer match (so "don't call me
 * again" is not also read as "don't"), and the intents found are ranked by REPLY_PRIORITY.
 */
export const REPLY_INTENTS = [
  'affirm',
  'deny',
  'callback_later',
  'request_human',
  'stop_calling',
  'wrong_person',
] as const;

export type ReplyIntent = (typeof REPLY_INTENTS)[number];

/**
 * When a reply carries several intents, the one that obliges the caller most wins: "no, don't call again" is a
 * stop request, "not now, call later" a callback, "yes but call me tomorrow" a callback too.
 */
export const REPLY_PRIORITY: readonly ReplyIntent[] = [
  'stop_calling',
  'wrong_person',
  'request_human',
  'callback_later',
  'deny',
  'affirm',
];

export type ReplyLexicon = Record<ReplyIntent, readonly string[]>;
