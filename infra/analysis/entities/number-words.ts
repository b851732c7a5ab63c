/**
 * Spoken numbers in the five call languages (and romanised Hindi), as the words a recogniser or a typist writes
 * them. Keys are normalised the way `normalizeText` folds words (lower case, nukta dropped, candrabindu as
 * anusvara), so "हज़ार" and "हजार", "पाँच" and "पांच" are one key.
 *
 * A word has one role:
 * - `unit`: a value added to the running number (five, पचास, ఇరవై);
 * - `hundred`: multiplies what came before it within the group (five hundred, पाँच सौ);
 * - `scale`: closes a group (thousand, lakh, crore): (what came before, or 1) × scale;
 * - `group`: a complete group written as one word (Tamil ரெண்டாயிரம் = 2,000, Telugu లక్షన్నర = 1.5 lakh);
 * - `plus_half` / `plus_quarter` / `minus_quarter`: the Hindi and Marathi modifiers साढ़े, सवा, पौने on the next number.
 *
 * Inflected forms (Marathi हजारांपासून, Tamil ஆயிரத்து, Telugu వేలకు) are matched by the stems in PREFIX_STEMS.
 */
import { normalizeText } from '../../../domain/shared/text/normalize.ts';

export type NumberRole = 'unit' | 'hundred' | 'scale' | 'group' | 'plus_half' | 'plus_quarter' | 'minus_quarter';

export interface NumberWord {
  role: NumberRole;
  value: number;
  /** For a `group`: the scale it closes (1,000 for ரெண்டாயிரம்), so "இருபத்து நாலாயிரம்" is (20 + 4) × 1,000. */
  scale?: number;
  /** For a `scale`: "and a half" written onto it (Telugu లక్షన్నర: (1 + ½) lakh, రెండు లక్షన్నర: (2 + ½) lakh). */
  half?: boolean;
}

