/**
 * A spelling key for romanised Hindi (Hinglish). Transcripts and typists spell the same spoken word many ways:
 * "pakad" / "pakadh" / "pakkad", "jayenge" / "jaenge" / "jaayenge", "nahi" / "nahin", "toh" / "to", "zyada" /
 * "jyada", "dhamki" / "dhamaki" stays apart but "dhamkee" / "dhamki" meet. Both the Hinglish lexicon's phrases and
 * the transcript's Latin words are read through this key, one word to one key (word positions stay aligned), so
 * one spelling in the list covers the common variants.
 *
 * The folds, in order: "ph" → f; aspirated consonants lose their h (bh, dh, gh, jh, kh, th → b, d, g, j, k, t;
 * "chh" → ch); w → v, z → j, q → k; long vowels written double fold to the short letter with ee → i and oo → u;
 * any doubled letter is one; y between vowels is dropped ("jayenge" = "jaenge"); a final nasal n after a vowel and
 * a final h are dropped ("nahin" = "nahi", "yeh" = "ye"). Only words of Latin letters are folded.
 */
const LATIN_WORD = /^[a-z]+$/;

export function romanisedHindiKey(word: string): string {
  if (!LATIN_WORD.test(word)) return word;
  let key = word
    .replace(/ph/g, 'f')
    .replace(/chh/g, 'ch')
    .replace(/([bdgjkt])h/g, '$1')
    .replace(/w/g, 'v')
    .replace(/z/g, 'j')
    .replace(/q/g, 'k')
    .replace(/ee/g, 'i')
    .replace(/oo/g, 'u')
    .replace(/(.)\1+/g, '$1')
    .replace(/([aeiou])y(?=[aeiou])/g, '$1');
  if (key.length > 3) key = key.replace(/([aeiou])n$/, '$1');
  if (key.length > 2) key = key.replace(/([aeiou])h$/, '$1');
  return key;
}
