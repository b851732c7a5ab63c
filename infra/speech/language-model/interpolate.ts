// Static linear interpolation of two back-off models into one back-off model (what SRILM's `-mix-lm` does):
// every n-gram listed in either model is listed in the mix with p = λ·p_domain(w|h) + (1-λ)·p_general(w|h), each
// side backing off as it would alone, and the back-off weights are recomputed so every context sums to one.
// Words one side does not know get probability 0 from that side.
import { logProbability, LOG_ZERO, renormalizeBackoffs, SENTENCE_START, type BackoffModel, type NgramEntry } from './backoff-model.ts';

export function interpolateModels(domain: BackoffModel, general: BackoffModel, domainWeight: number): BackoffModel {
  if (!(domainWeight >= 0 && domainWeight <= 1)) throw new RangeError('domainWeight must be within [0, 1]');
  const order = Math.max(domain.order, general.order);
  const ngrams = Array.from({ length: order }, () => new Map<string, NgramEntry>());
  const known = (model: BackoffModel, word: string) => model.ngrams[0]!.has(word);
  const side = (model: BackoffModel, words: string[]) => {
    const word = words.at(-1)!;
    if (!known(model, word)) return 0;
    const logProb = logProbability(model, words.slice(0, -1), word);
    return logProb <= LOG_ZERO ? 0 : 10 ** logProb;
  };
  for (let n = 1; n <= order; n += 1) {
    for (const model of [domain, general]) {
      if (n > model.order) continue;
      for (const key of model.ngrams[n - 1]!.keys()) {
        if (ngrams[n - 1]!.has(key)) continue;
        const words = key.split(' ');
        // An n-gram is only valid when its context is itself listed (ARPA's rule); both inputs satisfy it.
        const mixed = domainWeight * side(domain, words) + (1 - domainWeight) * side(general, words);
        ngrams[n - 1]!.set(key, { logProb: mixed > 0 ? Math.log10(mixed) : LOG_ZERO, backoff: 0 });
      }
    }
  }
  ngrams[0]!.set(SENTENCE_START, { logProb: LOG_ZERO, backoff: 0 });
  const model: BackoffModel = { order, ngrams };
  renormalizeBackoffs(model);
  return model;
}