const units: Record<string, number> = {
  // English
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  // Romanised Hindi
  ek: 1, teen: 3, paanch: 5, panch: 5, chhe: 6, chhah: 6, aath: 8, nau: 9, gyarah: 11, barah: 12, pandrah: 15,
  bees: 20, pachchis: 25, pachis: 25, tees: 30, chalis: 40, pachaas: 50, pachas: 50, dedh: 1.5, dhai: 2.5, dhaai: 2.5,
  // Hindi
  'एक': 1, 'दो': 2, 'तीन': 3, 'चार': 4, 'पाँच': 5, 'छह': 6, 'छः': 6, 'सात': 7, 'आठ': 8, 'नौ': 9, 'दस': 10,
  'ग्यारह': 11, 'बारह': 12, 'तेरह': 13, 'चौदह': 14, 'पंद्रह': 15, 'पन्द्रह': 15, 'सोलह': 16, 'सत्रह': 17, 'अठारह': 18,
  'उन्नीस': 19, 'बीस': 20, 'इक्कीस': 21, 'बाईस': 22, 'तेईस': 23, 'चौबीस': 24, 'पच्चीस': 25, 'छब्बीस': 26,
  'सत्ताईस': 27, 'अट्ठाईस': 28, 'उनतीस': 29, 'तीस': 30, 'बत्तीस': 32, 'पैंतीस': 35, 'चालीस': 40, 'पैंतालीस': 45,
  'पचास': 50, 'पचपन': 55, 'पैंसठ': 65, 'पचहत्तर': 75, 'पचासी': 85, 'निन्यानवे': 99, 'साठ': 60, 'सत्तर': 70, 'अस्सी': 80, 'नब्बे': 90, 'डेढ़': 1.5, 'ढाई': 2.5,
  // Marathi (एक, तीन, चार, सात, आठ, साठ, सत्तर as in Hindi)
  'दोन': 2, 'पाच': 5, 'सहा': 6, 'नऊ': 9, 'दहा': 10, 'अकरा': 11, 'बारा': 12, 'तेरा': 13, 'चौदा': 14, 'पंधरा': 15,
  'सोळा': 16, 'सतरा': 17, 'अठरा': 18, 'एकोणीस': 19, 'वीस': 20, 'पंचवीस': 25, 'चाळीस': 40, 'पन्नास': 50,
  'ऐंशी': 80, 'नव्वद': 90, 'दीड': 1.5, 'अडीच': 2.5, 'एकवीस': 21, 'बावीस': 22, 'तेवीस': 23, 'चोवीस': 24,
  'सव्वीस': 26, 'सत्तावीस': 27, 'अठ्ठावीस': 28, 'एकोणतीस': 29,
  // Marathi hundreds are one word: दोनशे (200), नऊशे (900), अठराशे (1,800).
  'शंभर': 100, 'दोनशे': 200, 'तीनशे': 300, 'चारशे': 400, 'पाचशे': 500, 'सहाशे': 600, 'सातशे': 700, 'आठशे': 800,
  'नऊशे': 900, 'अकराशे': 1_100, 'बाराशे': 1_200, 'पंधराशे': 1_500, 'अठराशे': 1_800,
  // Tamil (written and colloquial forms)
  'ஒன்று': 1, 'ஒண்ணு': 1, 'ஒரு': 1, 'இரண்டு': 2, 'ரெண்டு': 2, 'மூன்று': 3, 'மூணு': 3, 'நான்கு': 4, 'நாலு': 4,
  'ஐந்து': 5, 'அஞ்சு': 5, 'ஆறு': 6, 'ஏழு': 7, 'எட்டு': 8, 'ஒன்பது': 9, 'பத்து': 10, 'பதினைந்து': 15,
  'இருபது': 20, 'முப்பது': 30, 'நாற்பது': 40, 'ஐம்பது': 50, 'அறுபது': 60, 'எழுபது': 70, 'எண்பது': 80,
  'தொண்ணூறு': 90, 'இருபத்து': 20, 'முப்பத்து': 30, 'நாற்பத்து': 40, 'ஐம்பத்து': 50, 'அறுபத்து': 60,
  'எழுபத்து': 70, 'எண்பத்து': 80, 'தொண்ணூற்று': 90, 'ஒன்றரை': 1.5, 'ஒன்னரை': 1.5, 'இரண்டரை': 2.5, 'ரெண்டரை': 2.5,
  'இருநூறு': 200, 'முந்நூறு': 300, 'நானூறு': 400, 'ஐநூறு': 500, 'அறுநூறு': 600, 'எழுநூறு': 700, 'எண்ணூறு': 800,
  'தொள்ளாயிரம்': 900,
  // Telugu
  'ఒకటి': 1, 'ఒక': 1, 'రెండు': 2, 'మూడు': 3, 'నాలుగు': 4, 'ఐదు': 5, 'అయిదు': 5, 'ఆరు': 6, 'ఏడు': 7,
  'ఎనిమిది': 8, 'తొమ్మిది': 9, 'పది': 10, 'పదిహేను': 15, 'ఇరవై': 20, 'ముప్పై': 30, 'నలభై': 40, 'యాభై': 50,
  'అరవై': 60, 'డెబ్బై': 70, 'ఎనభై': 80, 'తొంభై': 90,
};

const hundreds = ['hundred', 'sau', 'सौ', 'நூறு', 'వంద', 'వందలు', 'వందల'];

const scales: Record<string, number> = {
  thousand: 1_000, thousands: 1_000, hazaar: 1_000, hazar: 1_000, hajar: 1_000, k: 1_000,
  lakh: 100_000, lakhs: 100_000, lac: 100_000, lacs: 100_000, crore: 10_000_000, crores: 10_000_000, karod: 10_000_000,
  'हज़ार': 1_000, 'हजार': 1_000, 'लाख': 100_000, 'करोड़': 10_000_000, 'कोटी': 10_000_000,
  'ஆயிரம்': 1_000, 'ஆயிரத்து': 1_000, 'லட்சம்': 100_000, 'லட்சத்து': 100_000, 'லட்ச': 100_000, 'கோடி': 10_000_000,
  'వెయ్యి': 1_000, 'వేయి': 1_000, 'వేలు': 1_000, 'వేల': 1_000, 'లక్ష': 100_000, 'లక్షలు': 100_000, 'లక్షల': 100_000,
  'కోటి': 10_000_000, 'కోట్లు': 10_000_000,
};

/** Tamil writes "n thousand" as one word. */
const groups: Record<string, number> = {
  'ஓராயிரம்': 1_000, 'இரண்டாயிரம்': 2_000, 'ரெண்டாயிரம்': 2_000, 'மூவாயிரம்': 3_000, 'மூணாயிரம்': 3_000,
  'நான்காயிரம்': 4_000, 'நாலாயிரம்': 4_000, 'ஐந்தாயிரம்': 5_000, 'அஞ்சாயிரம்': 5_000, 'ஆறாயிரம்': 6_000,
  'ஏழாயிரம்': 7_000, 'எட்டாயிரம்': 8_000, 'ஒன்பதாயிரம்': 9_000, 'பத்தாயிரம்': 10_000, 'இருபதாயிரம்': 20_000,
  'ஐம்பதாயிரம்': 50_000,
};

