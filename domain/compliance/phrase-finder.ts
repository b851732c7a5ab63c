/**
 * Finds a compliance lexicon's phrases in one transcript turn, with negation scope: "I am not threatening you",
 * "police will not come", "पुलिस नहीं आएगी", "போலீஸ் வராது" do not count, but "if you don't pay, police will
 * come" does (the negator belongs to the condition). Lexicons are chosen per clause by script
 * (domain/shared/text/lexicon-selection.ts), so Hinglish in a Hindi call and English words in a Tamil call are
 * read with the right lists.
 */
import { lexiconKeysForWords, type LexiconKey } from '../shared/text/lexicon-selection.ts';
import { compilePhrase, phraseMatchesAt, tokenize, type CompiledPhrase } from '../shared/text/normalize.ts';
import type { ComplianceLexicon, ComplianceList } from './lexicon/compliance-lexicon.ts';
import { complianceLexicons } from './lexicon/index.ts';

export interface PhraseHit {
  /** The lexicon phrase as written in the list. */
  phrase: string;
  lexicon: LexiconKey;
}

export interface FindOptions {
  /** Whether a negated occurrence is dropped (threats, claims, disclosures); opt-out phrases carry their negator. */
  negatable: boolean;
  /** A list whose phrases cancel an overlapping hit ("settlement offer" is not promotional). */
  except?: ComplianceList;
  /**
   * A list that claims the whole clause: "police will come to your house" is a false claim, so its "come to your
   * house" is not also counted as the lender's own threat.
   */
  yieldsTo?: ComplianceList;
}

interface Compiled {
  text: string;
  words: CompiledPhrase;
}

type CompiledLexicon = {
  lists: Map<ComplianceList, Compiled[]>;
  negatorsBefore: Compiled[];
  negatorsAfter: Compiled[];
  clauseNegators: Compiled[];
  scopeBreaks: Compiled[];
  conditionOpeners: Compiled[];
  coordinators: Compiled[];
  negatorWordsBefore: number;
  negatorWordsAfter: number;
};

const compiledLexicons = new Map<LexiconKey, CompiledLexicon>();

function compileAll(phrases: readonly string[], key: LexiconKey): Compiled[] {
  return phrases.map((text) => ({ text, words: compilePhrase(text, key) })).filter((phrase) => phrase.words.length > 0);
}

function compiledLexicon(key: LexiconKey): CompiledLexicon {
  let compiled = compiledLexicons.get(key);
  if (!compiled) {
    const lexicon: ComplianceLexicon = complianceLexicons[key];
    const lists = new Map<ComplianceList, Compiled[]>();
    compiled = {
      lists,
      negatorsBefore: compileAll(lexicon.negatorsBefore, key),
      negatorsAfter: compileAll(lexicon.negatorsAfter, key),
      clauseNegators: compileAll(lexicon.clauseNegators, key),
      scopeBreaks: compileAll(lexicon.scopeBreaks, key),
      conditionOpeners: compileAll(lexicon.conditionOpeners, key),
      coordinators: compileAll(lexicon.coordinators, key),
      negatorWordsBefore: lexicon.negatorWordsBefore,
      negatorWordsAfter: lexicon.negatorWordsAfter,
    };
    compiledLexicons.set(key, compiled);
  }
  return compiled;
}

function listOf(lexicon: CompiledLexicon, key: LexiconKey, list: ComplianceList): Compiled[] {
  let phrases = lexicon.lists.get(list);
  if (!phrases) {
    phrases = compileAll(complianceLexicons[key][list], key);
    lexicon.lists.set(list, phrases);
  }
  return phrases;
}

/** The length of the first of `phrases` that matches at `index`, or 0. */
function matchLengthAt(words: readonly string[], phrases: readonly Compiled[], index: number): number {
  for (const phrase of phrases) if (phraseMatchesAt(words, phrase.words, index)) return phrase.words.length;
  return 0;
}

interface Span {
  start: number;
  end: number;
}

/** Split a clause at scope breaks ("then", "तो", "वरना"): the break words belong to neither side. */
function scopesOf(words: readonly string[], lexicons: readonly CompiledLexicon[]): Span[] {
  const scopes: Span[] = [];
  let start = 0;
  let index = 0;
  while (index < words.length) {
    const length = Math.max(0, ...lexicons.map((lexicon) => matchLengthAt(words, lexicon.scopeBreaks, index)));
    if (length > 0) {
      if (index > start) scopes.push({ start, end: index });
      index += length;
      start = index;
    } else {
      index++;
    }
  }
  if (start < words.length) scopes.push({ start, end: words.length });
  return scopes;
}

