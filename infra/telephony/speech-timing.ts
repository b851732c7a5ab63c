/**
 * How long speech lasts when no audio was synthesised (the sandbox with recording off): estimated from the
 * number of letters, per language. Rates were fitted (least squares) on the offline voices we synthesise with
 * (Festival's HTS voice for English, espeak-ng for hi/ta/te/mr, agent and customer voices) over the sample
 * replies and example prompts: root-mean-square error 0.2-0.3 s, worst case 0.7 s per utterance. Combining marks
 * (Indic vowel signs, viramas) are not letters here, so an akshara counts about once; a digit counts as two
 * letters, since "5000" is read out as words (about right for English and Hindi numbers).
 */
const LETTERS_PER_SECOND: Record<string, number> = { en: 13.8, hi: 7.3, mr: 8.6, ta: 10.4, te: 6.8 };
const DEFAULT_LETTERS_PER_SECOND = 9;
const LETTERS_PER_DIGIT = 2;
/** Lead-in and trailing silence of a synthesised clip. */
const CLIP_OVERHEAD_SECONDS = 0.5;

const NON_LETTER = /[^\p{L}]/gu;
const NON_DIGIT = /[^\p{N}]/gu;
const cache = new Map<string, number>();
const CACHE_LIMIT = 10_000;

export function estimateSpeechSeconds(text: string, language: string): number {
  const key = `${language}\u0000${text}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const letters = text.replace(NON_LETTER, '').length + LETTERS_PER_DIGIT * text.replace(NON_DIGIT, '').length;
  const rate = LETTERS_PER_SECOND[language.slice(0, 2)] ?? DEFAULT_LETTERS_PER_SECOND;
  const seconds = letters === 0 ? 0 : Math.round((CLIP_OVERHEAD_SECONDS + letters / rate) * 100) / 100;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, seconds);
  return seconds;
}

export function clipSeconds(clip: { pcm: Int16Array; sampleRate: number }): number {
  return clip.pcm.length / clip.sampleRate;
}
