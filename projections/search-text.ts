/**
 * The text rules of transcript search, shared by the index (projections/transcript-search.ts) and the queries, so a
 * query is normalised exactly like the segments it must find.
 *
 * Normalisation: Unicode NFC, lower case, and without the characters people type inconsistently: zero-width
 * space/joiner/non-joiner, word joiner, BOM, and the nukta of every Indic script that has one: Devanagari U+093C
 * (NFC already splits the precomposed nukta letters such as क़ U+0958 into क + U+093C, so "क़र्ज़" and "कर्ज" are
 * the same word to search), Telugu U+0C3C, and Bengali, Gurmukhi, Gujarati, Oriya and Kannada (U+09BC, U+0A3C,
 * U+0ABC, U+0B3C, U+0CBC) for names and loan words in those scripts. Tamil has no nukta character (it writes
 * borrowed sounds with the aytham ஃ, a letter people do type), so nothing Tamil is dropped. U+0001 is the index's
 * end-of-text mark (below), never text.
 */
const IGNORED_CHARACTERS = /[\u0001\u200B\u200C\u200D\u2060\uFEFF\u093C\u09BC\u0A3C\u0ABC\u0B3C\u0C3C\u0CBC]/g;

export function normaliseForSearch(text: string): string {
  return text.normalize('NFC').replace(IGNORED_CHARACTERS, '').toLowerCase();
}

/**
 * Closes every indexed text (twice), so that every character of the text, the last one too, starts a trigram:
 * a word of one or two characters is then found as the prefix of indexed trigrams (transcript-search-queries.ts).
 * Normalisation removes it from texts and queries, so it never matches anything typed.
 */
const END_OF_TEXT = '\u0001';

/** What the trigram index holds for a normalised text: the text, then END_OF_TEXT twice. */
export function indexedText(normalised: string): string {
  return normalised + END_OF_TEXT + END_OF_TEXT;
}

/**
 * Words of at least this many code points are one FTS5 phrase of their trigrams; shorter ones are looked up as the
 * prefix of the indexed trigrams (END_OF_TEXT above).
 */
export const INDEXED_WORD_LENGTH = 3;

export function codePointLength(word: string): number {
  let length = 0;
  for (const _ of word) length++;
  return length;
}

/**
 * The words of a query, normalised, in order: split on white space only, so punctuation and FTS5 syntax
 * (`"`, `*`, `-`, `:`, `NEAR(`, parentheses) are literal characters of a word, never operators.
 */
export function searchWords(query: string): string[] {
  return normaliseForSearch(query)
    .split(/\s+/u)
    .filter((word) => word !== '');
}

/** An FTS5 string literal: the only FTS5 syntax a user's word ever reaches the engine through. */
export function ftsPhrase(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * The original text with every occurrence of every word wrapped in `**...**`. Matching runs on the normalised text;
 * the markers are placed on the original one, widened to whole graphemes (a highlight never splits a Devanagari
 * consonant from its vowel sign). Markdown characters of the original (`\`, `*`, `_`) are escaped with `\`, so a
 * customer who says "**" cannot forge a highlight.
 */
export function highlightWords(original: string, words: readonly string[]): string {
  const clusters = Array.from(graphemes.segment(original), (part) => part.segment);
  let normalised = '';
  const clusterOf: number[] = [];
  clusters.forEach((cluster, index) => {
    const folded = normaliseForSearch(cluster);
    normalised += folded;
    for (let unit = 0; unit < folded.length; unit++) clusterOf.push(index);
  });
  const marked = new Array<boolean>(clusters.length).fill(false);
  for (const word of words) {
    if (word === '') continue;
    for (let at = normalised.indexOf(word); at !== -1; at = normalised.indexOf(word, at + 1)) {
      for (let cluster = clusterOf[at]!; cluster <= clusterOf[at + word.length - 1]!; cluster++) marked[cluster] = true;
    }
  }
  let result = '';
  clusters.forEach((cluster, index) => {
    if (marked[index] && !marked[index - 1]) result += '**';
    result += cluster.replace(/[\\*_]/g, (character) => `\\${character}`);
    if (marked[index] && !marked[index + 1]) result += '**';
  });
  return result;
}
