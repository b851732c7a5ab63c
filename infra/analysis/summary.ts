/**
 * A 2-4 sentence summary: one templated English sentence on what the call was about and how it ended, then
 * the 1-3 most central sentences of the transcript in the call's own language (extractive).
 *
 * Centrality is TextRank (text-rank.ts, bounded in time and memory whatever the transcript's size) over the
 * sentences of the Intl.Segmenter sentence split of each segment.
 * Sentences of fewer than MIN_SENTENCE_WORDS words ("Yes, speaking.") are only used when nothing else exists.
 * Chosen sentences keep transcript order and are prefixed with their speaker ("Customer: ...").
 */
import type { SentimentResult, TranscriptSegment } from './port.ts';
import { INTENT_DESCRIPTIONS, isIntentLabel } from './intent-labels.ts';
import { detectIntent } from './intent.ts';
import { lexiconKeysForWords } from '../../domain/shared/text/lexicon-selection.ts';
import { stopwords } from './lexicon/stopwords.ts';
import { languageSubtag } from '../../domain/shared/language.ts';
import { normalizeText, tokenize } from '../../domain/shared/text/normalize.ts';
import { analyzeSentiment, sentimentBucket } from './sentiment.ts';
import { mostCentral } from './text-rank.ts';

const MIN_SENTENCE_WORDS = 3;
/**
 * Segments the sentence split reads at most. A 4-hour call has a few thousand; a longer transcript is read as an
 * evenly spaced sample (its first and last segment included), so the split's cost stays bounded too.
 */
export const MAX_SCANNED_SEGMENTS = 5_000;

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
  for (const segment of evenlySpaced(inTimeOrder, MAX_SCANNED_SEGMENTS)) {
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

function evenlySpaced<T>(items: readonly T[], limit: number): readonly T[] {
  if (items.length <= limit) return items;
  return Array.from({ length: limit }, (_, k) => items[Math.round((k * (items.length - 1)) / (limit - 1))]!);
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
  sentiment: SentimentResult | undefined,
): string {
  const intentClause =
    intent === null
      ? 'No clear customer intent was detected'
      : `The customer's main intent was ${isIntentLabel(intent) ? INTENT_DESCRIPTIONS[intent] : humanise(intent)}`;
  const tone = sentimentBucket((sentiment ?? analyzeSentiment(segments, language)).overall);
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
  /** The call's sentiment when already computed (it names the tone); computed otherwise. */
  sentiment?: SentimentResult;
}): string {
  const { segments, language } = input;
  const intent = input.intent === undefined ? detectIntent(segments, language) : input.intent;
  const template = templateSentence(segments, language, intent, input.disposition, input.sentiment);

  const sentences = splitSentences(segments, language);
  if (sentences.length === 0) return `${template} No speech was transcribed.`;
  const substantial = sentences.filter((sentence) => sentence.words.length >= MIN_SENTENCE_WORDS);
  const candidates = substantial.length > 0 ? substantial : sentences;

  const chosen = mostCentral(candidates, extractCount(candidates.length));
  return [template, ...chosen.map(asSentence)].join(' ');
}
