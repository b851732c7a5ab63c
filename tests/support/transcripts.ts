/** A short English loan-renewal call as a transcript array (the API's `transcript` input): a polite agent, a willing customer. */
export const RENEWAL_TRANSCRIPT = [
  { speaker: 'agent', text: 'Good morning, this is Asha from the bank. Your loan is due for renewal.', start_time: 0.4, end_time: 4.2 },
  { speaker: 'customer', text: 'Yes, I want to renew my loan. The service has been very good.', start_time: 4.8, end_time: 8.1, confidence: 0.93 },
  { speaker: 'agent', text: 'Thank you, our team will call you tomorrow.', start_time: 8.6, end_time: 11 },
];

/**
 * The hostile transcript of issue 12: `sentences` short sentences that all share the word "loan", `perSegment` of them
 * to a segment, alternating speakers, all within 4 hours. Every pair of sentences shares a word, so an unbounded
 * TextRank builds a complete graph: 4,000 sentences, 10 to a segment (about 100 KB of JSON), took 25 s and 1 GB.
 */
export function loanFloodTranscript({ sentences, perSegment }: { sentences: number; perSegment: number }) {
  const segments = Math.ceil(sentences / perSegment);
  const spacing = 14_000 / segments;
  return Array.from({ length: segments }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text: Array.from({ length: Math.min(perSegment, sentences - index * perSegment) }, (_, k) => `Loan ${index * perSegment + k} due.`).join(' '),
    start_time: Math.round(index * spacing * 100) / 100,
    end_time: Math.round((index * spacing + spacing * 0.9) * 100) / 100,
  }));
}

/**
 * A loan-renewal conversation of `lines` alternating agent and customer lines, 4 s apart: long enough that a job's
 * analysis (summary, sentiment, intent) has something to chew on (the cluster suites and bench:cluster).
 */
export function renewalConversation(lines: number) {
  return Array.from({ length: lines }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text:
      index % 2 === 0
        ? `Sir, about your loan renewal, point ${index}: the interest stays at nine percent and the EMI is due on the fifth.`
        : `Yes, I understand point ${index}, but I need some time to arrange the payment, please call me next week.`,
    start_time: index * 4,
    end_time: index * 4 + 3.5,
  }));
}
