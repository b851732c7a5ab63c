/**
 * The analysis' negation rules (sentiment and intent): the negator lists of the sentiment lexicons, applied with
 * the shared scope check of domain/shared/text/negation-scope.ts.
 */
import type { LexiconKey } from '../../domain/shared/text/lexicon-selection.ts';
import { sentimentLexicons } from './lexicon/sentiment/index.ts';
import type { NegationRule } from '../../domain/shared/text/negation-scope.ts';
import { normalizeText } from '../../domain/shared/text/normalize.ts';

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
