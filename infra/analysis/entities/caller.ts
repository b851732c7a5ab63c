/**
 * Who called about what, from the agent's opening: the organisation the agent calls from ("calling from Sunrise
 * Finance", "टाटा कैपिटल से बोल रही हूँ", "महिंद्रा फायनान्समधून बोलतेय", "ஸ்ரீராம் ஃபைனான்ஸ்ல இருந்து பேசுறேன்",
 * "యాక్సిస్ బ్యాంక్ నుంచి మాట్లాడుతున్నాను") and the product named first (personal loan, क्रेडिट कार्ड, நகைக் கடன்).
 * Pure functions over the text; the organisation is the words next to the "from" marker of each language, at most
 * four of them, without a leading pronoun or honorific.
 */
import { normalizeText } from '../../../domain/shared/text/normalize.ts';
import { PhraseIndex } from '../phrase-index.ts';

const MAX_NAME_WORDS = 4;
const TAMIL_VOWEL_SIGN_I = '\u0BBF';
const TAMIL_VIRAMA = '\u0BCD';

/** Words that are never part of an organisation's name when they open the words before a "from" marker. */
const NOT_A_NAME = new Set(
  [
    'मैं', 'हम', 'जी', 'सर', 'मैडम', 'नमस्ते', 'नमस्कार', 'आपके', 'आपका', 'मी', 'आम्ही', 'साहेब', 'ताई', 'मॅडम',
    'நான்', 'நாங்க', 'நாங்கள்', 'சார்', 'மேடம்', 'வணக்கம்', 'నేను', 'మేము', 'సార్', 'మేడమ్', 'నమస్కారం', 'ji',
    'main', 'hum', 'sir', 'madam', 'namaste',
  ].map(normalizeText),
);

interface OrganisationPattern {
  /** A word the clause must contain before the pattern is tried (the patterns' lazy groups are not cheap). */
  marker: RegExp;
  /** Group 1: the words before (or after, for English) the marker. */
  pattern: RegExp;
  /** English names follow the marker; Indic names precede it. */
  nameFollows: boolean;
}

const NAME_WORD = String.raw`[A-Z][\p{L}\p{M}&.'-]*`;
const INDIC_WORDS = String.raw`((?:[\p{L}\p{M}\u200C\u200D-]+\s+){0,3}[\p{L}\p{M}\u200C\u200D-]+?)`;

const PATTERNS: readonly OrganisationPattern[] = [
  // English: "calling from Sunrise Finance", "this is Arjun from SafeLife Insurance", "the collections team of Home Credit".
  { marker: /\b(?:from|of)\b/u, pattern: new RegExp(String.raw`\b(?:from|of)\s+((?:${NAME_WORD})(?:\s+${NAME_WORD}){0,3})`, 'u'), nameFollows: true },
  // Hinglish: "main HDFC Bank se bol raha hoon", "Sunrise Finance se Neha bol rahi hoon", "main Reliance General se".
  { marker: /\bse\b/u, pattern: new RegExp(String.raw`((?:${NAME_WORD}\s+){1,4})se\s+(?:\w+\s+)?(?:bol|call|phone|baat)`, 'u'), nameFollows: false },
  { marker: /\bse\b/u, pattern: new RegExp(String.raw`\b(?:main|hum)\s+((?:${NAME_WORD}\s+){0,3}${NAME_WORD})\s+se\b`, 'u'), nameFollows: false },
  // Hindi: "... से बोल रहा हूँ", "... से प्रिया बोल रही हूँ", "... से कॉल कर रहे हैं".
  { marker: /से/u, pattern: new RegExp(`${INDIC_WORDS}\\s+से\\s+(?:[\\p{L}\\p{M}]+\\s+)?(?:बोल|कॉल|फ़ोन|फोन|बात)`, 'u'), nameFollows: false },
  // Hindi without a verb: "एक्सिस बैंक से आपके ... के बारे में": a bank-like word right before से.
  { marker: /से/u, pattern: new RegExp(`((?:[\\p{L}\\p{M}]+\\s+){0,2}(?:बैंक|फ़ाइनेंस|फाइनेंस|कैपिटल|इंश्योरेंस|लाइफ़|लाइफ))\\s+से\\s`, 'u'), nameFollows: false },
  // English without "from": "this is Bharti AXA calling".
  { marker: /\bcalling\b/u, pattern: new RegExp(String.raw`\bthis is\s+((?:${NAME_WORD})(?:\s+${NAME_WORD}){0,3})\s+calling\b`, 'u'), nameFollows: true },
  // Marathi: "...मधून / ...कडून / ...तून बोलतोय" (fused to the name).
  { marker: /मधून|मधुन|कडून|तून/u, pattern: new RegExp(`${INDIC_WORDS}(?:मधून|मधुन|कडून|तून)\\s+(?:[\\p{L}\\p{M}]+\\s+)?(?:बोल|फोन|कॉल)`, 'u'), nameFollows: false },
  // Tamil: "...ல இருந்து / ...லிருந்து / ...இலிருந்து பேசுறேன்".
  { marker: /இருந்து|ிருந்து/u, pattern: new RegExp(`${INDIC_WORDS}(?:\\s*ல\\s+இருந்து|\\s+இருந்து|யிலிருந்து|இலிருந்து|(ி)லிருந்து|லிருந்து)\\s+(?:[\\p{L}\\p{M}]+\\s+)?(?:பேசு|அழை|கால்)`, 'u'), nameFollows: false },
  // Telugu: "... నుంచి / నుండి మాట్లాడుతున్నాను".
  { marker: /నుంచి|నుండి/u, pattern: new RegExp(`${INDIC_WORDS}\\s+(?:నుంచి|నుండి)\\s+(?:[\\p{L}\\p{M}]+\\s+)?(?:మాట్లాడ|కాల్|ఫోన్)`, 'u'), nameFollows: false },
];

