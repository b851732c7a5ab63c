/**
 * Which writing system a word is in. Hinglish (romanised Hindi) arrives in calls tagged hi-IN or en-IN, and
 * Indian calls mix English words into Indic sentences, so lexicons are chosen per script, not per call.
 */
export type Script = 'latin' | 'devanagari' | 'tamil' | 'telugu' | 'other';

const LATIN = /\p{Script=Latin}/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const TAMIL = /\p{Script=Tamil}/u;
const TELUGU = /\p{Script=Telugu}/u;

/** The script of a word: the script of its first letter (digits and marks alone count as `other`). */
export function scriptOfWord(word: string): Script {
  for (const character of word) {
    if (LATIN.test(character)) return 'latin';
    if (DEVANAGARI.test(character)) return 'devanagari';
    if (TAMIL.test(character)) return 'tamil';
    if (TELUGU.test(character)) return 'telugu';
  }
  return 'other';
}

/** The scripts that occur among a list of words, in first-seen order. */
export function scriptsOfWords(words: readonly string[]): Script[] {
  const seen = new Set<Script>();
  for (const word of words) {
    const script = scriptOfWord(word);
    if (script !== 'other') seen.add(script);
  }
  return [...seen];
}