const modifiers: Record<string, NumberRole> = {
  'साढ़े': 'plus_half', 'साडे': 'plus_half', saadhe: 'plus_half', sadhe: 'plus_half', saade: 'plus_half',
  'सवा': 'plus_quarter', sava: 'plus_quarter', 'पौने': 'minus_quarter', paune: 'minus_quarter',
};

const lexicon = new Map<string, NumberWord>();
function add(word: string, entry: NumberWord): void {
  lexicon.set(normalizeText(word), entry);
}
for (const [word, value] of Object.entries(units)) add(word, { role: 'unit', value });
for (const word of hundreds) add(word, { role: 'hundred', value: 100 });
for (const [word, value] of Object.entries(scales)) add(word, { role: 'scale', value });
for (const [word, value] of Object.entries(groups)) add(word, { role: 'group', value, scale: 1_000 });
for (const [word, role] of Object.entries(modifiers)) add(word, { role, value: 0 });

/** Stems whose inflected forms keep their number role: हजारांपासून, ஆயிரத்தை, லட்சத்துக்கு, వేలకు. */
const PREFIX_STEMS: ReadonlyArray<[string, NumberWord]> = (
  [
    ['हजार', { role: 'scale', value: 1_000 }],
    ['लाखा', { role: 'scale', value: 100_000 }],
    ['ஆயிர', { role: 'scale', value: 1_000 }],
    ['லட்ச', { role: 'scale', value: 100_000 }],
    ['వేల', { role: 'scale', value: 1_000 }],
    ['లక్ష', { role: 'scale', value: 100_000 }],
  ] as Array<[string, NumberWord]>
).map(([stem, entry]) => [normalizeText(stem), entry]);

// Tamil groups inflect too (பத்தாயிரத்தை): matched by the stem without the final ம்.
const GROUP_STEMS: ReadonlyArray<[string, number]> = Object.entries(groups).map(([group, value]) => [normalizeText(group).slice(0, -2), value]);

const DEVANAGARI_CASE_ENDINGS = ['च्या', 'चा', 'ची', 'चे', 'ला', 'ना', 'ांचा', 'ांची', 'ांचे', 'ांना', 'ाला', 'ाचा', 'ाची', 'ाचे'].map(normalizeText);

// Telugu "and a half", written fused: రెండున్నర (2.5), లక్షన్నర (1.5 lakh).
const TELUGU_HALF = normalizeText('న్నర');

// Every word of a transcript is looked up, most of them not numbers: a bounded memo of this pure function.
const MEMO_LIMIT = 8192;
const memo = new Map<string, NumberWord | null>();

/** The number role of one normalised word, or undefined. Multi-character digits are not words: see entities.ts. */
export function numberWord(word: string): NumberWord | undefined {
  let found = memo.get(word);
  if (found === undefined) {
    found = lookUp(word) ?? null;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, found);
  }
  return found ?? undefined;
}

function lookUp(word: string): NumberWord | undefined {
  const exact = lexicon.get(word);
  if (exact) return exact;
  if (word.endsWith(TELUGU_HALF) && word.length > TELUGU_HALF.length) {
    const stem = word.slice(0, -TELUGU_HALF.length);
    const base = lexicon.get(stem) ?? lexicon.get(`${stem}ు`) ?? lexicon.get(`${stem}ి`);
    if (base?.role === 'unit') return { role: 'unit', value: base.value + 0.5 };
    if (base?.role === 'scale') return { role: 'scale', value: base.value, half: true };
  }
  for (const [stem, entry] of PREFIX_STEMS) if (word.startsWith(stem)) return entry;
  // Marathi and Hindi case endings on a number: चारशेचा, हजारांचे, लाखाला.
  for (const ending of DEVANAGARI_CASE_ENDINGS) {
    if (word.length > ending.length + 1 && word.endsWith(ending)) {
      const stem = lexicon.get(word.slice(0, -ending.length));
      if (stem) return stem;
    }
  }
  for (const [stem, value] of GROUP_STEMS) {
    if (word.startsWith(stem) && word.length <= stem.length + 6) return { role: 'group', value, scale: 1_000 };
  }
  return undefined;
}
