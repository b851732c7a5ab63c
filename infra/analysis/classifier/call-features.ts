/**
 * What the call classifier reads of a transcript: named features with values, the same function at training
 * (scripts/train-call-classifier.ts) and in service (classified-analyzer.ts), so the two cannot drift apart.
 *
 * Groups (each text group scaled to unit length per call, so a long call's many character n-grams do not drown its
 * few words):
 *   w:  the customer's words       b: their word bigrams (within a clause)
 *   c:  the customer's character 2- to 4-grams inside words: inflected Tamil, Telugu and Marathi forms, and the
 *       many spellings of romanised Hindi, share n-grams where they share no whole word
 *   l:  the customer's last turn, words and bigrams: how the call ended weighs most for sentiment
 *   n:  words in a customer clause that holds a negator of the rules' lexicons ("not happy", "खुश नहीं")
 *   t:  the customer's words and bigrams after the last contrastive word of a turn ("Thanks, but ...", "... पर अभी
 *       ज़रूरत नहीं"): what follows "but" is usually what the customer means
 *   f:  the customer's first turn, words and bigrams: what the customer answered the agent's opening with (the
 *       request or the refusal) often names the intent better than the pleasantries that follow
 *   a:  the agent's words: what the call is about (a renewal, an overdue EMI, an offer)
 *   r:  the rules' own readings (their intent, its score per label, their sentiment sign and score, the last
 *       turn's valence) and a few counts; not scaled. A model trained without the readings (the trainer's "text"
 *       feature set) has none of them in its vocabulary, so they are dropped here
 *
 * Only the last MODEL_TEXT_CHARACTERS of each side's speech are read: a call's features stay bounded whatever the
 * transcript's size (the rules still read all of it).
 */
import { lexiconKeysForWords } from '../../../domain/shared/text/lexicon-selection.ts';
import { tokenize, tokenizeClauses } from '../../../domain/shared/text/normalize.ts';
import { agentSegments } from '../../../domain/shared/text/speaker-roles.ts';
import { languageSubtag } from '../../../domain/shared/language.ts';
import { INTENT_LABELS, type IntentLabel } from '../intent-labels.ts';
import { negationRule } from '../negation.ts';
import type { SentimentResult, TranscriptSegment } from '../port.ts';
import { customerVoice, normalizeValence, sentimentBucket, textValence } from '../sentiment.ts';

export const MODEL_TEXT_CHARACTERS = 20_000;
/** Longer "words" (a hostile run of letters) give their first characters' n-grams only. */
const MAX_WORD_FOR_NGRAMS = 32;
const CHAR_NGRAM_SIZES = [2, 3, 4] as const;
const INTENT_SCORE_CAP = 6;

/**
 * Contrastive words that turn a customer's turn ("I appreciate the call, but ..."), in the script each language is
 * transcribed in, romanised Hindi included. The ambiguous ones (Hindi पर / par also mean "on") count only where they
 * open a clause.
 */
const CONTRAST_ANYWHERE = new Set([
  'but', 'however', 'though', 'although', 'yet', 'lekin', 'magar', 'लेकिन', 'मगर', 'परंतु', 'किंतु', 'पण', 'तरीही', 'ஆனால்', 'ஆனாலும்', 'இருந்தாலும்', 'కానీ', 'అయినా', 'అయినప్పటికీ',
]);
const CONTRAST_AT_CLAUSE_START = new Set(['par', 'पर', 'still', 'फिर']);

/** What the rules said about the call: the classifier's strongest features. */
export interface RuleReading {
  sentiment: SentimentResult;
  intent: IntentLabel | null;
  intentScores: Record<IntentLabel, number>;
}

/** The turns of a side, latest first, up to the character budget, returned in call order. */
function lastTurns(segments: readonly TranscriptSegment[], budget: number): string[] {
  const texts: string[] = [];
  let left = budget;
  for (let i = segments.length - 1; i >= 0 && left > 0; i -= 1) {
    const text = segments[i]!.text;
    texts.push(text.length > left ? text.slice(text.length - left) : text);
    left -= text.length;
  }
  return texts.reverse();
}

/** Adds `amount` to a feature, when `accept` lets it in (the service accepts only the model's vocabulary). */
type Sink = (name: string, amount?: number) => void;

function sinkInto(group: Map<string, number>, accept: (name: string) => boolean): Sink {
  return (name, amount = 1) => {
    if (accept(name)) group.set(name, (group.get(name) ?? 0) + amount);
  };
}

function addWords(add: Sink, prefix: string, words: readonly string[], bigrams: boolean): void {
  for (const word of words) add(`${prefix}${word}`);
  if (bigrams) for (let i = 1; i < words.length; i += 1) add(`${prefix}${words[i - 1]} ${words[i]}`);
}

