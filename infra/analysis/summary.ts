/**
 * A 2-4 sentence summary: one templated English sentence on what the call was about and how it ended, then
 * the 1-3 most central sentences of the transcript in the call's own language (extractive).
 *
 * Centrality is TextRank: sentences (Intl.Segmenter sentence split of each segment) are nodes, edges weigh
 * shared content words, |A ∩ B| / (log(|A| + 1) + log(|B| + 1)), and PageRank (damping 0.85) ranks them.
 * Sentences of fewer than MIN_SENTENCE_WORDS words ("Yes, speaking.") are only used when nothing else exists.
 * Chosen sentences keep transcript order and are prefixed with their speaker ("Customer: ...").
 */
import type { TranscriptSegment } from './port.ts';
import { INTENT_DESCRIPTIONS, isIntentLabel } from './intent-labels.ts';
import { detectIntent } from './intent.ts';
import { lexiconKeysForWords } from './lexicon-selection.ts';
import { stopwords } from './lexicon/stopwords.ts';
import { languageSubtag } from '../../domain/shared/language.ts';
import { normalizeText, tokenize } from './normalize.ts';
import { analyzeSentiment, sentimentBucket } from './sentiment.ts';

const MIN_SENTENCE_WORDS = 3;
const DAMPING = 0.85;
const ITERATIONS = 40;

const DISPOSITION_ENDINGS: Record<string, string> = {
  interested: 'with the customer interested',
  not_interested: 'with the customer not interested',
  callback: 'with a callback to arrange',
  not_reachable: 'without reaching the customer',
  dnd: 'with the number marked do-not-call',
  escalated: 'escalated to a human agent',
};

interface Sentence {
  position: number;
  speaker: string;
  text: string;
  words: string[];
  contentWords: Set<string>;
}

const stopwordSets = new Map<string, Set<string>>();

function stopwordSet(key: keyof typeof stopwords): Set<string> {
  let set = stopwordSets.get(key);
  if (!set) {
    set = new Set(stopwords[key].map(normalizeText));
    stopwordSets.set(key, set);
  }
  return set;
}

const sentenceSegmenters = new Map<string, Intl.Segmenter>();

function sentenceSegmenter(language: string): Intl.Segmenter {
  const subtag = languageSubtag(language) || 'en';
  let segmenter = sentenceSegmenters.get(subtag);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(subtag, { granularity: 'sentence' });
    sentenceSegmenters.set(subtag, segmenter);
  }
  return segmenter;
}

function splitSentences(segments: readonly TranscriptSegment[], language: string): Sentence[] {
  const segmenter = sentenceSegmenter(language);
  const sentences: Sentence[] = [];
  const inTimeOrder = [...segments].sort((a, b) => a.start_time - b.start_time);
  for (const segment of inTimeOrder) {
    for (const part of segmenter.segment(segment.text)) {
      const text = part.segment.trim();
      const words = tokenize(text, language);
      if (words.length === 0) continue;
      const ignored = lexiconKeysForWords(language, words).map(stopwordSet);
      const contentWords = new Set(words.filter((word) => !ignored.some((set) => set.has(word))));
      sentences.push({ position: sentences.length, speaker: segment.speaker, text, words, contentWords });
    }
  }
  return sentences;
}

/**
 * TextRank scores, one per sentence. The graph is sparse (built from a word -> sentences index), so a long call
 * of hundreds of sentences costs milliseconds, not an n² matrix.
 */
function textRank(sentences: readonly Sentence[]): number[] {
  const count = sentences.length;
  const sentencesWith = new Map<string, number[]>();
  sentences.forEach((sentence, index) => {
    for (const word of sentence.contentWords) {
      const list = sentencesWith.get(word);
      if (list) list.push(index);
      else sentencesWith.set(word, [index]);
    }
  });
  // edges[i]: neighbour -> similarity |A ∩ B| / (log(|A| + 1) + log(|B| + 1))
  const edges = sentences.map(() => new Map<number, number>());
  sentences.forEach((sentence, i) => {
    const shared = new Map<number, number>();
    for (const word of sentence.contentWords) {
      for (const j of sentencesWith.get(word)!) if (j !== i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    for (const [j, overlap] of shared) {
      const scale = Math.log(sentence.contentWords.size + 1) + Math.log(sentences[j]!.contentWords.size + 1);
      edges[i]!.set(j, overlap / scale);
    }
  });
  const outgoing = edges.map((row) => [...row.values()].reduce((sum, weight) => sum + weight, 0));
  let scores = new Array<number>(count).fill(1);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const next = new Array<number>(count).fill(1 - DAMPING);
    edges.forEach((row, j) => {
      if (outgoing[j]! === 0) return;
      for (const [i, weight] of row) next[i]! += DAMPING * (weight / outgoing[j]!) * scores[j]!;
    });
    scores = next;
  }
  return scores;
}

/** How many sentences to extract: the template plus these makes 2 to 4. */
function extractCount(available: number): number {
  if (available <= 1) return available;
  return available <= 6 ? 2 : 3;
}

function speakerName(speaker: string): string {
  const spaced = speaker.replace(/_/g, ' ').trim();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : 'Speaker';
}

const TERMINAL_PUNCTUATION = /[.!?।॥]["'”’)]*$/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;

function asSentence(sentence: Sentence): string {
  const closed = TERMINAL_PUNCTUATION.test(sentence.text)
    ? sentence.text
    : `${sentence.text}${DEVANAGARI.test(sentence.text) ? '।' : '.'}`;
  return `${speakerName(sentence.speaker)}: ${closed}`;
}

/** A label the analyzer does not know, made readable: `payment_dispute` -> `payment dispute`. */
function humanise(label: string): string {
  return label.replace(/_/g, ' ');
}

function templateSentence(
  segments: readonly TranscriptSegment[],
  language: string,
  intent: string | null,
  disposition: string | null | undefined,
): string {
  const intentClause =
    intent === null
      ? 'No clear customer intent was detected'
      : `The customer's main intent was ${isIntentLabel(intent) ? INTENT_DESCRIPTIONS[intent] : humanise(intent)}`;
  const tone = sentimentBucket(analyzeSentiment(segments, language).overall);
  const ending = disposition
    ? `, and the call ended ${DISPOSITION_ENDINGS[disposition] ?? `as ${humanise(disposition)}`}`
    : '';
  return `${intentClause}; the customer's tone was ${tone}${ending}.`;
}

export function summarize(input: {
  segments: readonly TranscriptSegment[];
  language: string;
  intent?: string | null;
  disposition?: string | null;
}): string {
  const { segments, language } = input;
  const intent = input.intent === undefined ? detectIntent(segments, language) : input.intent;
  const template = templateSentence(segments, language, intent, input.disposition);

  const sentences = splitSentences(segments, language);
  if (sentences.length === 0) return `${template} No speech was transcribed.`;
  const substantial = sentences.filter((sentence) => sentence.words.length >= MIN_SENTENCE_WORDS);
  const candidates = substantial.length > 0 ? substantial : sentences;

  const scores = textRank(candidates);
  const ranked = candidates
    .map((sentence, index) => ({ sentence, score: scores[index]! + 1e-6 * sentence.contentWords.size }))
    .sort((a, b) => b.score - a.score || a.sentence.position - b.sentence.position);
  const chosen = ranked
    .slice(0, extractCount(candidates.length))
    .map((entry) => entry.sentence)
    .sort((a, b) => a.position - b.position);
  return [template, ...chosen.map(asSentence)].join(' ');
}
