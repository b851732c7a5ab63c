/**
 * Classifies one customer reply during a live call (the conversation engine decides the next script step
 * from it). Keyword phrases per language (lexicon/reply/*.ts) are matched on normalised words; a phrase
 * inside a longer match does not count ("don't call me again" is not also "don't"); when several intents
 * remain, REPLY_PRIORITY picks the one that obliges the caller most ("not now, call later" is a callback).
 *
 * Confidence is a heuristic in [0, 1]: 0.55 plus up to 0.4 for the share of the reply's words the winning
 * phrases cover (full credit at half the words), times 0.85 when other intents were also heard.
 */
import { lexiconKeysForWords, type LexiconKey } from '../../domain/shared/text/lexicon-selection.ts';
import { replyLexicons } from './lexicon/reply/index.ts';
import { REPLY_INTENTS, REPLY_PRIORITY, type ReplyIntent } from './lexicon/reply/reply-lexicon.ts';
import { tokenize } from '../../domain/shared/text/normalize.ts';
import { maximalMatches, PhraseIndex } from './phrase-index.ts';

export { REPLY_INTENTS, type ReplyIntent } from './lexicon/reply/reply-lexicon.ts';
export { sampleReplies, type SampleReplyLanguage } from './customer-reply-samples.ts';

export interface ReplyClassification {
  intent: ReplyIntent | null;
  confidence: number;
}

export type ExtraReplyKeywords = Partial<Record<ReplyIntent, string[]>>;

function phraseEntries(lists: Partial<Record<ReplyIntent, readonly string[]>>): [string, ReplyIntent][] {
  const entries: [string, ReplyIntent][] = [];
  for (const intent of REPLY_INTENTS) for (const phrase of lists[intent] ?? []) entries.push([phrase, intent]);
  return entries;
}

const lexiconIndexes = new Map<LexiconKey, PhraseIndex<ReplyIntent>>();

function lexiconIndex(key: LexiconKey): PhraseIndex<ReplyIntent> {
  let index = lexiconIndexes.get(key);
  if (!index) {
    index = new PhraseIndex(phraseEntries(replyLexicons[key]), key);
    lexiconIndexes.set(key, index);
  }
  return index;
}

// Scripts pass the same extra-keyword object for every reply of a call: compile it once per language.
const extraIndexes = new WeakMap<ExtraReplyKeywords, Map<string, PhraseIndex<ReplyIntent>>>();

function extraIndex(extra: ExtraReplyKeywords, language: string): PhraseIndex<ReplyIntent> {
  let byLanguage = extraIndexes.get(extra);
  if (!byLanguage) {
    byLanguage = new Map();
    extraIndexes.set(extra, byLanguage);
  }
  let index = byLanguage.get(language);
  if (!index) {
    index = new PhraseIndex(phraseEntries(extra), language);
    byLanguage.set(language, index);
  }
  return index;
}

export function classifyReply(text: string, language: string, extraKeywords?: ExtraReplyKeywords): ReplyClassification {
  const words = tokenize(text, language);
  if (words.length === 0) return { intent: null, confidence: 0 };
  const indexes = lexiconKeysForWords(language, words).map(lexiconIndex);
  if (extraKeywords) indexes.push(extraIndex(extraKeywords, language));

  const matches = maximalMatches(indexes, words);
  const heard = new Set(matches.map((match) => match.value));
  const intent = REPLY_PRIORITY.find((candidate) => heard.has(candidate)) ?? null;
  if (intent === null) return { intent: null, confidence: 0 };

  const covered = new Set<number>();
  for (const match of matches) {
    if (match.value === intent) for (let i = match.start; i < match.end; i++) covered.add(i);
  }
  const coverage = Math.min(1, (2 * covered.size) / words.length);
  const contested = heard.size > 1 ? 0.85 : 1;
  return { intent, confidence: Math.round((0.55 + 0.4 * coverage) * contested * 100) / 100 };
}
