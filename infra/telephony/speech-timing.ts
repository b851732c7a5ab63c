/**
 * How long speech lasts when no audio was synthesised (the sandbox with recording off): estimated from the
 * number of letters, per language. Rates were fitted on the offline voices we synthesise with (Festival's HTS
 * voice for English, espeak-ng for hi/ta/te/mr, both roles), so a call's estimated timings and the timings of
 * the same call recorded differ by well under a second per utterance. Combining marks (Indic vowel signs) are
 * not letters here: an akshara counts once.
 */
const LETTERS_PER_SECOND: Record<string, number> = { en: 14, hi: 9.5, mr: 9.5, ta: 7.5, te: 6.8 };
const DEFAULT_LETTERS_PER_SECOND = 9;
/** Lead-in and trailing silence of a synthesised clip. */
const CLIP_OVERHEAD_SECONDS = 0.4;

const NON_LETTER = /[^\p{L}\p{N}]/gu;
const cache = new Map<string, number>();
const CACHE_LIMIT = 10_000;

export function estimateSpeechSeconds(text: string, language: string): number {
  const key = `${language}\u0000${text}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const letters = text.replace(NON_LETTER, '').length;
  const rate = LETTERS_PER_SECOND[language.slice(0, 2)] ?? DEFAULT_LETTERS_PER_SECOND;
  const seconds = letters === 0 ? 0 : Math.round((CLIP_OVERHEAD_SECONDS + letters / rate) * 100) / 100;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, seconds);
  return seconds;
}

export function clipSeconds(clip: { pcm: Int16Array; sampleRate: number }): number {
  return clip.pcm.length / clip.sampleRate;
}
