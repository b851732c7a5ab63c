// Reads the binary trie language model that Debian's `pocketsphinx-en-us` ships (`en-us.lm.bin`, sphinxbase's
// "Trie Language Model": 72,547 unigrams, 2.05 M bigrams, 1.67 M trigrams) into a pruned back-off model we can mix
// with a call-domain model. Debian's `sphinx_lm_convert -ofmt arpa` aborts on this file (an assertion on the
// bigram count: the trie holds 6 bigrams fewer than its header says), so we read it ourselves.
//
// Layout (sphinxbase lm_trie.c, KenLM-style, little-endian): the header text, the order (1 byte), the n-gram
// counts (uint32 each); a quantisation type (uint32) and, for 16-bit quantisation, 65,536 float bin values per
// table (bigram probability, bigram back-off, trigram probability); the unigrams as (float prob, float backoff,
// uint32 first bigram) × (count + 1); the bigrams bit-packed as (word, back-off bin, prob bin, first trigram); the
// trigrams bit-packed as (word, prob bin); then the words, NUL-separated, in unigram order. Values are in
// sphinxbase's log base 1.0001. The trie is reversed (as KenLM's): the bigram "v u" sits under unigram u with
// word v, the trigram "x v u" under that bigram with word x. Checked against `sphinx_lm_eval` (tests).
import { readFile } from 'node:fs/promises';
import { renormalizeBackoffs, SENTENCE_START, type BackoffModel, type NgramEntry } from './backoff-model.ts';

const HEADER = 'Trie Language Model';
const QUANT_BINS = 65_536;
/** log10 of sphinxbase's log base (1.0001). */
const LOG10_PER_UNIT = Math.log10(1.0001);

export interface TriePruning {
  /** Bigrams kept, those with the highest joint probability p(w1) p(w2 | w1). */
  maxBigrams: number;
  /** Trigrams kept (over kept bigrams), highest p(w1 w2) p(w3 | w1 w2). */
  maxTrigrams: number;
  /** Recompute back-off weights for what was kept (default true; false keeps the file's own, for checking). */
  renormalize?: boolean;
}

export class TrieFormatError extends Error {
  constructor(message: string) {
    super(`not a sphinxbase trie language model: ${message}`);
    this.name = 'TrieFormatError';
  }
}

/** Bits [offset, offset + length) of `bytes`, little-endian, length ≤ 25. */
function readBits(bytes: Uint8Array, offset: number, length: number): number {
  const at = offset >>> 3;
  const word = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> (offset & 7);
  return word & ((1 << length) - 1);
}

function bitsFor(maxValue: number): number {
  return Math.max(1, Math.ceil(Math.log2(maxValue)));
}

/** The `keep` highest values' threshold (values at or above it are kept; ties may keep a few more). */
function thresholdForTop(values: Float32Array, keep: number): number {
  if (keep >= values.length) return -Infinity;
  if (keep <= 0) return Infinity;
  const sorted = Float32Array.from(values).sort();
  return sorted[sorted.length - keep]!;
}