function isNegated(words: readonly string[], hit: Span, scope: Span, lexicons: readonly CompiledLexicon[], ignored: readonly Span[]): boolean {
  const isIgnored = (index: number) => ignored.some((span) => index >= span.start && index < span.end);
  // A negator after "if"/"अगर" negates the condition ("if you don't pay police will come"), not the consequence
  // after it; only a negator right before the phrase ("if you call, there is no police case") still counts.
  let conditionAt = -1;
  for (const lexicon of lexicons) {
    for (let index = scope.start; index < hit.start; index++) {
      if (matchLengthAt(words, lexicon.conditionOpeners, index) > 0) conditionAt = Math.max(conditionAt, index);
    }
  }
  const from = conditionAt >= 0 ? Math.max(conditionAt + 1, hit.start - 1) : scope.start;
  for (const lexicon of lexicons) {
    for (let index = from; index < hit.start; index++) {
      if (!isIgnored(index) && matchLengthAt(words, lexicon.clauseNegators, index) > 0) return true;
    }
    for (let distance = 1; distance <= lexicon.negatorWordsBefore; distance++) {
      const index = hit.start - distance;
      if (index < from) break;
      if (!isIgnored(index) && matchLengthAt(words, lexicon.negatorsBefore, index) > 0) return true;
    }
    for (let index = hit.end; index < Math.min(scope.end, hit.end + lexicon.negatorWordsAfter); index++) {
      if (!isIgnored(index) && matchLengthAt(words, lexicon.negatorsAfter, index) > 0) return true;
    }
  }
  return false;
}

interface Hit extends Span {
  phrase: string;
  lexicon: LexiconKey;
}

function hitsOf(words: readonly string[], scope: Span, keys: readonly LexiconKey[], lexicons: readonly CompiledLexicon[], list: ComplianceList): Hit[] {
  const hits: Hit[] = [];
  for (const [i, key] of keys.entries()) {
    for (const phrase of listOf(lexicons[i]!, key, list)) {
      for (let index = scope.start; index + phrase.words.length <= scope.end; index++) {
        if (phraseMatchesAt(words, phrase.words, index)) hits.push({ start: index, end: index + phrase.words.length, phrase: phrase.text, lexicon: key });
      }
    }
  }
  // The same words found by two lexicons (English and Hinglish both list "police") are one hit.
  const seen = new Set<string>();
  return hits
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .filter((hit) => !seen.has(`${hit.start}:${hit.end}`) && seen.add(`${hit.start}:${hit.end}`) !== undefined);
}

/** Whether only coordinators ("or", "और", "ना") stand between two hits: the second shares the first's negation. */
function coordinated(words: readonly string[], previous: Span, next: Span, lexicons: readonly CompiledLexicon[]): boolean {
  if (next.start <= previous.end || next.start - previous.end > 2) return false;
  for (let index = previous.end; index < next.start; index++) {
    if (!lexicons.some((lexicon) => matchLengthAt(words, lexicon.coordinators, index) > 0)) return false;
  }
  return true;
}

// Clause breaks: a negator never reaches across a comma, full stop, danda or question mark.
const CLAUSE_BREAK = /[.,!?;:।॥\n]+/u;

/**
 * Every clause scope of `text` where a phrase may be looked for, in order: the text split at clause breaks, each
 * clause's words with the lexicons they select, skipping clauses where a phrase of `options.yieldsTo` occurs.
 */
function* clauseScopes(text: string, language: string, options: FindOptions) {
  for (const clause of text.split(CLAUSE_BREAK)) {
    const words = tokenize(clause, language);
    if (words.length === 0) continue;
    const keys = lexiconKeysForWords(language, words);
    const lexicons = keys.map(compiledLexicon);
    const whole = { start: 0, end: words.length };
    if (options.yieldsTo && hitsOf(words, whole, keys, lexicons, options.yieldsTo).length > 0) continue;
    for (const scope of scopesOf(words, lexicons)) yield { words, keys, lexicons, scope };
  }
}

/** The first (not negated, when `negatable`) occurrence of a phrase of `list` in `text`, or null. */
export function findPhrase(text: string, language: string, list: ComplianceList, options: FindOptions): PhraseHit | null {
  for (const { words, keys, lexicons, scope } of clauseScopes(text, language, options)) {
    const hits = hitsOf(words, scope, keys, lexicons, list);
    const exceptions = options.except ? hitsOf(words, scope, keys, lexicons, options.except) : [];
    let previous: { hit: Hit; negated: boolean } | null = null;
    for (const hit of hits) {
      if (exceptions.some((span) => span.start < hit.end && hit.start < span.end)) continue;
      // Negators inside another match of the list ("छोड़ेंगे नहीं" is itself a threat) negate nothing.
      const others = hits.filter((span) => span.end <= hit.start || span.start >= hit.end);
      const negated: boolean =
        options.negatable &&
        (isNegated(words, hit, scope, lexicons, others) || (previous !== null && previous.negated && coordinated(words, previous.hit, hit, lexicons)));
      if (!negated) return { phrase: hit.phrase, lexicon: hit.lexicon };
      previous = { hit, negated };
    }
  }
  return null;
}

/**
 * The first clause scope where a phrase of `first` and a phrase of `second` both occur, neither negated when
 * `negatable` ("we'll make sure your kids hear about it": "your kids" + "hear"), as one hit "first … second".
 */
export function findPair(text: string, language: string, first: ComplianceList, second: ComplianceList, options: FindOptions): PhraseHit | null {
  for (const { words, keys, lexicons, scope } of clauseScopes(text, language, options)) {
    const standing = (list: ComplianceList) =>
      hitsOf(words, scope, keys, lexicons, list).filter((hit) => !options.negatable || !isNegated(words, hit, scope, lexicons, []));
    const a = standing(first)[0];
    if (!a) continue;
    const b = standing(second).find((hit) => hit.end <= a.start || hit.start >= a.end);
    if (b) return { phrase: `${a.phrase} … ${b.phrase}`, lexicon: a.lexicon };
  }
  return null;
}