// An English "from" is followed by a name only when the words are capitalised; these capitalised words are not names.
// "your loan of Rs 50,000": a currency is not who calls.
const NOT_AN_ENGLISH_NAME = /^(?:The|Your|My|Our|This|That|I|We|Sir|Madam|Ma'am|Mr|Mrs|Ms|Rs\.?|INR|Rupees?)$/;

/** The organisation the agent says they call from, in the words they used, or null. */
export function callingOrganisation(agentText: string): string | null {
  const clauses = agentText.split(/[,;:!?।॥]|\.(?:\s|$)/u);
  for (const clause of clauses) {
    for (const { marker, pattern, nameFollows } of PATTERNS) {
      if (!marker.test(clause)) continue;
      const match = pattern.exec(clause);
      if (!match) continue;
      let words = match[1]!.trim().split(/\s+/u);
      if (nameFollows) {
        while (words.length > 0 && NOT_AN_ENGLISH_NAME.test(words[0]!)) words.shift();
      } else {
        const firstName = words.findLastIndex((word) => NOT_A_NAME.has(normalizeText(word))) + 1;
        words = words.slice(firstName);
      }
      words = words.slice(0, MAX_NAME_WORDS);
      // Tamil fuses "from" onto the name with a vowel sign that replaces the name's final virama:
      // ஃபைனான்ஸிலிருந்து is ஃபைனான்ஸ் + இலிருந்து.
      if (match[2] === TAMIL_VOWEL_SIGN_I && words.length > 0) words[words.length - 1] += TAMIL_VIRAMA;
      if (words.length > 0) return words.join(' ');
    }
  }
  return null;
}

/**
 * Products, most specific first within a script; the text shown is the phrase without its `*`. One list for all
 * languages: a phrase only matches words of its own script.
 */
const PRODUCTS = [
  'personal loan', 'business loan', 'gold loan', 'home loan', 'car loan', 'two-wheeler loan', 'bike loan',
  'tractor loan', 'education loan', 'credit card', 'term plan', 'term insurance', 'health policy', 'health insurance',
  'health plan', 'family floater', 'savings plan', 'child education plan', 'fixed deposit', 'balance transfer',
  'EMI', 'loan', 'policy', 'insurance', 'premium', 'card', 'claim', 'plan', 'account',
  'पर्सनल लोन', 'गोल्ड लोन', 'होम लोन', 'बिज़नेस लोन', 'बाइक लोन', 'कार लोन', 'क्रेडिट कार्ड', 'हेल्थ पॉलिसी',
  'ईएमआई', 'किस्त', 'लोन', 'पॉलिसी', 'बीमा', 'प्रीमियम', 'कार्ड', 'प्लान', 'एफ़डी', 'बकाया', 'क्लेम',
  'सोने तारण कर्ज*', 'व्यवसाय कर्ज*', 'गृहकर्ज*', 'किसान क्रेडिट कार्ड', 'कर्ज*', 'हप्ता', 'हप्ते', 'विमा', 'योजना',
  'நகைக் கடன்', 'வண்டி லோன்', 'ஹெல்த் பிளான்', 'கிரெடிட் கார்டு', 'லோன்', 'கடன்', 'இன்சூரன்ஸ்',
  'பாலிசி', 'பிளான்', 'தவணை', 'பிரீமியம்', 'கார்டு',
  'ట్రాక్టర్ లోన్', 'గోల్డ్ లోన్', 'పర్సనల్ లోన్', 'క్రెడిట్ కార్డ్', 'లోన్', 'రుణం', 'ఇన్సూరెన్స్', 'పాలసీ',
  'ప్లాన్', 'వాయిదా', 'ప్రీమియం', 'కార్డ్',
];

let productIndex: PhraseIndex<string> | undefined;

/** The first product the words name (the most specific phrase at that place), in the lexicon's spelling, or null. */
export function namedProduct(words: readonly string[]): string | null {
  productIndex ??= new PhraseIndex(PRODUCTS.map((phrase) => [phrase, phrase.replace(/\*/g, '')] as const), 'und');
  for (let index = 0; index < words.length; index++) {
    const match = productIndex.longestMatchAt(words, index);
    if (match) return match.value;
  }
  return null;
}

/** Words that precede an honorific without being a name: नमस्ते जी, हाँ जी, வணக்கம் சார். */
const NOT_A_PERSON = new Set(
  [
    'नमस्ते', 'नमस्कार', 'हाँ', 'हां', 'जी', 'अच्छा', 'ठीक', 'नहीं', 'धन्यवाद', 'माफ़', 'हैलो', 'हेलो', 'हॅलो', 'हो', 'बरं',
    'வணக்கம்', 'ஹலோ', 'சரி', 'நன்றி', 'ஆமா', 'ஆமாம்', 'மன்னிக்கணும்', 'நமஸ்காரம்', 'హలో', 'నమస్కారం', 'సరే', 'అవును',
    'namaste', 'haan', 'hello', 'theek', 'accha', 'ok', 'okay', 'आहे', 'करा', 'नाही', 'தான்',
  ].map(normalizeText),
);
// Tamil verbs before சார் end in -ும் (முடியும் சார், இருக்கும் சார்); names do not.
const TAMIL_VERB_ENDING = normalizeText('ும்');

/**
 * `clauseStart`: only as a clause's first words ("முருகன் சார், ...", "पाटील साहेब, ..."): elsewhere a verb or a
 * particle often precedes the honorific ("முடியும் சார்", "आहे साहेब").
 */
const PERSON_PATTERNS: ReadonlyArray<{ pattern: RegExp; clauseStart?: boolean; honorific?: string }> = [
  // "Am I speaking with Mr. Rakesh?", "Mr. Fernandes, this is ...".
  { pattern: /\b((?:Mr|Mrs|Ms|Miss|Dr)\.?\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)/u },
  // Hinglish: "Pooja Sharma ji?".
  { pattern: /\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+ji)\b/u },
  // Hindi: "क्या मेरी बात रमेश जी से", "राजेश जी,".
  { pattern: /([\p{L}\p{M}]+\s+(?:जी|साहब))(?=[\s,?।.!]|$)/u },
  // Marathi: "पाटील साहेब, ...".
  { pattern: /^([\p{L}\p{M}]+\s+साहेब)(?=[\s,?।.!]|$)/u, clauseStart: true },
  // Tamil: "ரமேஷ் சார் தானே?", "முருகன் சார், ...".
  { pattern: /^([\p{L}\p{M}]+\s+(?:சார்|மேடம்))(?=[\s,?.!]|$)/u, clauseStart: true },
  // Telugu: "రమేష్ గారేనా?", "వెంకట్ గారితో": shown as "రమేష్ గారు".
  { pattern: /([\p{L}\p{M}]+)\s+గార(?:ు|ేనా|ా|ితో|ికి)(?=[\s,?.!]|$)/u, honorific: 'గారు' },
];

