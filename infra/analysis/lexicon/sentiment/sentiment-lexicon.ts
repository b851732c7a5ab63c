/**
 * The shape of one language's sentiment lexicon. Entries are written the way people spell them; they are
 * normalised (see normalize.ts) when the lexicon is compiled, so "don't" and "dont", "ज़रूर" and "जरूर" agree.
 */
export interface SentimentLexicon {
  /**
   * Word or phrase -> valence in [-3, 3]. Multi-word phrases win over their words (longest match first), so a
   * phrase with valence 0 neutralises words inside it ("no thanks", "wrong number", "koi baat nahi"). A word
   * ending in `*` matches every word starting with it (for inflected Tamil, Telugu and Marathi forms).
   */
  valences: Record<string, number>;
  /** Negators that stand before the word they negate (English "not very good"; Hindi "नहीं अच्छा लगा"). */
  negatorsBefore: string[];
  /** How many words before the sentiment word such a negator may stand. */
  negatorWordsBefore: number;
  /** Negators that follow the word they negate: Indic languages are SOV ("अच्छा नहीं", "நல்லா இல்லை"). */
  negatorsAfter: string[];
  /** How many words after the sentiment word such a negator may stand. */
  negatorWordsAfter: number;
  /** Word -> multiplier for the next sentiment word within two words ("very", "बहुत", "ரொம்ப"; "थोड़ा" < 1). */
  intensifiers: Record<string, number>;
  /** "But" words: what follows them counts more than what precedes them. */
  contrastWords: string[];
  /**
   * Agreements that, said twice in a row, dismiss rather than agree ("haan haan", "हाँ हाँ ठीक है",
   * "yeah yeah", "ஆமா ஆமா", "సరే సరే"): a repeated one is negative and makes the praise after it sarcastic.
   */
  flatAgreements: string[];
  /**
   * Past-tense markers of a state: right after the word in Indic languages ("परेशान था", "वैतागलो होतो"), right
   * before it in English ("I was upset"). A past worry in a turn that also says something pleasant is resolved
   * ("चलो अच्छा हुआ, मैं परेशान था कि पहुँची या नहीं"): it counts nothing.
   */
  pastMarkers: string[];
}
