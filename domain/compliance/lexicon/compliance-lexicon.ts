/**
 * The words and phrases post-call compliance rules look for, one lexicon per language key (`hi-latn` is
 * romanised Hindi: Hinglish). Phrases match case-insensitively on word boundaries after normalisation
 * (domain/shared/text/normalize.ts): NFC, zero-width joiners dropped, Devanagari nukta and candrabindu folded. A
 * phrase word ending in `*` matches any word starting with it (inflected forms of Tamil, Telugu, Marathi).
 *
 * Negators are this module's own (not the sentiment lexicons'): compliance needs negative verb forms ("won't come",
 * "வராது", "రారు") and clause-wide negators ("nobody", "no one") that sentiment scoring does without.
 */
export interface ComplianceLexicon {
  /** Threats, intimidation, abuse and humiliation by the agent (RBI recovery conduct). */
  threats: readonly string[];
  /**
   * Exposure threats said in other words than the lists above: a person or place of the borrower's circle ("your
   * kids", "आपके ऑफिस", "உங்க பசங்க") and a telling or visiting verb ("tell", "बता", "சொல்லு") in the same clause.
   */
  exposureTargets: readonly string[];
  exposureActions: readonly string[];
  /** False or misleading claims of police, arrest, FIR, jail, warrants, seizure, "legal action today". */
  falseClaims: readonly string[];
  /** Words that disclose a debt: EMI, overdue, outstanding, instalment... */
  debtTerms: readonly string[];
  /** The agent asks whether they are speaking to the borrower. */
  identityQuestions: readonly string[];
  /** The customer's answer confirms it ("yes", "speaking", "हाँ", "ஆமா"). */
  affirmations: readonly string[];
  /** The answer says someone else picked up ("his wife", "मैं उनका भाई"): the identity is not confirmed. */
  thirdParty: readonly string[];
  /** The agent introduces themself ("my name is", "मेरा नाम"), used when the script's agent name is unknown. */
  selfIntroduction: readonly string[];
  /** The agent names their organisation ("calling from", "की ओर से"), used when the lender's name is unknown. */
  organisationIntroduction: readonly string[];
  /** The agent states why they call ("regarding", "के बारे में", "பற்றி"). */
  purpose: readonly string[];
  /** The agent discloses that the call is recorded. */
  recordingDisclosure: readonly string[];
  /** Promotional content: offers, cashback, pre-approved loans, "apply today". */
  promotional: readonly string[];
  /** Phrases that contain a promotional word but are service talk ("settlement offer"): a match inside one is dropped. */
  notPromotional: readonly string[];
  /** The customer asks not to be called again. */
  optOut: readonly string[];
  /** Opt-outs said in other words: a calling word ("call", "फोन", "கால்") and a stop request ("stop", "बंद करो", "நிறுத்து") in one clause. */
  callWords: readonly string[];
  stopRequests: readonly string[];
  /** Phrases that contain an opt-out but only limit when to call ("don't call me at the office"): a match inside one is dropped. */
  notOptOut: readonly string[];
  /**
   * When to call ("office hours", "after six", "सुबह", "ஆபீஸ் நேரத்துல"): a clause naming one limits the calls ("don't
   * call me during office hours"), so an opt-out phrase in it is not an opt-out. "From now on" is no such time.
   */
  callTimes: readonly string[];
  /** A call-back request ("call me tomorrow", "कल कीजिए"): in the same turn, "don't call" defers the call, not stops it. */
  callBacks: readonly string[];
  /** Negators that precede what they negate ("not", "no"), within `negatorWordsBefore` words. */
  negatorsBefore: readonly string[];
  negatorWordsBefore: number;
  /** Negators that follow what they negate (SOV: "नहीं", "இல்லை", "లేదు"), within `negatorWordsAfter` words. */
  negatorsAfter: readonly string[];
  negatorWordsAfter: number;
  /** Negators whose scope is the rest of the clause ("nobody", "no one", "never"). */
  clauseNegators: readonly string[];
  /** Words that end a negation's reach: the consequence of a condition ("then", "तो", "तर"), "but". */
  scopeBreaks: readonly string[];
  /** "or", "and", "या", "ना": a negation carries over a list ("no police or arrest", "ना पुलिस ना केस"). */
  coordinators: readonly string[];
  /** Words that open a condition ("if", "अगर"): a negator after one belongs to the condition, not to what follows. */
  conditionOpeners: readonly string[];
  /**
   * Words that open a clause of its own after a phrase ("that", "until", "and you", "कि", "जब तक"): a negator after
   * one belongs to that clause ("…मेल जाएगा कि आप पैसे नहीं लौटाते", "sit at your house until the money comes"), not
   * to the phrase before it. A phrase that itself holds one ("जब तक पैसा") is the clause: the "नहीं" of "जब तक पैसा
   * नहीं देते" is the idiom's, not a denial.
   */
  subordinators: readonly string[];
}

export type ComplianceList =
  | 'threats'
  | 'falseClaims'
  | 'debtTerms'
  | 'identityQuestions'
  | 'affirmations'
  | 'thirdParty'
  | 'selfIntroduction'
  | 'organisationIntroduction'
  | 'purpose'
  | 'recordingDisclosure'
  | 'promotional'
  | 'notPromotional'
  | 'optOut'
  | 'notOptOut'
  | 'callTimes'
  | 'callBacks'
  | 'exposureTargets'
  | 'exposureActions'
  | 'callWords'
  | 'stopRequests';