/**
 * The person the agent asks for or addresses by name in the opening ("Am I speaking with Mr. Rakesh?", "रमेश जी",
 * "ரமேஷ் சார் தானே?", "రమేష్ గారేనా?"), with the honorific, or null. In a wrong-number call this is who was
 * wanted, not who answered: the summary does not name them then.
 */
export function calledPerson(agentText: string): string | null {
  // A full stop after Mr / Mrs / Ms / Dr does not end the clause.
  for (const clause of agentText.split(/[,;:!?।॥]|(?<!\b(?:Mr|Mrs|Ms|Dr))\.(?:\s|$)/u)) {
    for (const { pattern, honorific, clauseStart } of PERSON_PATTERNS) {
      const match = pattern.exec(clauseStart ? clause.trim() : clause);
      if (!match) continue;
      const name = match[1]!.trim();
      const first = normalizeText(name.split(/\s+/u)[0]!);
      if (NOT_A_PERSON.has(first) || NOT_A_NAME.has(first) || first.endsWith(TAMIL_VERB_ENDING)) continue;
      // "Mr Rakesh", without the full stop: a sentence splitter would end the summary's sentence at "Mr.".
      return honorific ? `${name} ${honorific}` : name.replace(/^(Mr|Mrs|Ms|Dr)\./u, '$1');
    }
  }
  return null;
}
