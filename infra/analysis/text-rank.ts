/**
 * TextRank over the sentences of a call, with its cost bounded whatever the transcript's size.
 *
 * Sentences are nodes; an edge weighs the content words two sentences share, |A ∩ B| / (log(|A| + 1) + log(|B| + 1));
 * PageRank (damping 0.85) ranks them. Unbounded, a transcript whose sentences all share one word ("loan") is a
 * complete graph: 4,000 such sentences made 16 million edges, 25 s of CPU and about 1 GB (issue 12). So:
 *
 * - At most MAX_CANDIDATES sentences enter the graph. The first and last EDGE_CANDIDATES always do (a call states
 *   its purpose at the start and its outcome at the end); the other places go to the sentences with the highest
 *   weighted degree the full graph would give them, computed in linear time from word counts. PageRank follows
 *   weighted degree closely, so the sentences left out are ones that could not have ranked high.
 * - A sentence compares at most MAX_COMPARED_WORDS distinct content words (an unpunctuated recogniser segment can
 *   be one "sentence" of a thousand words).
 * - Each sentence keeps links to its MAX_LINKS strongest neighbours only.
 *
 * Worst case: 200 × 100 word lookups of at most 200 sentences each, 200 × 40 edges, 40 iterations: milliseconds and
 * a few megabytes. A call with at most 200 sentences of which none shares words with more than 40 others ranks
 * exactly as the unbounded TextRank did. Measured against it (2026-12): the same summary for all 289 labelled calls
 * and for 18 long calls of 30 labelled calls joined (hundreds of sentences); with 20 links, 8 of the 18 differed.
 */

export interface RankedSentence {
  /** Transcript order. */
  position: number;
  contentWords: ReadonlySet<string>;
}

export const MAX_CANDIDATES = 200;
export const EDGE_CANDIDATES = 20;
export const MAX_COMPARED_WORDS = 100;
export const MAX_LINKS = 40;
const DAMPING = 0.85;
const ITERATIONS = 40;

/** The `count` most central sentences, in transcript order. */
export function mostCentral<S extends RankedSentence>(sentences: readonly S[], count: number): S[] {
  const compared = sentences.map((sentence) => comparedWords(sentence.contentWords));
  const candidates = chooseCandidates(sentences, compared);
  const scores = pageRank(strongestLinks(candidates.map((index) => compared[index]!)));
  return candidates
    // The size term breaks ties of equal rank towards the sentence that says more.
    .map((index, node) => ({ sentence: sentences[index]!, score: scores[node]! + 1e-6 * compared[index]!.length }))
    .sort((a, b) => b.score - a.score || a.sentence.position - b.sentence.position)
    .slice(0, count)
    .map((entry) => entry.sentence)
    .sort((a, b) => a.position - b.position);
}

function comparedWords(words: ReadonlySet<string>): string[] {
  const list: string[] = [];
  for (const word of words) {
    if (list.length === MAX_COMPARED_WORDS) break;
    list.push(word);
  }
  return list;
}

/** Indexes (in transcript order) of the sentences that enter the graph. */
function chooseCandidates(sentences: readonly RankedSentence[], compared: readonly string[][]): number[] {
  const count = sentences.length;
  if (count <= MAX_CANDIDATES) return sentences.map((_, index) => index);
  const sentencesWith = new Map<string, number>();
  for (const words of compared) for (const word of words) sentencesWith.set(word, (sentencesWith.get(word) ?? 0) + 1);
  const meanScale = compared.reduce((sum, words) => sum + Math.log(words.length + 1), 0) / count;
  // The weighted degree in the full graph, with every neighbour's size taken as the mean.
  const degree = compared.map((words) => {
    const shared = words.reduce((sum, word) => sum + sentencesWith.get(word)! - 1, 0);
    return shared / (Math.log(words.length + 1) + meanScale || 1);
  });
  const chosen = new Set<number>();
  for (let index = 0; index < EDGE_CANDIDATES; index++) {
    chosen.add(index);
    chosen.add(count - 1 - index);
  }
  const byDegree = degree.map((_, index) => index).sort((a, b) => degree[b]! - degree[a]! || a - b);
  for (const index of byDegree) {
    if (chosen.size >= MAX_CANDIDATES) break;
    chosen.add(index);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** links[i]: neighbour -> similarity, at most MAX_LINKS of the strongest per sentence. */
function strongestLinks(compared: readonly string[][]): Map<number, number>[] {
  const nodesWith = new Map<string, number[]>();
  compared.forEach((words, node) => {
    for (const word of words) {
      const list = nodesWith.get(word);
      if (list) list.push(node);
      else nodesWith.set(word, [node]);
    }
  });
  const scale = compared.map((words) => Math.log(words.length + 1));
  return compared.map((words, i) => {
    const shared = new Map<number, number>();
    for (const word of words) {
      for (const j of nodesWith.get(word)!) if (j !== i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    const weighted = [...shared].map(([j, overlap]): [number, number] => [j, overlap / (scale[i]! + scale[j]!)]);
    if (weighted.length > MAX_LINKS) weighted.sort((a, b) => b[1] - a[1] || a[0] - b[0]).length = MAX_LINKS;
    return new Map(weighted);
  });
}

function pageRank(links: readonly Map<number, number>[]): number[] {
  const count = links.length;
  const outgoing = links.map((row) => [...row.values()].reduce((sum, weight) => sum + weight, 0));
  let scores = new Array<number>(count).fill(1);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const next = new Array<number>(count).fill(1 - DAMPING);
    links.forEach((row, j) => {
      if (outgoing[j]! === 0) return;
      for (const [i, weight] of row) next[i]! += DAMPING * (weight / outgoing[j]!) * scores[j]!;
    });
    scores = next;
  }
  return scores;
}
