// What a listening step expects, as a PocketSphinx JSGF grammar or keyphrase list (the alternative to a language
// model that issue 17 asks to measure): the English reply lexicon's phrases for the step's routes' intents and the
// routes' own keywords, as dictionary words. A grammar makes the decoder output one or more of these phrases
// whatever was said; a keyphrase list makes it output only the phrases it spots.
import type { ScriptStep } from '../../../domain/script-types.ts';
import { englishReplies } from '../../analysis/lexicon/reply/en.ts';
import { dictionaryFragments } from './call-domain-corpus.ts';

/** The step's expected phrases as dictionary word strings, each once. */
export function expectedPhrases(step: ScriptStep, dictionary: ReadonlySet<string>): string[] {
  const phrases = new Set<string>();
  for (const route of step.listen?.routes ?? []) {
    for (const text of [...englishReplies[route.intent], ...(route.keywords ?? [])]) {
      // A phrase with a word the dictionary lacks is dropped whole: half a phrase would mean something else.
      const fragments = dictionaryFragments(text, dictionary);
      if (fragments.length === 1) phrases.add(fragments[0]!.join(' '));
    }
  }
  return [...phrases];
}

/** JSGF: one or more expected phrases in a row. */
export function answerGrammar(phrases: readonly string[]): string {
  if (phrases.length === 0) throw new RangeError('a grammar needs at least one phrase');
  return `#JSGF V1.0;\ngrammar answer;\npublic <answer> = ( ${phrases.join(' | ')} )+ ;\n`;
}

/**
 * Keyphrase list (`-kws`): a detection threshold per phrase, 1e-2 for one word to 1e-26 for four (PocketSphinx's
 * documentation: short phrases need high thresholds, long ones low; a one-word phrase at 1e-10 fired on nearly
 * every syllable of a reply). Not tuned further: see docs/speech.md.
 */
export function answerKeyphrases(phrases: readonly string[]): string {
  return phrases.map((phrase) => `${phrase} /1e-${Math.min(40, 8 * phrase.split(' ').length - 6)}/\n`).join('');
}
