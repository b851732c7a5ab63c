// A back-off n-gram language model in the ARPA sense (log10 probabilities), as PocketSphinx reads it: every
// listed n-gram has a probability and, below the highest order, a back-off weight for its use as a context.
// p(w | h) is the listed probability of "h w" when there is one, else bo(h) · p(w | h minus its first word).
// Keys are the words joined by single spaces (words never contain spaces).

export interface NgramEntry {
  /** log10 p(last word | the words before it). */
  logProb: number;
  /** log10 back-off weight of these words as a context; 0 when absent (the highest order has none). */
  backoff: number;
}

export interface BackoffModel {
  /** Highest order (3 for a trigram model). */
  order: number;
  /** ngrams[n - 1]: the n-grams of order n. */
  ngrams: Map<string, NgramEntry>[];
}

export const SENTENCE_START = '<s>';
export const SENTENCE_END = '</s>';
/** What ARPA files write for log10 0 (the probability of predicting <s>). */
export const LOG_ZERO = -99;

/** log10 p(word | context), backing off through shorter contexts. The context's last `order - 1` words are used. */
export function logProbability(model: BackoffModel, context: readonly string[], word: string): number {
  let history = context.slice(Math.max(0, context.length - (model.order - 1)));
  let penalty = 0;
  for (;;) {
    const key = history.length === 0 ? word : `${history.join(' ')} ${word}`;
    const entry = model.ngrams[history.length]!.get(key);
    if (entry !== undefined) return entry.logProb + penalty;
    if (history.length === 0) return LOG_ZERO;
    penalty += model.ngrams[history.length - 1]!.get(history.join(' '))?.backoff ?? 0;
    history = history.slice(1);
  }
}

/** The words the model knows (its unigrams), without <s>. */
export function vocabulary(model: BackoffModel): string[] {
  return [...model.ngrams[0]!.keys()].filter((word) => word !== SENTENCE_START);
}

/**
 * Sets every context's back-off weight so that its distribution sums to one given its listed n-grams:
 * bo(h) = (1 - Σ listed p(w|h)) / (1 - Σ listed p(w|h')), h' being h without its first word. Needed after
 * n-grams are pruned or mixed, when the old weights no longer fit.
 */
export function renormalizeBackoffs(model: BackoffModel): void {
  // Lowest order first: an order's weights depend on the (already final) weights below it.
  for (let n = 2; n <= model.order; n += 1) {
    const listedMass = new Map<string, number>();
    const lowerMass = new Map<string, number>();
    for (const [key, entry] of model.ngrams[n - 1]!) {
      const words = key.split(' ');
      const context = words.slice(0, -1).join(' ');
      listedMass.set(context, (listedMass.get(context) ?? 0) + 10 ** entry.logProb);
      const lower = logProbability(model, words.slice(1, -1), words.at(-1)!);
      lowerMass.set(context, (lowerMass.get(context) ?? 0) + 10 ** lower);
    }
    for (const [context, entry] of model.ngrams[n - 2]!) {
      const listed = listedMass.get(context);
      if (listed === undefined) {
        entry.backoff = 0;
        continue;
      }
      const numerator = Math.max(1e-12, 1 - listed);
      const denominator = Math.max(1e-12, 1 - (lowerMass.get(context) ?? 0));
      entry.backoff = Math.log10(numerator / denominator);
    }
  }
}

/** The model as ARPA text. Probabilities to 6 decimals; n-grams in insertion order within each order. */
export function toArpa(model: BackoffModel): string {
  const lines = ['\\data\\'];
  for (let n = 1; n <= model.order; n += 1) lines.push(`ngram ${n}=${model.ngrams[n - 1]!.size}`);
  for (let n = 1; n <= model.order; n += 1) {
    lines.push('', `\\${n}-grams:`);
    for (const [key, entry] of model.ngrams[n - 1]!) {
      const probability = entry.logProb <= LOG_ZERO ? LOG_ZERO.toFixed(4) : entry.logProb.toFixed(6);
      lines.push(n < model.order ? `${probability}\t${key}\t${entry.backoff.toFixed(6)}` : `${probability}\t${key}`);
    }
  }
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}

export class ArpaFormatError extends Error {
  constructor(message: string) {
    super(`not an ARPA language model: ${message}`);
    this.name = 'ArpaFormatError';
  }
}

/** Parses ARPA text (the format `toArpa` writes and sphinx_lm_convert reads). */
export function parseArpa(text: string): BackoffModel {
  const lines = text.split('\n');
  let index = lines.findIndex((line) => line.trim() === '\\data\\');
  if (index < 0) throw new ArpaFormatError('no \\data\\ section');
  const counts: number[] = [];
  for (index += 1; index < lines.length; index += 1) {
    const match = /^ngram (\d+)=(\d+)$/.exec(lines[index]!.trim());
    if (match === null) break;
    if (Number(match[1]) !== counts.length + 1) throw new ArpaFormatError(`ngram counts out of order at line ${index + 1}`);
    counts.push(Number(match[2]));
  }
  if (counts.length === 0) throw new ArpaFormatError('no ngram counts');
  const ngrams = counts.map(() => new Map<string, NgramEntry>());
  let order = 0;
  for (; index < lines.length; index += 1) {
    const line = lines[index]!.trim();
    if (line === '' ) continue;
    if (line === '\\end\\') break;
    const section = /^\\(\d+)-grams:$/.exec(line);
    if (section !== null) {
      order = Number(section[1]);
      if (order < 1 || order > counts.length) throw new ArpaFormatError(`unexpected section ${line}`);
      continue;
    }
    if (order === 0) throw new ArpaFormatError(`n-gram before any section at line ${index + 1}`);
    const fields = line.split(/\s+/);
    const logProb = Number(fields[0]);
    const words = fields.slice(1, 1 + order);
    if (words.length !== order || !Number.isFinite(logProb)) throw new ArpaFormatError(`bad ${order}-gram at line ${index + 1}`);
    const backoff = fields.length > order + 1 ? Number(fields[order + 1]) : 0;
    ngrams[order - 1]!.set(words.join(' '), { logProb, backoff: Number.isFinite(backoff) ? backoff : 0 });
  }
  return { order: counts.length, ngrams };
}