function addCharacterNgrams(add: Sink, words: readonly string[]): void {
  for (const word of words) {
    const padded = Array.from(`<${word.slice(0, MAX_WORD_FOR_NGRAMS)}>`);
    for (const n of CHAR_NGRAM_SIZES) {
      for (let i = 0; i + n <= padded.length; i += 1) add(`c:${padded.slice(i, i + n).join('')}`);
    }
  }
}

/** Scales a group's values to unit Euclidean length and moves them into `into` (the compliance classifier's too). */
export function mergeScaled(into: Map<string, number>, group: ReadonlyMap<string, number>): void {
  let squares = 0;
  for (const value of group.values()) squares += value * value;
  if (squares === 0) return;
  const norm = Math.sqrt(squares);
  for (const [name, value] of group) into.set(name, value / norm);
}

/** The words of a turn after its last contrastive word (none when the turn has none). */
function wordsAfterLastContrast(text: string, language: string): string[] {
  const words = tokenizeClauses(text, language).flatMap((clause) =>
    clause.map((word, i) => ({ word, contrast: CONTRAST_ANYWHERE.has(word) || (i === 0 && CONTRAST_AT_CLAUSE_START.has(word)) })),
  );
  let at = -1;
  words.forEach((w, i) => {
    if (w.contrast) at = i;
  });
  return at < 0 ? [] : words.slice(at + 1).map((w) => w.word);
}

function negators(language: string, words: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const key of lexiconKeysForWords(language, words)) {
    const rule = negationRule(key);
    for (const word of words) if (rule.before.has(word) || rule.after.has(word)) found.add(word);
  }
  return found;
}

/**
 * The call's features by name. `accept` filters names before they are stored (the service passes the model's
 * vocabulary, so memory stays bounded by it); training accepts every name.
 */
export function callFeatures(
  segments: readonly TranscriptSegment[],
  language: string,
  rules: RuleReading,
  accept: (name: string) => boolean = () => true,
): Map<string, number> {
  const features = new Map<string, number>();
  const customerTexts = lastTurns(customerVoice(segments), MODEL_TEXT_CHARACTERS);
  const agentTexts = lastTurns(agentSegments(segments), MODEL_TEXT_CHARACTERS);

  const words = new Map<string, number>();
  const chars = new Map<string, number>();
  const last = new Map<string, number>();
  const negated = new Map<string, number>();
  const agent = new Map<string, number>();
  const addWord = sinkInto(words, accept);
  const addChar = sinkInto(chars, accept);
  const addNegated = sinkInto(negated, accept);
  let negatedClauses = 0;
  for (const text of customerTexts) {
    for (const clause of tokenizeClauses(text, language)) {
      addWords(addWord, 'w:', clause, false);
      addWords(addWord, 'b:', clause, true);
      addCharacterNgrams(addChar, clause);
      const inClause = negators(language, clause);
      if (inClause.size === 0) continue;
      negatedClauses += 1;
      for (const word of clause) if (!inClause.has(word)) addNegated(`n:${word}`);
    }
  }
  const lastText = customerTexts[customerTexts.length - 1] ?? '';
  for (const clause of tokenizeClauses(lastText, language)) addWords(sinkInto(last, accept), 'l:', clause, true);
  const afterContrast = new Map<string, number>();
  for (const text of customerTexts) addWords(sinkInto(afterContrast, accept), 't:', wordsAfterLastContrast(text, language), true);
  const first = new Map<string, number>();
  const firstText = customerTexts.length > 0 && customerVoice(segments).length === customerTexts.length ? customerTexts[0]! : '';
  for (const clause of tokenizeClauses(firstText, language)) addWords(sinkInto(first, accept), 'f:', clause, true);
  for (const text of agentTexts) addWords(sinkInto(agent, accept), 'a:', tokenize(text, language), false);
  for (const group of [words, chars, last, negated, afterContrast, first, agent]) mergeScaled(features, group);

  const add = sinkInto(features, accept);
  add(`r:intent=${rules.intent ?? 'none'}`);
  for (const label of INTENT_LABELS) {
    const score = rules.intentScores[label];
    if (score > 0) add(`r:intent-score=${label}`, Math.min(score, INTENT_SCORE_CAP) / INTENT_SCORE_CAP);
  }
  add(`r:sign=${sentimentBucket(rules.sentiment.overall)}`);
  add('r:score', rules.sentiment.overall);
  add('r:last-valence', lastText === '' ? 0 : normalizeValence(textValence(lastText, language)));
  add('r:negated-clauses', Math.min(negatedClauses, 3) / 3);
  add('r:customer-turns', Math.min(customerTexts.length, 8) / 8);
  add('r:ends-with-question', /\?\s*$/u.test(lastText) ? 1 : 0);
  add(`r:language=${languageSubtag(language)}`);
  return features;
}
