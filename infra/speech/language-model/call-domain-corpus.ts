// The text a call-domain language model is estimated from: what the workspace's scripts make the agent say,
// what customers are expected to answer (each listening step's route keywords and the reply lexicon's English
// phrases for the intents the routes listen for), and the workspace's scorecard phrases. English only: the
// embedded recogniser is English only.
//
// Text becomes dictionary words: lower case, numbers spelled out ("5000" → "five thousand"), and a word the
// recogniser's dictionary does not have (a name, "EMI", a template placeholder) ends the sentence fragment there,
// so no n-gram spans a word the decoder could never output.
import type { Script } from '../../../domain/script-types.ts';
import { englishReplies } from '../../analysis/lexicon/reply/en.ts';

export interface CallDomainText {
  scripts: readonly Script[];
  /** Phrases from the workspace's QA scorecards (phrase checks), in English. */
  scorecardPhrases?: readonly string[];
}

/** Sentences (word arrays) for the model; every word is in `dictionary`. */
export function callDomainSentences(text: CallDomainText, dictionary: ReadonlySet<string>): string[][] {
  const lines: string[] = [];
  const intents = new Set<keyof typeof englishReplies>();
  for (const script of text.scripts) {
    for (const step of script.steps) {
      lines.push(step.say);
      for (const route of step.listen?.routes ?? []) {
        intents.add(route.intent);
        lines.push(...(route.keywords ?? []));
      }
    }
  }
  for (const intent of intents) lines.push(...englishReplies[intent]);
  lines.push(...(text.scorecardPhrases ?? []));
  return lines.flatMap((line) => dictionaryFragments(line, dictionary));
}

/** One line of text as runs of dictionary words (sentences split at . ! ? and at unknown words). */
export function dictionaryFragments(line: string, dictionary: ReadonlySet<string>): string[][] {
  const fragments: string[][] = [];
  for (const sentence of line.split(/[.!?;:\n]+/)) {
    let current: string[] = [];
    // Placeholders ({name}) are words we cannot know: they break the fragment like any unknown word.
    const tokens = sentence.replace(/\{[^}]*\}/g, ' \u0000 ').toLowerCase().replace(/(\d),(?=\d)/g, '$1').replace(/[₹$,]/g, ' ').split(/\s+/);
    for (const raw of tokens) {
      const token = raw.replace(/^[^a-z0-9'\u0000]+|[^a-z0-9'\u0000]+$/g, '').replace(/^'+|'+$/g, '');
      if (token === '') continue;
      const words = /^\d+$/.test(token) ? spellNumber(Number(token)) : [token];
      for (const word of words) {
        if (word !== '' && dictionary.has(word)) {
          current.push(word);
        } else {
          if (current.length > 0) fragments.push(current);
          current = [];
        }
      }
    }
    if (current.length > 0) fragments.push(current);
  }
  return fragments;
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** An integer as English words ("25000" → twenty five thousand); long digit strings digit by digit. */
export function spellNumber(value: number): string[] {
  if (!Number.isSafeInteger(value) || value < 0) return [''];
  if (value >= 1_000_000_000) return String(value).split('').map((digit) => ONES[Number(digit)]!);
  const words: string[] = [];
  const below1000 = (n: number) => {
    if (n >= 100) {
      words.push(ONES[Math.floor(n / 100)]!, 'hundred');
      n %= 100;
    }
    if (n >= 20) {
      words.push(TENS[Math.floor(n / 10)]!);
      n %= 10;
      if (n > 0) words.push(ONES[n]!);
    } else if (n > 0) {
      words.push(ONES[n]!);
    }
  };
  if (value === 0) return ['zero'];
  for (const [size, name] of [[1_000_000, 'million'], [1_000, 'thousand']] as const) {
    if (value >= size) {
      below1000(Math.floor(value / size));
      words.push(name);
      value %= size;
    }
  }
  below1000(value);
  return words;
}
