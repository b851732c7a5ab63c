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
import type { Concept, ConceptPattern } from './lexicon/concepts.ts';
import { complianceLexicons, conceptLexicons } from './lexicon/index.ts';
import { romanisedHindiKey } from './romanised-hindi.ts';

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
  /** Concept patterns that claim the whole clause as `yieldsTo` does (a clause that is a false claim in other words). */
  yieldsToPatterns?: readonly ConceptPattern[];
  /**
   * Search whole clauses, across scope breaks: for phrases that hold a break word themselves and are never negated
   * ("அப்புறம் பண்ணுங்க" call later, whose அப்புறம் is also "and then").
   */
  acrossScopeBreaks?: boolean;
}

/** What is searched: a lexicon list, or a concept class (domain/compliance/lexicon/concepts.ts). */
export type Source = ComplianceList | { concept: Concept };

interface Compiled {
  text: string;
  words: CompiledPhrase;
}

type CompiledLexicon = {
  key: LexiconKey;
  lists: Map<string, PhraseIndex>;
  negatorsBefore: Compiled[];
  negatorsAfter: Compiled[];
  clauseNegators: Compiled[];
  scopeBreaks: Compiled[];
  conditionOpeners: Compiled[];
  coordinators: Compiled[];
  subordinators: Compiled[];
  negatorWordsBefore: number;
  negatorWordsAfter: number;
};

const compiledLexicons = new Map<LexiconKey, CompiledLexicon>();

// "(a|b|c)" in a phrase stands for any of its alternatives: "(your|ur) (house|home|door*)" is six phrases.
const ALTERNATION = /\(([^()]*)\)/;

/** A phrase with its alternation groups spelled out: every combination, in order. */
export function expandAlternatives(phrase: string): string[] {
  const group = ALTERNATION.exec(phrase);
  if (!group) return [phrase];
  const before = phrase.slice(0, group.index);
  const after = phrase.slice(group.index + group[0].length);
  return group[1]!.split('|').flatMap((alternative) => expandAlternatives(`${before}${alternative.trim()}${after}`));
}

/** The words a lexicon reads: romanised Hindi through its spelling key, every other lexicon as tokenized. */
function viewOf(key: LexiconKey, words: readonly string[]): readonly string[] {
  return key === 'hi-latn' ? words.map(romanisedHindiKey) : words;
}

/**
 * Content phrases (threats, claims, concepts) are compiled for the lexicon's view of the words (`keyed`); the
 * grammar lists (negators, scope breaks, coordinators, condition openers) are compiled as written and read the
 * plain words: their spelling variants are listed, and a folded "toh" would be the English "to".
 */
function compileAll(phrases: readonly string[], key: LexiconKey, content = false): Compiled[] {
  return phrases
    .flatMap((text) =>
      expandAlternatives(text).map((variant) => {
        const words = compilePhrase(variant, key);
        return { text, words: content ? keyed(words, key) : words };
      }),
    )
    .filter((phrase) => phrase.words.length > 0);
}

function keyed(phrase: CompiledPhrase, key: LexiconKey): CompiledPhrase {
  return key === 'hi-latn' ? phrase.map((word) => ({ ...word, text: romanisedHindiKey(word.text) })) : phrase;
}

function compiledLexicon(key: LexiconKey): CompiledLexicon {
  let compiled = compiledLexicons.get(key);
  if (!compiled) {
    const lexicon: ComplianceLexicon = complianceLexicons[key];
    const lists = new Map<string, PhraseIndex>();
    compiled = {
      key,
      lists,
      negatorsBefore: compileAll(lexicon.negatorsBefore, key),
      negatorsAfter: compileAll(lexicon.negatorsAfter, key),
      clauseNegators: compileAll(lexicon.clauseNegators, key),
      scopeBreaks: compileAll(lexicon.scopeBreaks, key),
      conditionOpeners: compileAll(lexicon.conditionOpeners, key),
      coordinators: compileAll(lexicon.coordinators, key),
      subordinators: compileAll(lexicon.subordinators, key),
      negatorWordsBefore: lexicon.negatorWordsBefore,
      negatorWordsAfter: lexicon.negatorWordsAfter,
    };
    compiledLexicons.set(key, compiled);
  }
  return compiled;
}

function sourceKey(source: Source): string {
  return typeof source === 'string' ? source : `concept:${source.concept}`;
}

/**
 * A content list indexed by its phrases' first word, so a word is compared with the few phrases that can start
 * there (the concept lists spell out hundreds of alternatives): phrases starting with an exact word by that word,
 * with a stem by the stem's first letter, with a `*suffix` in a list tried everywhere.
 */
