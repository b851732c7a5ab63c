/**
 * Negation scope: does a negator stand close enough before or after a matched phrase? English negators precede
 * ("not good"); Indic ones follow (SOV: "अच्छा नहीं", "நல்லா இல்லை", "బాగుంది కాదు"). Which words negate is the
 * caller's lexicon (sentiment and intent in the analysis, compliance rules in the domain).
 */
export interface NegationRule {
  before: ReadonlySet<string>;
  wordsBefore: number;
  after: ReadonlySet<string>;
  wordsAfter: number;
}

/**
 * Whether the phrase at words[start, end) is negated under any of `rulesInForce`. Words in `ignored` (parts of
 * other matched phrases, such as the नहीं inside "कोई बात नहीं") never act as negators.
 */
export function isNegated(
  words: readonly string[],
  start: number,
  end: number,
  rulesInForce: readonly NegationRule[],
  ignored: ReadonlySet<number> = new Set(),
): boolean {
  for (const rule of rulesInForce) {
    for (let distance = 1; distance <= rule.wordsBefore; distance++) {
      const index = start - distance;
      if (index < 0) break;
      if (!ignored.has(index) && rule.before.has(words[index]!)) return true;
    }
    for (let distance = 0; distance < rule.wordsAfter; distance++) {
      const index = end + distance;
      if (index >= words.length) break;
      if (!ignored.has(index) && rule.after.has(words[index]!)) return true;
    }
  }
  return false;
}
