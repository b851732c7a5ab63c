/**
 * What the compliance classifier reads of one stretch of a turn (a "window"): the same function at training
 * (scripts/train-compliance-classifier.ts) and in service (classified-compliance.ts), so the two cannot drift apart.
 *
 * Groups, each scaled to unit length per window (so a long window's many character n-grams do not drown its words):
 *   w:  the words                     b: word bigrams within a clause
 *   c:  character 2- to 4-grams inside words: inflected Tamil, Telugu and Marathi forms and the many spellings of
 *       romanised Hindi share n-grams where they share no whole word
 *   n:  the words of a clause that holds a negator of the analysis' lexicons ("not threatening", "कोई नहीं आएगा"):
 *       a denial reads differently from the claim it denies
 *   k:  the rules' concept classes (domain/compliance/lexicon/concepts.ts) that occur, not negated, in the window's
 *       turn: the borrower's place, a law officer, a product... The classes hold every language's words, so a model
 *       can learn combinations the hand-written patterns lack from one language and apply them in all. Not scaled;
 *       only in the feature set "text+concepts" (the trainer chooses; see docs/compliance-post-call.md, Round 6)
 *
 * A turn is cut into windows of at most WINDOW_WORDS words (a long monologue would otherwise dilute one threatening
 * sentence), and a call's side is read up to MAX_SIDE_CHARACTERS (the rules still read all of it).
 */
import { lexiconKeysForWords } from '../../../domain/shared/text/lexicon-selection.ts';
import { tokenizeClauses } from '../../../domain/shared/text/normalize.ts';
import { FALSE_CLAIM_PATTERNS, PROMOTION_PATTERNS, THREAT_PATTERNS, type Concept } from '../../../domain/compliance/lexicon/concepts.ts';
import { findPhrase } from '../../../domain/compliance/phrase-finder.ts';
import { mergeScaled } from '../classifier/call-features.ts';
import { negationRule } from '../negation.ts';

export const WINDOW_WORDS = 60;
export const MAX_SIDE_CHARACTERS = 40_000;
/** Longer "words" (a run of letters) give their first characters' n-grams only. */
const MAX_WORD_FOR_NGRAMS = 24;
const CHAR_NGRAM_SIZES = [2, 3, 4] as const;

/** A stretch of one segment: its clauses (normalised words) and the segment it came from. */
export interface Window<S> {
  segment: S;
  clauses: string[][];
}

/**
 * The windows of a side's segments, in call order, up to MAX_SIDE_CHARACTERS of text. A window holds whole clauses
 * while they fit in WINDOW_WORDS (a longer clause is cut).
 */
export function windowsOf<S extends { text: string }>(segments: readonly S[], language: string): Array<Window<S>> {
  const windows: Array<Window<S>> = [];
  let budget = MAX_SIDE_CHARACTERS;
  for (const segment of segments) {
    if (budget <= 0) break;
    const text = segment.text.length > budget ? segment.text.slice(0, budget) : segment.text;
    budget -= text.length;
    let current: string[][] = [];
    let words = 0;
    for (const clause of tokenizeClauses(text, language)) {
      for (let start = 0; start < clause.length; start += WINDOW_WORDS) {
        const piece = clause.slice(start, start + WINDOW_WORDS);
        if (words + piece.length > WINDOW_WORDS && current.length > 0) {
          windows.push({ segment, clauses: current });
          current = [];
          words = 0;
        }
        current.push(piece);
        words += piece.length;
      }
    }
    if (current.length > 0) windows.push({ segment, clauses: current });
  }
  return windows;
}

/** Every concept class the rules' patterns use, in a fixed order. */
export const CONCEPTS: readonly Concept[] = [...new Set([...THREAT_PATTERNS, ...FALSE_CLAIM_PATTERNS, ...PROMOTION_PATTERNS].flat())].sort();
export const CONCEPT_FEATURE_PREFIX = 'k:';

/** The `k:` features of a turn: each concept class with a phrase in it that is not negated. */
export function conceptFeatures(text: string, language: string): string[] {
  return CONCEPTS.filter((concept) => findPhrase(text, language, { concept }, { negatable: true }) !== null).map((concept) => `${CONCEPT_FEATURE_PREFIX}${concept}`);
}

type Sink = (name: string) => void;

function sinkInto(group: Map<string, number>, accept: (name: string) => boolean): Sink {
  return (name) => {
    if (accept(name)) group.set(name, (group.get(name) ?? 0) + 1);
  };
}

function hasNegator(language: string, words: readonly string[]): boolean {
  for (const key of lexiconKeysForWords(language, words)) {
    const rule = negationRule(key);
    if (words.some((word) => rule.before.has(word) || rule.after.has(word))) return true;
  }
  return false;
}

/**
 * A window's features by name. `accept` filters names before they are stored (the service passes the model's
 * vocabulary, so memory stays bounded by it); training accepts every name.
 */
export function windowFeatures(
  clauses: readonly (readonly string[])[],
  language: string,
  accept: (name: string) => boolean = () => true,
  concepts: readonly string[] = [],
): Map<string, number> {
  const words = new Map<string, number>();
  const chars = new Map<string, number>();
  const negated = new Map<string, number>();
  const addWord = sinkInto(words, accept);
  const addChar = sinkInto(chars, accept);
  const addNegated = sinkInto(negated, accept);
  for (const clause of clauses) {
    for (let i = 0; i < clause.length; i += 1) {
      addWord(`w:${clause[i]}`);
      if (i > 0) addWord(`b:${clause[i - 1]} ${clause[i]}`);
      const padded = Array.from(`<${clause[i]!.slice(0, MAX_WORD_FOR_NGRAMS)}>`);
      for (const n of CHAR_NGRAM_SIZES) {
        for (let j = 0; j + n <= padded.length; j += 1) addChar(`c:${padded.slice(j, j + n).join('')}`);
      }
    }
    if (hasNegator(language, clause)) for (const word of clause) addNegated(`n:${word}`);
  }
  const features = new Map<string, number>();
  for (const group of [words, chars, negated]) mergeScaled(features, group);
  for (const name of concepts) if (accept(name)) features.set(name, 1);
  return features;
}