interface PhraseIndex {
  exact: Map<string, Compiled[]>;
  byFirstLetter: Map<string, Compiled[]>;
  anywhere: Compiled[];
}

function firstLetter(word: string): string {
  return String.fromCodePoint(word.codePointAt(0) ?? 0);
}

function indexPhrases(phrases: readonly Compiled[]): PhraseIndex {
  const index: PhraseIndex = { exact: new Map(), byFirstLetter: new Map(), anywhere: [] };
  const add = (map: Map<string, Compiled[]>, key: string, phrase: Compiled) => {
    const bucket = map.get(key);
    if (bucket) bucket.push(phrase);
    else map.set(key, [phrase]);
  };
  for (const phrase of phrases) {
    const first = phrase.words[0]!;
    if (first.suffix) index.anywhere.push(phrase);
    else if (first.prefix) add(index.byFirstLetter, firstLetter(first.text), phrase);
    else add(index.exact, first.text, phrase);
  }
  return index;
}

const NONE: readonly Compiled[] = [];

/** The phrases of `index` that may start at a word, in three buckets. */
function candidatesFor(index: PhraseIndex, word: string): ReadonlyArray<readonly Compiled[]> {
  return [index.exact.get(word) ?? NONE, index.byFirstLetter.get(firstLetter(word)) ?? NONE, index.anywhere];
}

