/**
 * Negation scope, shared by sentiment and intent: does a negator stand close enough before or after a matched
 * phrase? English negators precede ("not good"); Indic ones follow (SOV: "अच्छा नहीं", "நல்லா இல்லை",
 * "బాగుంది కాదు"). The negator lists live in the sentiment lexicons.
 */
import type { LexiconKey } from './lexicon-selection.ts';
import { sentimentLexicons } from './lexicon/sentiment/index.ts';
import { normalizeText } from './normalize.ts';

export interface NegationRule {
  before: ReadonlySet<string>;
  wordsBefore: number;
  after: ReadonlySet<string>;
  wordsAfter: number;
}

const rules = new Map<LexiconKey, NegationRule>();

export function negationRule(key: LexiconKey): NegationRule {
  let rule = rules.get(key);
  if (!rule) {
    const lexicon = sentimentLexicons[key];
    rule = {
      before: new Set(lexicon.negatorsBefore.map(normalizeText)),
      wordsBefore: lexicon.negatorWordsBefore,
      after: new Set(lexicon.negatorsAfter.map(normalizeText)),
      wordsAfter: lexicon.negatorWordsAfter,
    };
    rules.set(key, rule);
  }
  return rule;
}

/**
 * Whether the phrase at words[start, end) is negated under any of `rulesInForce`. Words in `ignored` (parts of
 * other matched phrases, such as the नहीं inside "कोई बात नहीं") never act as negators.
 */
export function isNegated(
  words: readonly string[],
  start: number,
  end: number,
  rulesInForce: readonly NegationRule[],
  ignored: ReadonlySet<number> = new Set(),
): boolean {
  for (const rule of rulesInForce) {
    for (let distance = 1; distance <= rule.wordsBefore; distance++) {
      const index = start - distance;
      if (index < 0) break;
      if (!ignored.has(index) && rule.before.has(words[index]!)) return true;
    }
    for (let distance = 0; distance < rule.wordsAfter; distance++) {
      const index = end + distance;
      if (index >= words.length) break;
      if (!ignored.has(index) && rule.after.has(words[index]!)) return true;
    }
  }
  return false;
}
