/**
 * Sentences a calling script says on every call (greeting, identity check, self-introduction, recording notice,
 * closing) and the customer's pleasantries ("Yes, speaking.", "Thank you, bye."): never summary content.
 *
 * Detection is structural, per language, from phrase lists (no workspace statistics and no campaign script: the
 * analysis pipeline receives neither):
 * - a recording notice or a self-introduction ("this is Priya from ...", "... से बोल रहा हूँ") is boilerplate
 *   whatever else the sentence says (its facts, the organisation, are read separately by entities/caller.ts);
 * - a greeting, closing, thanks or acknowledgement is boilerplate when at most MAX_OTHER_WORDS other content words
 *   are left once the phrase and function words are taken out ("Thank you, our team will call you shortly.").
 */
import { lexiconKeysForWords } from '../../domain/shared/text/lexicon-selection.ts';
import { normalizeText } from '../../domain/shared/text/normalize.ts';
import { stopwords } from './lexicon/stopwords.ts';
import { PhraseIndex } from './phrase-index.ts';

const MAX_OTHER_WORDS = 1;

/** Boilerplate whatever the rest of the sentence says. */
const ALWAYS = [
  // Recording notices.
  'call is recorded', 'call is being recorded', 'call may be recorded', 'call will be recorded', 'recorded for quality',
  'recorded for training', 'this call is monitored',
  'call record ho rahi', 'call record kiya ja raha', 'recording ho rahi',
  'कॉल रिकॉर्ड*', 'रिकॉर्ड की जा रही', 'रिकॉर्ड हो रही', 'रिकॉर्ड किया जा रहा', 'रेकॉर्ड केला जात*', 'रेकॉर्ड होत*',
  'रेकॉर्ड केली जात*', 'பதிவு செய்யப்படு*', 'ரெக்கார்ட் செய்யப்படு*', 'రికార్డ్ చేయబడు*', 'రికార్డు చేయబడు*', 'రికార్డ్ అవుతోంది',
  // Identity checks.
  'am i speaking with', 'am i speaking to', 'is this mr', 'is this mrs', 'is this ms', 'kya meri baat',
  'क्या मेरी बात', 'बात हो रही है क्या', 'माझं बोलणं', 'बोलत आहे का', 'பேசுறது*', 'பேசுவது*', 'మాట్లాడుతున్నది*',
];

/** Boilerplate when little else is said. */
const SHORT = [
  'good morning', 'good afternoon', 'good evening', 'hello', 'hi', 'namaste', 'namaskar',
  'thank you', 'thanks', 'thank you for your time', 'have a nice day', 'have a good day', 'bye', 'goodbye', 'take care',
  'our team will call you', 'our team will contact you', 'we will call you', 'someone will call you', 'shortly', 'speaking',
  'yes', 'okay', 'ok', 'sure', 'fine', 'alright', 'haan', 'ji', 'theek hai', 'accha', 'dhanyavad', 'shukriya',
  'नमस्ते', 'नमस्कार', 'धन्यवाद', 'शुक्रिया', 'जी', 'हाँ', 'हां', 'ठीक है', 'अच्छा', 'बताइए', 'बोलिए', 'आपका दिन शुभ हो',
  'हो', 'बरं', 'ठीक आहे', 'सांगा', 'बोला', 'आभारी',
  'வணக்கம்', 'நன்றி', 'சரி', 'ஆமா', 'ஆமாம்', 'சொல்லுங்க', 'ஓகே',
  'నమస్కారం', 'ధన్యవాదాలు', 'థాంక్స్', 'సరే', 'అవును', 'చెప్పండి', 'ఓకే',
];

/** Self-introductions: "this is Priya from", "calling from", "मैं ... से बोल रहा हूँ", "...मधून बोलतोय". */
const INTRODUCTION = [
  /\b(?:this is|i am|i'm|my name is)\s+[\p{L}\p{M}.' ]{1,40}\s+(?:from|calling from|with)\b/iu,
  /\bcalling (?:you )?from\b/iu,
  /\b(?:main|hum)\s+[\p{L}\p{M} ]{1,40}\s+se\s+(?:\p{L}+\s+)?bol\s+rah/iu,
  /से\s+(?:[\p{L}\p{M}]+\s+)?बोल\s+रह/u,
  /(?:मधून|कडून|तून)\s+(?:[\p{L}\p{M}]+\s+)?बोलत/u,
  /(?:இருந்து|ிருந்து)\s+(?:[\p{L}\p{M}]+\s+)?(?:பேசு|அழைக்கி)/u,
  /(?:నుంచి|నుండి)\s+(?:[\p{L}\p{M}]+\s+)?మాట్లాడుతున్నా/u,
];

let always: PhraseIndex<true> | undefined;
let short: PhraseIndex<true> | undefined;

const stopwordSets = new Map<string, Set<string>>();
function isStopword(word: string, key: keyof typeof stopwords): boolean {
  let set = stopwordSets.get(key);
  if (!set) {
    set = new Set(stopwords[key].map(normalizeText));
    stopwordSets.set(key, set);
  }
  return set.has(word);
}

/**
 * Whether a sentence is script boilerplate or a pleasantry. `words` are its normalised words
 * (domain/shared/text/normalize.ts `tokenize`).
 */
export function isBoilerplate(text: string, words: readonly string[], language: string): boolean {
  if (words.length === 0) return true;
  always ??= new PhraseIndex(ALWAYS.map((phrase) => [phrase, true] as const), 'und');
  short ??= new PhraseIndex(SHORT.map((phrase) => [phrase, true] as const), 'und');
  if (INTRODUCTION.some((pattern) => pattern.test(text))) return true;
  const covered = new Array<boolean>(words.length).fill(false);
  for (let index = 0; index < words.length; index++) {
    if (always.longestMatchAt(words, index)) return true;
    const match = short.longestMatchAt(words, index);
    if (match) for (let at = match.start; at < match.end; at++) covered[at] = true;
  }
  if (!covered.some(Boolean)) return false;
  const keys = lexiconKeysForWords(language, words);
  const others = words.filter((word, index) => !covered[index] && !keys.some((key) => isStopword(word, key)));
  return others.length <= MAX_OTHER_WORDS;
}