function listOf(lexicon: CompiledLexicon, source: Source): PhraseIndex {
  const cacheKey = sourceKey(source);
  let phrases = lexicon.lists.get(cacheKey);
  if (!phrases) {
    const raw = typeof source === 'string' ? complianceLexicons[lexicon.key][source] : (conceptLexicons[lexicon.key][source.concept] ?? []);
    phrases = indexPhrases(compileAll(raw, lexicon.key, true));
    lexicon.lists.set(cacheKey, phrases);
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

/**
 * One clause as each of its lexicons reads it: `words` for the grammar lists, and `views[i]` for the content lists
 * of `lexicons[i]` (the same words, or their romanised-Hindi keys), all of one length so positions agree.
 */
interface Clause {
  length: number;
  words: readonly string[];
  /** Every hit of a source in the whole clause, by source key: each list is scanned once per clause. */
  hits: Map<string, Hit[]>;
  lexicons: readonly CompiledLexicon[];
  views: ReadonlyArray<readonly string[]>;
}

/** Whether any of the clause's lexicons has a phrase of `pick(lexicon)` at `index`; the longest match's length. */
function anyMatchAt(clause: Clause, pick: (lexicon: CompiledLexicon) => readonly Compiled[], index: number): number {
  let longest = 0;
  for (const lexicon of clause.lexicons) longest = Math.max(longest, matchLengthAt(clause.words, pick(lexicon), index));
  return longest;
}

/** Split a clause at scope breaks ("then", "तो", "वरना"): the break words belong to neither side. */
function scopesOf(clause: Clause): Span[] {
  const scopes: Span[] = [];
  let start = 0;
  let index = 0;
  while (index < clause.length) {
    const length = anyMatchAt(clause, (lexicon) => lexicon.scopeBreaks, index);
    if (length > 0) {
      if (index > start) scopes.push({ start, end: index });
      index += length;
      start = index;
    } else {
      index++;
    }
  }
  if (start < clause.length) scopes.push({ start, end: clause.length });
  return scopes;
}

function isNegated(clause: Clause, hit: Span, scope: Span, ignored: readonly Span[]): boolean {
  const isIgnored = (index: number) => ignored.some((span) => index >= span.start && index < span.end);
  // A negator after "if"/"अगर" negates the condition ("if you don't pay police will come"), not the consequence
  // after it; only a negator right before the phrase ("if you call, there is no police case") still counts.
  let conditionAt = -1;
  for (let index = scope.start; index < hit.start; index++) {
    if (anyMatchAt(clause, (lexicon) => lexicon.conditionOpeners, index) > 0) conditionAt = Math.max(conditionAt, index);
  }
  const from = conditionAt >= 0 ? Math.max(conditionAt + 1, hit.start - 1) : scope.start;
  const words = clause.words;
  // A negator before a coordinated list reaches every item: "no question of police or arrest" denies the arrest.
  let listStart = hit.start;
  while (listStart - 2 >= from && anyMatchAt(clause, (lexicon) => lexicon.coordinators, listStart - 1) > 0) listStart -= 2;
  const holdsSubordinator = opensSubordinate(clause, hit.start, hit.end);
  for (const lexicon of clause.lexicons) {
    for (let index = from; index < hit.start; index++) {
      if (!isIgnored(index) && matchLengthAt(words, lexicon.clauseNegators, index) > 0) return true;
    }
    for (const start of listStart === hit.start ? [hit.start] : [hit.start, listStart]) {
      for (let distance = 1; distance <= lexicon.negatorWordsBefore; distance++) {
        const index = start - distance;
        if (index < from) break;
        if (!isIgnored(index) && matchLengthAt(words, lexicon.negatorsBefore, index) > 0) return true;
      }
    }
    // A negator after a subordinator belongs to the subordinate clause; a phrase holding one is that clause.
    if (!holdsSubordinator) {
      for (let index = hit.end; index < Math.min(scope.end, hit.end + lexicon.negatorWordsAfter); index++) {
        if (anyMatchAt(clause, (each) => each.subordinators, index) > 0) break;
        if (!isIgnored(index) && matchLengthAt(words, lexicon.negatorsAfter, index) > 0) return true;
      }
    }
  }
  return false;
}

/** Whether a subordinator ("जब तक", "until") starts inside [start, end). */
function opensSubordinate(clause: Clause, start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (anyMatchAt(clause, (lexicon) => lexicon.subordinators, index) > 0) return true;
  return false;
}

interface Hit extends Span {
  phrase: string;
  lexicon: LexiconKey;
}

function hitsOf(clause: Clause, scope: Span, source: Source): Hit[] {
  const key = sourceKey(source);
  let all = clause.hits.get(key);
  if (!all) {
    all = clauseHits(clause, source);
    clause.hits.set(key, all);
  }
  if (scope.start === 0 && scope.end === clause.length) return all;
  const scoped = `${key}@${scope.start}:${scope.end}`;
  let within = clause.hits.get(scoped);
  if (!within) {
    within = all.filter((hit) => hit.start >= scope.start && hit.end <= scope.end);
    clause.hits.set(scoped, within);
  }
  return within;
}

function clauseHits(clause: Clause, source: Source): Hit[] {
  const hits: Hit[] = [];
  for (const [i, lexicon] of clause.lexicons.entries()) {
    const words = clause.views[i]!;
    const phrases = listOf(lexicon, source);
    for (let index = 0; index < clause.length; index++) {
      for (const bucket of candidatesFor(phrases, words[index]!)) {
        for (const phrase of bucket) {
          if (phraseMatchesAt(words, phrase.words, index)) hits.push({ start: index, end: index + phrase.words.length, phrase: phrase.text, lexicon: lexicon.key });
        }
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
function coordinated(clause: Clause, previous: Span, next: Span): boolean {
  if (next.start <= previous.end || next.start - previous.end > 2) return false;
  for (let index = previous.end; index < next.start; index++) {
    if (anyMatchAt(clause, (lexicon) => lexicon.coordinators, index) === 0) return false;
  }
  return true;
}

// Clause breaks: a negator never reaches across a comma, full stop, danda or question mark.
const CLAUSE_BREAK = /[.,!?;:।॥\n]+/u;

/**
 * Every clause scope of `text` where a phrase may be looked for, in order: the text split at clause breaks, each
 * clause's words with the lexicons they select, skipping clauses where a phrase of `options.yieldsTo` (or a
 * pattern of `options.yieldsToPatterns`, not negated) occurs.
 */
function* clauseScopes(text: string, language: string, options: FindOptions) {
  for (const each of preparedClauses(text, language)) {
    const { clause, scopes } = each;
    const whole = { start: 0, end: clause.length };
    if (options.yieldsTo && hitsOf(clause, whole, options.yieldsTo).length > 0) continue;
    if (yieldsToPatterns(each, options.yieldsToPatterns)) continue;
    if (options.acrossScopeBreaks) yield { clause, scope: whole };
    else for (const scope of scopes) yield { clause, scope };
  }
}

interface PreparedClause {
  clause: Clause;
  scopes: Span[];
  /** Only a comma stands between this clause and the one before it in the turn ("will be frozen, your PAN, …"). */
  afterComma: boolean;
  /** Whether the clause yields to a pattern list (FindOptions.yieldsToPatterns), by list. */
  yieldsTo: Map<readonly ConceptPattern[], boolean>;
}

function yieldsToPatterns(prepared: PreparedClause, patterns: readonly ConceptPattern[] | undefined): boolean {
  if (!patterns) return false;
  let yields = prepared.yieldsTo.get(patterns);
  if (yields === undefined) {
    yields = prepared.scopes.some((scope) => patternIn(prepared.clause, scope, patterns, { negatable: true }) !== null);
    prepared.yieldsTo.set(patterns, yields);
  }
  return yields;
}

// Every rule searches the same turns for several lists: a turn's clauses, their lexicons, word views, scopes and
// hits are prepared once. A bounded memo of a pure function (cleared when full), like tokenize's.
const PREPARED_LIMIT = 4096;
const prepared = new Map<string, PreparedClause[]>();

function preparedClauses(text: string, language: string): PreparedClause[] {
  const key = `${language}\u0000${text}`;
  let clauses = prepared.get(key);
  if (!clauses) {
    clauses = [];
    // split with a capturing group: parts at even indexes, the breaks between them at odd ones
    const pieces = text.split(new RegExp(`(${CLAUSE_BREAK.source})`, 'u'));
    let breakBefore = '';
    for (let i = 0; i < pieces.length; i += 2) {
      const words = tokenize(pieces[i]!, language);
      if (words.length > 0) {
        const keys = lexiconKeysForWords(language, words);
        const clause: Clause = { length: words.length, words, hits: new Map(), lexicons: keys.map(compiledLexicon), views: keys.map((key) => viewOf(key, words)) };
        clauses.push({ clause, scopes: scopesOf(clause), afterComma: clauses.length > 0 && breakBefore === ',', yieldsTo: new Map() });
        breakBefore = '';
      }
      breakBefore += pieces[i + 1] ?? '';
    }
    if (prepared.size >= PREPARED_LIMIT) prepared.clear();
    prepared.set(key, clauses);
  }
  return clauses;
}

/** The first (not negated, when `negatable`) occurrence of a phrase of `list` in `text`, or null. */
export function findPhrase(text: string, language: string, list: Source, options: FindOptions): PhraseHit | null {
  for (const { clause, scope } of clauseScopes(text, language, options)) {
    const hits = hitsOf(clause, scope, list);
    const exceptions = options.except ? hitsOf(clause, scope, options.except) : [];
    let previous: { hit: Hit; negated: boolean } | null = null;
    for (const hit of hits) {
      if (exceptions.some((span) => span.start < hit.end && hit.start < span.end)) continue;
      // Negators inside another match of the list ("छोड़ेंगे नहीं" is itself a threat) negate nothing.
      const others = hits.filter((span) => span.end <= hit.start || span.start >= hit.end);
      const negated: boolean =
        options.negatable && (isNegated(clause, hit, scope, others) || (previous !== null && previous.negated && coordinated(clause, previous.hit, hit)));
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
export function findPair(text: string, language: string, first: Source, second: Source, options: FindOptions): PhraseHit | null {
  for (const { clause, scope } of clauseScopes(text, language, options)) {
    const standing = (source: Source) => hitsOf(clause, scope, source).filter((hit) => !options.negatable || !isNegated(clause, hit, scope, []));
    const a = standing(first)[0];
    if (!a) continue;
    const b = standing(second).find((hit) => hit.end <= a.start || hit.start >= a.end);
    if (b) return { phrase: `${a.phrase} … ${b.phrase}`, lexicon: a.lexicon };
  }
  return null;
}

/**
 * The first pattern of `patterns` whose every concept occurs in one clause scope, in any order, each occurrence
 * not negated when `options.negatable` (word order is free in Hindi, Marathi, Tamil and Telugu: "पुलिस आपको
 * उठा ले जाएगी" and "आपको उठा ले जाएगी पुलिस" are one claim). Phrases of `options.except` cancel overlapping hits.
 */
function patternIn(clause: Clause, scope: Span, patterns: readonly ConceptPattern[], options: Pick<FindOptions, 'negatable' | 'except'>): PhraseHit | null {
  const exceptions = options.except ? hitsOf(clause, scope, options.except) : [];
  const candidates = new Map<Concept, Hit[]>();
  const hitsFor = (concept: Concept): Hit[] => {
    let hits = candidates.get(concept);
    if (!hits) {
      hits = hitsOf(clause, scope, { concept }).filter((hit) => !exceptions.some((span) => span.start < hit.end && hit.start < span.end));
      candidates.set(concept, hits);
    }
    return hits;
  };
  for (const pattern of patterns) {
    const parts = pattern.map(hitsFor);
    if (parts.some((hits) => hits.length === 0)) continue;
    // A negator inside another part of the pattern belongs to that part ("कहीं भी … नहीं मिलेगा").
    const chosen = parts.map((hits, i) => {
      const others = parts.filter((_, j) => j !== i).flat();
      return hits.find((hit) => !options.negatable || !isNegated(clause, hit, scope, others));
    });
    if (chosen.every((hit) => hit !== undefined)) {
      const hits = chosen as Hit[];
      return { phrase: hits.map((hit) => hit.phrase).join(' … '), lexicon: hits[0]!.lexicon };
    }
  }
  return null;
}

/** One clause scope: where a part of a pattern may stand, and where its negation is decided. */
interface Unit {
  clause: Clause;
  scope: Span;
}

/**
 * patternIn over adjacent scopes: each concept may stand in any of `units`, and each occurrence is negated or not
 * in its own scope (a comma still ends a negation's reach).
 */
function patternAcross(units: readonly Unit[], patterns: readonly ConceptPattern[], options: Pick<FindOptions, 'negatable' | 'except'>): PhraseHit | null {
  const exceptions = units.map(({ clause, scope }) => (options.except ? hitsOf(clause, scope, options.except) : []));
  const candidates = new Map<Concept, Array<{ unit: number; hit: Hit }>>();
  const hitsFor = (concept: Concept) => {
    let hits = candidates.get(concept);
    if (!hits) {
      hits = units.flatMap(({ clause, scope }, unit) =>
        hitsOf(clause, scope, { concept })
          .filter((hit) => !exceptions[unit]!.some((span) => span.start < hit.end && hit.start < span.end))
          .map((hit) => ({ unit, hit })),
      );
      candidates.set(concept, hits);
    }
    return hits;
  };
  for (const pattern of patterns) {
    const parts = pattern.map(hitsFor);
    if (parts.some((hits) => hits.length === 0)) continue;
    // A negator inside another part of the pattern belongs to that part ("कहीं भी … नहीं मिलेगा").
    const othersOf = (i: number, unit: number): Hit[] => {
      const others: Hit[] = [];
      for (const [j, hits] of parts.entries()) if (j !== i) for (const other of hits) if (other.unit === unit) others.push(other.hit);
      return others;
    };
    const chosen = parts.map((hits, i) =>
      hits.find(({ unit, hit }) => !options.negatable || !isNegated(units[unit]!.clause, hit, units[unit]!.scope, othersOf(i, unit))),
    );
    if (chosen.every((hit) => hit !== undefined)) {
      const hits = chosen.map((each) => each!.hit);
      return { phrase: hits.map((hit) => hit.phrase).join(' … '), lexicon: hits[0]!.lexicon };
    }
  }
  return null;
}

// A claim is often said in pieces: "your PAN card, your bank accounts, all of them will be frozen", "कहीं भी आपको
// लोन, फोन कनेक्शन … नहीं मिलेगा". A pattern may take its parts from up to this many clauses in a row that only
// commas separate, each part from the text next to the comma (the last scope before it, the first after it).
const COMMA_WINDOW = 3;

/**
 * The longest runs of adjacent scopes across commas (two clauses or more, from each clause on): the last scope of
 * the first clause, the first scope of each next one. A shorter run is inside a longer one, so it is not tried.
 */
function* commaWindows(clauses: readonly PreparedClause[], options: FindOptions): Generator<Unit[]> {
  if (clauses.length < 2 || !clauses.some((each) => each.afterComma)) return;
  const yields = clauses.map((each) => yieldsToPatterns(each, options.yieldsToPatterns));
  for (let first = 0; first < clauses.length - 1; first++) {
    if (yields[first] || !clauses[first + 1]!.afterComma) continue;
    const units: Unit[] = [{ clause: clauses[first]!.clause, scope: clauses[first]!.scopes.at(-1)! }];
    for (let index = first + 1; index < clauses.length && units.length < COMMA_WINDOW; index++) {
      const each = clauses[index]!;
      if (!each.afterComma || yields[index]) break;
      units.push({ clause: each.clause, scope: each.scopes[0]! });
      // a clause of several scopes ("…, then …,") ends the run: no one scope of it is next to both commas
      if (each.scopes.length > 1) break;
    }
    if (units.length >= 2) yield units;
  }
}

/** The first clause scope of `text` where a pattern of `patterns` occurs (patternIn), as one hit, or null. */
export function findPattern(text: string, language: string, patterns: readonly ConceptPattern[], options: FindOptions): PhraseHit | null {
  for (const { clause, scope } of clauseScopes(text, language, options)) {
    const hit = patternIn(clause, scope, patterns, options);
    if (hit) return hit;
  }
  for (const units of commaWindows(preparedClauses(text, language), options)) {
    const hit = patternAcross(units, patterns, options);
    if (hit) return hit;
  }
  return null;
}
