/**
 * Concept classes: what a violation is made of, rather than how one sentence says it. A false claim of arrest is an
 * actor of the law ({police, thana, पुलिस, காவல், పోలీసు}) or a capture ({pick you up, उठा ले जाएंगे, தூக்கிட்டு
 * போவ}) aimed at the borrower ({you, आपको, உங்கள, మిమ్మల్ని}); a threat to visit is the borrower's place ({your
 * door, आपकी दुकान, உங்க கடை}) and an arrival ({stand, पहुँचेंगे, வருவாங்க}). Each language lists the words of each
 * class (with `stem*` for inflections and `(a|b)` for alternatives); the patterns below, one list per rule family,
 * are the same for every language. A pattern matches when each of its concepts occurs, not negated, in one clause
 * scope, in any order (domain/compliance/phrase-finder.ts, `findPattern`).
 *
 * These add to the phrase lists of domain/compliance/lexicon/<language>.ts; they do not replace them.
 */
export type Concept =
  // threats, intimidation, humiliation
  | 'yourPlace'
  | 'arrival'
  | 'yourCircle'
  | 'disclosure'
  | 'ourMen'
  | 'violence'
  | 'bodyPart'
  | 'harm'
  | 'publicShaming'
  | 'audience'
  | 'institution'
  | 'witness'
  | 'lateHours'
  | 'relentless'
  | 'vermin'
  | 'likeA'
  | 'insult'
  | 'jobLoss'
  // false or misleading claims
  | 'lawOfficer'
  | 'arrest'
  | 'capture'
  | 'youObject'
  | 'prison'
  | 'sentence'
  | 'judiciary'
  | 'courtOrder'
  | 'summons'
  | 'documents'
  | 'cancel'
  | 'nowhere'
  | 'denied'
  | 'againstYou'
  | 'caseWord'
  | 'crimeCharge'
  | 'register'
  | 'creditRecord'
  | 'permanentDamage'
  | 'assets'
  | 'freeze'
  | 'legalAction'
  | 'deadline'
  | 'authority'
  // promotional content
  | 'product'
  | 'pitch'
  | 'perk';

/** Concepts that must all occur in one clause scope. */
export type ConceptPattern = readonly Concept[];
// A negator inside another part of the same pattern negates nothing: in ['nowhere', 'denied'] the "नहीं" of
// "नहीं मिलेगा" is the claim itself, not a denial of "कहीं भी".

/** One language's words for each concept; a concept a language does not list never matches there. */
export type ConceptLexicon = Readonly<Partial<Record<Concept, readonly string[]>>>;

/** Threats, intimidation, abuse and humiliation (RBI recovery conduct). */
export const THREAT_PATTERNS: readonly ConceptPattern[] = [
  ['yourPlace', 'arrival'], // "our team will be standing at your doorstep", "आपकी दुकान पर पहुँचेंगे"
  ['ourMen', 'yourPlace'], // "हमारे लड़के तुम्हारे घर", "our boys … your office"
  ['yourCircle', 'disclosure'], // "email your HR", "आपके ससुर जी को बताऊँगा", "உங்க மாமனாருக்கு … சொல்றேன்"
  ['ourMen', 'violence'], // "send someone who will handle this physically"
  ['bodyPart', 'harm'], // "हाथ-पैर सीधे कर देंगे", "கை கால நேராக்கிடுவாங்க"
  ['publicShaming'], // "in front of your customers", "ग्राहकों के सामने"
  ['yourCircle', 'institution'], // "your son's college … the principal", "आपके बेटे के कॉलेज"
  ['audience', 'witness'], // "half the market will see", "पूरे बाज़ार के सामने", "மார்க்கெட் முழுக்க பாக்குற மாதிரி"
  ['lateHours', 'relentless'], // "calls at eleven at night, every day, until you pay"
  ['vermin', 'likeA'], // "hide like rats", "चूहों की तरह", "எலி மாதிரி"
  ['insult'],
  ['jobLoss'], // "I will make sure you lose your job", "नौकरी चली जाएगी" (future forms: the customer's past is not it)
];

/** False or misleading claims: police, arrest, jail, courts, criminal cases, credit ruin, seizure, "legal action today". */
export const FALSE_CLAIM_PATTERNS: readonly ConceptPattern[] = [
  ['lawOfficer'], // "constables", "थानेदार", "ஏட்டு", "కానిస్టేబుల్"
  ['arrest'],
  ['capture', 'youObject'], // "आपको पकड़ के ले जाएंगे", "உங்கள தூக்கிட்டு போவாரு"
  ['prison'], // "behind bars", "सलाखों के पीछे", "கம்பி எண்ண"
  ['sentence'], // "three years imprisonment", "तीन साल की सज़ा"
  ['judiciary'], // "the judge", "न्यायाधीश", "நீதிபதி"
  ['courtOrder', 'againstYou'], // "an order against you"
  ['summons', 'youObject'], // "they will summon you", "आपको तलब करेंगे"
  ['documents', 'cancel'], // "your passport will be cancelled", "पासपोर्ट रद्द हो जाएगा"
  ['nowhere', 'denied'], // "no bank anywhere will give you a loan", "कहीं भी लोन नहीं मिलेगा"
  ['caseWord', 'crimeCharge'], // "a cheating case", "धोखाधड़ी का मुकदमा"
  ['caseWord', 'register', 'againstYou'], // "file a case against you", "आप पर केस दर्ज"
  ['creditRecord', 'permanentDamage'], // "CIBIL destroyed forever", "सिबिल हमेशा के लिए खराब"
  ['assets', 'freeze'], // "accounts frozen", "तनख्वाह रोकी जाएगी"
  ['legalAction', 'deadline'], // "legal proceedings by this evening", "आज ही कानूनी कार्रवाई"
  // An authority said to act on the borrower's debt: a lender's agent speaking for the RBI, the government or the tax
  // department is impersonation, whatever the action ("RBI … all frozen", "सरकार केस करेगी").
  ['authority', 'freeze'],
  ['authority', 'caseWord'],
  ['authority', 'legalAction'],
  ['authority', 'cancel'],
];

/** Promotional content: a product pitched, or a perk offered. */
export const PROMOTION_PATTERNS: readonly ConceptPattern[] = [
  ['product', 'pitch'], // "a top-up loan … shall I process it?", "म्यूचुअल फंड … सुनना चाहेंगे"
  ['perk'], // "no annual fee", "lifetime free"
];
