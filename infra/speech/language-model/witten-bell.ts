// Estimates a trigram back-off model from sentences with Witten-Bell smoothing: the probability kept back for
// unseen words after a context h is T(h) / (c(h) + T(h)), T(h) being how many different words followed h and c(h)
// how often h was followed at all. Interpolated Witten-Bell has an exact back-off form, so the back-off weights
// are that reserved mass (no renormalisation needed):
//   p(w | h) = (c(h w) + T(h) · p(w | h')) / (c(h) + T(h)),  bo(h) = T(h) / (c(h) + T(h)).
// Unigrams are smoothed towards the uniform distribution over the words seen. Suited to the small texts a
// workspace's scripts give (hundreds of sentences), where count-of-counts discounts are unreliable.
import { LOG_ZERO, SENTENCE_END, SENTENCE_START, type BackoffModel, type NgramEntry } from './backoff-model.ts';

export function estimateWittenBell(sentences: readonly (readonly string[])[], order = 3): BackoffModel {
  if (order < 1) throw new RangeError('order must be at least 1');
  // counts[n - 1]: how often each n-gram occurred; contexts[n - 1]: per (n-1)-word context, total and distinct.
  const counts = Array.from({ length: order }, () => new Map<string, number>());
  const contexts = Array.from({ length: order }, () => new Map<string, { total: number; distinct: number }>());
  for (const sentence of sentences) {
    if (sentence.length === 0) continue;
    const words = [SENTENCE_START, ...sentence, SENTENCE_END];
    for (let end = 1; end < words.length; end += 1) {
      for (let n = 1; n <= order && end - n + 1 >= 0; n += 1) {
        const gram = words.slice(end - n + 1, end + 1);
        // An n-gram may start with <s> but never predict it.
        const key = gram.join(' ');
        const seen = counts[n - 1]!.get(key) ?? 0;
        counts[n - 1]!.set(key, seen + 1);
        const context = gram.slice(0, -1).join(' ');
        const stats = contexts[n - 1]!.get(context) ?? { total: 0, distinct: 0 };
        stats.total += 1;
        if (seen === 0) stats.distinct += 1;
        contexts[n - 1]!.set(context, stats);
      }
    }
  }
  const ngrams = Array.from({ length: order }, () => new Map<string, NgramEntry>());
  const probability = (n: number, gram: string[]): number => {
    // Interpolated WB probability of gram's last word after its first n - 1 words (linear, not log).
    const key = gram.join(' ');
    const context = gram.slice(0, -1).join(' ');
    const stats = contexts[n - 1]!.get(context);
    const lower = n === 1 ? 1 / Math.max(1, counts[0]!.size) : probability(n - 1, gram.slice(1));
    if (stats === undefined) return lower;
    return ((counts[n - 1]!.get(key) ?? 0) + stats.distinct * lower) / (stats.total + stats.distinct);
  };
  for (let n = 1; n <= order; n += 1) {
    for (const key of counts[n - 1]!.keys()) {
      ngrams[n - 1]!.set(key, { logProb: Math.log10(probability(n, key.split(' '))), backoff: 0 });
    }
  }
  // <s> is a context, never predicted.
  ngrams[0]!.set(SENTENCE_START, { logProb: LOG_ZERO, backoff: 0 });
  for (let n = 1; n < order; n += 1) {
    for (const [context, stats] of contexts[n]!) {
      const entry = ngrams[n - 1]!.get(context);
      if (entry !== undefined) entry.backoff = Math.log10(stats.distinct / (stats.total + stats.distinct));
    }
  }
  return { order, ngrams };
}
