/**
 * Which lexicons apply to a stretch of text in a call. Chosen per script, not per call: Hinglish arrives in
 * calls tagged hi-IN or en-IN, and Indian callers mix English words into Hindi, Tamil or Telugu sentences.
 *
 * - Latin script: English, plus romanised Hindi (Hinglish) when the call is Hindi or English (or unknown).
 * - Devanagari: Marathi in a Marathi call, Hindi otherwise.
 * - Tamil script: Tamil. Telugu script: Telugu.
 */
import { languageSubtag } from '../language.ts';
import { scriptsOfWords } from './script.ts';

export type LexiconKey = 'en' | 'hi' | 'hi-latn' | 'mr' | 'ta' | 'te';

export const LEXICON_KEYS: readonly LexiconKey[] = ['en', 'hi', 'hi-latn', 'mr', 'ta', 'te'];

const LANGUAGES_SPEAKING_HINGLISH = new Set(['hi', 'en']);
const LANGUAGES_WITH_LEXICONS = new Set(['en', 'hi', 'mr', 'ta', 'te']);

export function lexiconKeysForWords(language: string, words: readonly string[]): LexiconKey[] {
  const subtag = languageSubtag(language);
  const keys = new Set<LexiconKey>();
  for (const script of scriptsOfWords(words)) {
    if (script === 'latin') {
      keys.add('en');
      if (LANGUAGES_SPEAKING_HINGLISH.has(subtag) || !LANGUAGES_WITH_LEXICONS.has(subtag)) keys.add('hi-latn');
    } else if (script === 'devanagari') {
      keys.add(subtag === 'mr' ? 'mr' : 'hi');
    } else if (script === 'tamil') {
      keys.add('ta');
    } else if (script === 'telugu') {
      keys.add('te');
    }
  }
  return [...keys];
}
