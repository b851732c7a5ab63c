/**
 * Where a sentiment score (-1..1) falls for analytics' `sentiment_breakdown`: positive above 0.25, negative below
 * -0.25, neutral between (inclusive). One definition, documented in docs/analysis.md.
 */
export const SENTIMENT_BUCKETS = ['positive', 'neutral', 'negative'] as const;
export type SentimentBucket = (typeof SENTIMENT_BUCKETS)[number];

const THRESHOLD = 0.25;

export function sentimentBucketOf(score: number): SentimentBucket {
  if (score > THRESHOLD) return 'positive';
  if (score < -THRESHOLD) return 'negative';
  return 'neutral';
}
