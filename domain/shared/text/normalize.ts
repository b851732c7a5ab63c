/**
 * Text normalisation and phrase matching shared by every analysis module (sentiment, intent, QA, reply
 * classification). A phrase matches "case-insensitively on word boundaries after normalisation": both the text
 * and the phrase go through `normalizeText`, are split into words with Intl.Segmenter (which handles Devanagari,
 * Tamil and Telugu), and the phrase's words must appear as consecutive words of the text.
 *
 * A phrase word ending in `*` matches any word that starts with it (`கோப*` matches கோபம், கோபமா, கோபத்தில்),
 * which lexicons use for the inflected forms of Tamil, Telugu and Marathi. A phrase word starting with `*` matches
 * any word that ends with it (`*बद्दल` matches मुदतीबद्दल): postpositions written fused to their noun.
 */
import { languageSubtag } from '../language.ts';


// Zero-width space, ZWNJ, ZWJ, word joiner and BOM: invisible, and typed inconsistently in Telugu and Marathi.
const INVISIBLE_JOINERS = /[\u200B-\u200D\u2060\uFEFF]/g;
// Devanagari nukta: फ़ोन and फोन, ज़रूर and जरूर are the same word to a speaker; ASR and typists disagree.
const DEVANAGARI_NUKTA = /\u093C/g;
// Devanagari candrabindu is written as anusvara just as often (हाँ / हां).
const DEVANAGARI_CANDRABINDU = /\u0901/g;
// An apostrophe between letters is dropped, so "don't", "don’t" and "dont" agree.
const INNER_APOSTROPHE = /(?<=[\p{L}\p{M}])['’‘`](?=\p{L})/gu;
// Anything else that is not a letter, combining mark or digit separates words (incl. danda । and ॥).
const NON_WORD_CHARACTERS = /[^\p{L}\p{M}\p{N}]+/gu;
const NON_WORD_CHARACTERS_KEEPING_STAR = /[^\p{L}\p{M}\p{N}*]+/gu;

function foldCharacters(text: string): string {
  return text
    .normalize('NFC')
    .replace(INVISIBLE_JOINERS, '')
    .replace(DEVANAGARI_NUKTA, '')
    .replace(DEVANAGARI_CANDRABINDU, '\u0902')
    .toLowerCase()
    .replace(INNER_APOSTROPHE, '');
}

/** NFC, lower case, Devanagari spelling variants folded, punctuation replaced by single spaces. */
export function normalizeText(text: string): string {
  return foldCharacters(text).replace(NON_WORD_CHARACTERS, ' ').trim();
}

const wordSegmenters = new Map<string, Intl.Segmenter>();

function wordSegmenter(language: string): Intl.Segmenter {
  const subtag = languageSubtag(language) || 'en';
  let segmenter = wordSegmenters.get(subtag);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(subtag, { granularity: 'word' });
    wordSegmenters.set(subtag, segmenter);
  }
  return segmenter;
}

function segmentWords(normalized: string, language: string): string[] {
  const words: string[] = [];
  for (const part of wordSegmenter(language).segment(normalized)) {
    if (part.isWordLike) words.push(part.segment);
  }
  return words;
}

// Sentiment, intent, summary and QA each split the same segments: a bounded memo of this pure function
// roughly halves the analyzer's time per transcript.
const TOKEN_MEMO_LIMIT = 8192;
const tokenMemo = new Map<string, string[]>();

/** The normalised words of a text. */
export function tokenize(text: string, language: string): string[] {
  const key = `${languageSubtag(language)}\u0000${text}`;
  let words = tokenMemo.get(key);
  if (!words) {
    words = segmentWords(normalizeText(text), language);
    if (tokenMemo.size >= TOKEN_MEMO_LIMIT) tokenMemo.clear();
    tokenMemo.set(key, words);
  }
  return words.slice();
}

// Clause breaks for negation scope: a negator never reaches across a comma, full stop, danda or question mark.
const CLAUSE_BREAK = /[.,!?;:।॥\n]+/u;

/** The normalised words of each clause of a text (empty clauses dropped). */
export function tokenizeClauses(text: string, language: string): string[][] {
  return text
    .split(CLAUSE_BREAK)
    .map((clause) => tokenize(clause, language))
    .filter((words) => words.length > 0);
}

export interface PhraseWord {
  text: string;
  /** True when the phrase word ended in `*`: matches any word starting with `text`. */
  prefix: boolean;
  /** True when the phrase word started with `*`: matches any word ending with `text` (both: any word containing it). */
  suffix?: boolean;
}

/** A phrase ready for matching: its normalised words. Empty when the phrase has no word characters. */
export type CompiledPhrase = readonly PhraseWord[];

// A stem written with a final virama (கோபம்*, ...ல்*) must still match the inflected forms, where the virama
// gives way to a vowel sign (கோபமா): the virama is dropped from prefix stems.
const FINAL_VIRAMA = /[\u094D\u0BCD\u0C4D]$/u;

export function compilePhrase(phrase: string, language: string): CompiledPhrase {
  const parts = foldCharacters(phrase).replace(NON_WORD_CHARACTERS_KEEPING_STAR, ' ').trim().split(' ');
  const words: PhraseWord[] = [];
  for (const part of parts) {
    const prefix = part.endsWith('*');
    const suffix = part.startsWith('*') && part.length > 1;
    const bare = part.replace(/\*/g, '');
    if (!bare) continue;
    // A phrase word may itself split into several words (rare: scripts without spaces); only the last keeps `*`.
    const pieces = segmentWords(bare, language);
    pieces.forEach((piece, index) => {
      const isPrefix = prefix && index === pieces.length - 1;
      const isSuffix = suffix && index === 0;
      const text = isPrefix ? piece.replace(FINAL_VIRAMA, '') : piece;
      words.push(isSuffix ? { text, prefix: isPrefix, suffix: true } : { text, prefix: isPrefix });
    });
  }
  return words;
}

function wordMatches(word: string, pattern: PhraseWord): boolean {
  if (pattern.suffix) return pattern.prefix ? word.includes(pattern.text) : word.endsWith(pattern.text);
  return pattern.prefix ? word.startsWith(pattern.text) : word === pattern.text;
}

/** Whether `phrase` occurs in `words` starting exactly at `index`. */
export function phraseMatchesAt(words: readonly string[], phrase: CompiledPhrase, index: number): boolean {
  if (phrase.length === 0 || index + phrase.length > words.length) return false;
  for (let offset = 0; offset < phrase.length; offset++) {
    if (!wordMatches(words[index + offset]!, phrase[offset]!)) return false;
  }
  return true;
}

/** The first index at which `phrase` occurs in `words`, or -1. */
export function findPhrase(words: readonly string[], phrase: CompiledPhrase): number {
  for (let index = 0; index + phrase.length <= words.length; index++) {
    if (phraseMatchesAt(words, phrase, index)) return index;
  }
  return -1;
}

/** Case-insensitive, word-boundary phrase match after normalisation. A phrase with no words never matches. */
export function containsPhrase(text: string, phrase: string, language: string): boolean {
  const compiled = compilePhrase(phrase, language);
  return compiled.length > 0 && findPhrase(tokenize(text, language), compiled) >= 0;
}