export async function readSphinxTrieModel(path: string, pruning: TriePruning): Promise<BackoffModel> {
  const file = await readFile(path);
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.subarray(0, HEADER.length).toString('latin1') !== HEADER) throw new TrieFormatError('header');
  let at = HEADER.length;
  const order = bytes[at]!;
  at += 1;
  if (order !== 3) throw new TrieFormatError(`order ${order} (only trigram models are read)`);
  const counts = [0, 1, 2].map((n) => view.getUint32(at + 4 * n, true));
  at += 12;
  const quantType = view.getUint32(at, true);
  at += 4;
  if (quantType !== 1) throw new TrieFormatError(`quantisation type ${quantType} (only 16-bit bins are read)`);
  const table = (t: number, bin: number) => view.getFloat32(at + 4 * (t * QUANT_BINS + bin), true) * LOG10_PER_UNIT;
  const unigramsAt = at + 3 * QUANT_BINS * 4;
  const [unigramCount] = counts as [number, number, number];
  const unigram = (u: number) => ({
    logProb: view.getFloat32(unigramsAt + 12 * u, true) * LOG10_PER_UNIT,
    backoff: view.getFloat32(unigramsAt + 12 * u + 4, true) * LOG10_PER_UNIT,
    next: view.getUint32(unigramsAt + 12 * u + 8, true),
  });
  // The pointers, not the header, say how many n-grams there are (the header overstates bigrams by 6).
  const bigramCount = unigram(unigramCount).next;
  const trigramCountHeader = counts[2]!;
  const wordBits = bitsFor(unigramCount);
  const nextBits = bitsFor(trigramCountHeader + 1);
  const bigramBits = wordBits + 32 + nextBits;
  const bigramsAt = unigramsAt + 12 * (unigramCount + 1);
  const bigramBytes = Math.floor(((counts[1]! + 1) * bigramBits + 7) / 8) + 8;
  const trigramsAt = bigramsAt + bigramBytes;
  const trigramBits = wordBits + 16;
  const wordsAt = trigramsAt + Math.floor((trigramCountHeader * trigramBits + 7) / 8) + 16;
  if (wordsAt >= bytes.length) throw new TrieFormatError('truncated');
  const words = file.subarray(wordsAt).toString('utf8').split('\0').slice(0, unigramCount);
  if (words.length !== unigramCount) throw new TrieFormatError('word list shorter than the unigram count');

  const bigrams = bytes.subarray(bigramsAt, trigramsAt);
  const trigrams = bytes.subarray(trigramsAt);
  const bigramField = (index: number) => {
    const offset = index * bigramBits;
    return {
      word: readBits(bigrams, offset, wordBits),
      // Written as one 32-bit value (prob << 16 | backoff): the back-off bin comes first in bit order.
      backoff: table(1, readBits(bigrams, offset + wordBits, 16)),
      logProb: table(0, readBits(bigrams, offset + wordBits + 16, 16)),
      next: readBits(bigrams, offset + wordBits + 32, nextBits),
    };
  };
  const trigramField = (index: number) => ({
    word: readBits(trigrams, index * trigramBits, wordBits),
    logProb: table(2, readBits(trigrams, index * trigramBits + wordBits, 16)),
  });

  const unigrams = new Map<string, NgramEntry>();
  const unigramLogProbs = new Float64Array(unigramCount);
  const bigramOwner = new Uint32Array(bigramCount);
  for (let u = 0; u < unigramCount; u += 1) {
    const entry = unigram(u);
    unigramLogProbs[u] = entry.logProb;
    unigrams.set(words[u]!, { logProb: entry.logProb, backoff: entry.backoff });
    const end = unigram(u + 1).next;
    for (let b = entry.next; b < end; b += 1) bigramOwner[b] = u;
  }

  // Pass 1: joint probabilities p(v) p(u | v) of every bigram "v u", to keep the most probable ones. <s> counts
  // as certain (its unigram probability is the ARPA's log 0).
  const startId = words.indexOf(SENTENCE_START);
  const contextLogProb = (word: number) => (word === startId ? 0 : unigramLogProbs[word]!);
  const bigramJoint = new Float32Array(bigramCount);
  for (let b = 0; b < bigramCount; b += 1) {
    const field = bigramField(b);
    bigramJoint[b] = contextLogProb(field.word) + field.logProb;
  }
  const bigramThreshold = thresholdForTop(bigramJoint, pruning.maxBigrams);

  const bigramMap = new Map<string, NgramEntry>();
  const keptBigrams: number[] = [];
  for (let b = 0; b < bigramCount; b += 1) {
    if (bigramJoint[b]! < bigramThreshold) continue;
    const field = bigramField(b);
    bigramMap.set(`${words[field.word]} ${words[bigramOwner[b]!]}`, { logProb: field.logProb, backoff: field.backoff });
    keptBigrams.push(b);
  }

  // Trigrams "x v u" whose suffix "v u" and prefix "x v" are both kept bigrams (ARPA needs both), ranked by
  // p(v u) p(u | x v), an approximation of their joint probability good enough for choosing.
  const trigramJoint: number[] = [];
  const trigramIndex: number[] = [];
  const trigramContext: number[] = [];
  for (const b of keptBigrams) {
    const suffix = bigramField(b);
    const first = suffix.next;
    const end = b + 1 < bigramCount ? bigramField(b + 1).next : trigramCountHeader;
    for (let t = first; t < end; t += 1) {
      const field = trigramField(t);
      if (!bigramMap.has(`${words[field.word]} ${words[suffix.word]}`)) continue;
      trigramJoint.push(bigramJoint[b]! + field.logProb);
      trigramIndex.push(t);
      trigramContext.push(b);
    }
  }
  const trigramThreshold = thresholdForTop(Float32Array.from(trigramJoint), pruning.maxTrigrams);
  const trigramMap = new Map<string, NgramEntry>();
  for (let i = 0; i < trigramIndex.length; i += 1) {
    if (Math.fround(trigramJoint[i]!) < trigramThreshold) continue;
    const b = trigramContext[i]!;
    const field = trigramField(trigramIndex[i]!);
    trigramMap.set(`${words[field.word]} ${words[bigramField(b).word]} ${words[bigramOwner[b]!]}`, { logProb: field.logProb, backoff: 0 });
  }
  const model: BackoffModel = { order: 3, ngrams: [unigrams, bigramMap, trigramMap] };
  if (pruning.renormalize !== false) renormalizeBackoffs(model);
  return model;
}
