/**
 * The shape of one language's intent rules. Phrases are matched in the customer's words; a phrase inside a
 * longer matched phrase does not count (so "don't call me again" is read as one phrase, not as "don't" +
 * "call me"); a label scores the heaviest of its phrases in each segment, summed over segments.
 *
 * Weights: 3 = says the intent outright ("wrong number"), 2 = strong cue ("send me the details"),
 * 1 = supporting cue ("premium", "later").
 */
import type { IntentLabel } from '../../intent-labels.ts';

/**
 * `interest` is resolved after matching: `loan_renewal_interest` when the call talks about renewing a loan
 * (a loan word and a renewal word anywhere in it), `interested` otherwise. A negated interest phrase
 * ("renew nahi karna") counts for `not_interested`.
 */
export type IntentRuleLabel = Exclude<IntentLabel, 'loan_renewal_interest' | 'interested'> | 'interest';

export type WeightedPhrase = readonly [phrase: string, weight: number];

export interface IntentLexicon {
  phrases: Record<IntentRuleLabel, readonly WeightedPhrase[]>;
  /** Words for a loan (any speaker): with a renewal word, the call is about renewing a loan. */
  loanWords: readonly string[];
  renewalWords: readonly string[];
  /**
   * Words for a form or an application. Hindi and Marathi "fill" and "pay" are one verb (भरना, भरणे): in a turn
   * that names a form ("फॉर्म भेज दीजिए, मैं भर दूँगी"), "भर दूँगी" fills the form and is no payment promise.
   */
  formWords: readonly string[];
}
