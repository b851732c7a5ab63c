/**
 * The default, offline Analyzer: lexicons and rules per language (en, hi, Hinglish, mr, ta, te), no model and
 * no network. Each method is a pure function of its input.
 */
import type { Analyzer } from './port.ts';
import { detectIntent } from './intent.ts';
import { scoreQa } from './qa.ts';
import { analyzeSentiment } from './sentiment.ts';
import { summarize } from './summary.ts';

export function createLexiconAnalyzer(): Analyzer {
  return {
    summarize: (input) => summarize(input),
    sentiment: ({ segments, language }) => analyzeSentiment(segments, language),
    intent: ({ segments, language }) => detectIntent(segments, language),
    scoreQa: ({ segments, language, scorecard }) => scoreQa(segments, language, scorecard),
  };
}
