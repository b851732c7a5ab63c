// Word error rate: (substitutions + deletions + insertions) / reference words, by Levenshtein alignment over
// words. Both texts are normalised first (case, punctuation), so the figure measures recognition, not
// formatting. Numbers are not spelled out: write reference texts in words.

export interface WordErrorCounts {
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
  /** (S + D + I) / N; 0 when both are empty, 1 per inserted word when the reference is empty. */
  rate: number;
}

export function normalizeForScoring(text: string): string[] {
  return expandContractions(
    text
      .toLowerCase()
      .normalize('NFC')
      .replace(/\u2019/g, "'")
      // Keep letters, combining marks (Indic vowel signs), digits and apostrophes inside words.
      .replace(/[^\p{L}\p{M}\p{N}']+/gu, ' ')
      .replace(/(^|\s)'+|'+(?=\s|$)/g, ' '),
  )
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** "I'm" and "I am" are the same words said; recognisers pick either spelling, so both sides are expanded. */
function expandContractions(text: string): string {
  return text
    .replace(/\bcan't\b/g, 'can not')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/\b(\p{L}+)n't\b/gu, '$1 not')
    .replace(/\b(\p{L}+)'m\b/gu, '$1 am')
    .replace(/\b(\p{L}+)'re\b/gu, '$1 are')
    .replace(/\b(\p{L}+)'ve\b/gu, '$1 have')
    .replace(/\b(\p{L}+)'ll\b/gu, '$1 will');
}

export function wordErrorRate(reference: string, hypothesis: string): WordErrorCounts {
  return alignWords(normalizeForScoring(reference), normalizeForScoring(hypothesis));
}

export function alignWords(reference: string[], hypothesis: string[]): WordErrorCounts {
  const columns = hypothesis.length + 1;
  // cost[i * columns + j]: edit distance between the first i reference and first j hypothesis words.
  const cost = new Uint32Array((reference.length + 1) * columns);
  for (let j = 0; j <= hypothesis.length; j++) cost[j] = j;
  for (let i = 1; i <= reference.length; i++) {
    cost[i * columns] = i;
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = cost[(i - 1) * columns + j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      const deletion = cost[(i - 1) * columns + j]! + 1;
      const insertion = cost[i * columns + j - 1]! + 1;
      cost[i * columns + j] = Math.min(substitution, deletion, insertion);
    }
  }
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  let i = reference.length;
  let j = hypothesis.length;
  while (i > 0 || j > 0) {
    const here = cost[i * columns + j]!;
    if (i > 0 && j > 0 && here === cost[(i - 1) * columns + j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)) {
      if (reference[i - 1] !== hypothesis[j - 1]) substitutions++;
      i--;
      j--;
    } else if (i > 0 && here === cost[(i - 1) * columns + j]! + 1) {
      deletions++;
      i--;
    } else {
      insertions++;
      j--;
    }
  }
  const errors = substitutions + deletions + insertions;
  return {
    substitutions,
    deletions,
    insertions,
    referenceWords: reference.length,
    rate: reference.length === 0 ? errors : errors / reference.length,
  };
}
