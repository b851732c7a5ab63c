/**
 * A lookup of many phrases at once: which lexicon phrases start at a given word of a text. Phrases are
 * grouped by their first word, so a lookup costs one map access plus the few prefix (`stem*`) phrases.
 */
import { compilePhrase, phraseMatchesAt, type CompiledPhrase } from '../../domain/shared/text/normalize.ts';

export interface PhraseEntry<T> {
  phrase: CompiledPhrase;
  value: T;
}

export interface PhraseMatch<T> {
  start: number;
  /** Exclusive. */
  end: number;
  value: T;
}

export class PhraseIndex<T> {
  private readonly byFirstWord = new Map<string, PhraseEntry<T>[]>();
  // Phrases whose first word is a stem (`கோப*`), grouped by the stem's first character to keep lookups short.
  private readonly byFirstStemCharacter = new Map<string, PhraseEntry<T>[]>();

  constructor(entries: Iterable<readonly [phrase: string, value: T]>, language: string) {
    for (const [text, value] of entries) {
      const phrase = compilePhrase(text, language);
      const first = phrase[0];
      if (!first) continue;
      const [map, key] = first.prefix
        ? [this.byFirstStemCharacter, firstCharacter(first.text)]
        : [this.byFirstWord, first.text];
      const bucket = map.get(key) ?? [];
      bucket.push({ phrase, value });
      map.set(key, bucket);
    }
    // Longest phrases first, so the first match found in a bucket is its most specific one.
    for (const map of [this.byFirstWord, this.byFirstStemCharacter]) {
      for (const bucket of map.values()) bucket.sort((a, b) => b.phrase.length - a.phrase.length);
    }
  }

  private buckets(word: string): PhraseEntry<T>[][] {
    const found: PhraseEntry<T>[][] = [];
    const exact = this.byFirstWord.get(word);
    if (exact) found.push(exact);
    const stems = this.byFirstStemCharacter.get(firstCharacter(word));
    if (stems) found.push(stems);
    return found;
  }

  /** Every phrase that matches at `index`, longest first. */
  matchesAt(words: readonly string[], index: number): PhraseMatch<T>[] {
    const found: PhraseMatch<T>[] = [];
    for (const bucket of this.buckets(words[index]!)) {
      for (const entry of bucket) {
        if (phraseMatchesAt(words, entry.phrase, index)) {
          found.push({ start: index, end: index + entry.phrase.length, value: entry.value });
        }
      }
    }
    return found.length > 1 ? found.sort((a, b) => b.end - a.end) : found;
  }

  /** The longest phrase matching at `index`, or null. */
  longestMatchAt(words: readonly string[], index: number): PhraseMatch<T> | null {
    let best: PhraseMatch<T> | null = null;
    for (const bucket of this.buckets(words[index]!)) {
      for (const entry of bucket) {
        if (best && entry.phrase.length <= best.end - best.start) break;
        if (phraseMatchesAt(words, entry.phrase, index)) {
          best = { start: index, end: index + entry.phrase.length, value: entry.value };
          break;
        }
      }
    }
    return best;
  }
}

function firstCharacter(word: string): string {
  return String.fromCodePoint(word.codePointAt(0) ?? 0);
}

/**
 * Non-overlapping matches over several indexes, scanning left to right and taking the longest phrase at each
 * position: the longer, more specific phrase wins ("don't call me again" over "don't").
 */
export function scanLongest<T>(indexes: readonly PhraseIndex<T>[], words: readonly string[]): PhraseMatch<T>[] {
  const matches: PhraseMatch<T>[] = [];
  let index = 0;
  while (index < words.length) {
    let best: PhraseMatch<T> | null = null;
    for (const phraseIndex of indexes) {
      const match = phraseIndex.longestMatchAt(words, index);
      if (match && (!best || match.end > best.end)) best = match;
    }
    if (best) {
      matches.push(best);
      index = best.end;
    } else {
      index++;
    }
  }
  return matches;
}

/** Whether any phrase of any index occurs anywhere in `words`. */
export function containsAny<T>(indexes: readonly PhraseIndex<T>[], words: readonly string[]): boolean {
  for (let index = 0; index < words.length; index++) {
    if (indexes.some((phraseIndex) => phraseIndex.longestMatchAt(words, index))) return true;
  }
  return false;
}

/**
 * Every match over several indexes, except those lying inside a longer match: "interested" inside "not
 * interested" is dropped, while partly overlapping phrases ("aage se call" / "call mat") both stay, so a
 * cue is not lost to whichever phrase happened to start first.
 */
export function maximalMatches<T>(indexes: readonly PhraseIndex<T>[], words: readonly string[]): PhraseMatch<T>[] {
  const all: PhraseMatch<T>[] = [];
  for (let index = 0; index < words.length; index++) {
    for (const phraseIndex of indexes) all.push(...phraseIndex.matchesAt(words, index));
  }
  return all.filter(
    (match) =>
      !all.some(
        (other) =>
          other.end - other.start > match.end - match.start && other.start <= match.start && other.end >= match.end,
      ),
  );
}
