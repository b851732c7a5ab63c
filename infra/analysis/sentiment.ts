/**
 * Lexicon sentiment in the manner of VADER, for English, Hindi, Hinglish, Marathi, Tamil and Telugu.
 *
 * Each segment is split into clauses (a negator never reaches across a comma or full stop) and words. Lexicon
 * phrases are matched longest first; each match's valence is
 *   - multiplied by the nearest intensifier in the two words before it ("very", "बहुत", "ரொம்ப", "చాలా"),
 *   - negated when a negator stands within the lexicon's window before it (English "not good") or after it
 *     (Indic, SOV: "अच्छा नहीं", "நல்லா இல்லை"). A negated positive becomes negative (x -0.75); a negated
 *     negative becomes only mildly positive (x -0.3), because "no problem" is reassurance, not praise, and
 *     "don't bother me" is not praise at all,
 *   - halved before a "but" word and raised by half after it, within the segment.
 * A speaker's score is the sum of their segments' valences normalised into [-1, 1] as sum / sqrt(sum² + 15).
 *
 * `overall` is the customer's score when the transcript has a customer (an agent's scripted courtesy says
 * little about how the call went); otherwise all speakers pooled.
 */
import type { SentimentBucket, SentimentResult, TranscriptSegment } from './port.ts';
import { lexiconKeysForWords, type LexiconKey } from '../../domain/shared/text/lexicon-selection.ts';
import { sentimentLexicons } from './lexicon/sentiment/index.ts';
import { normalizeText, tokenizeClauses } from '../../domain/shared/text/normalize.ts';
import { isNegated, type NegationRule } from '../../domain/shared/text/negation-scope.ts';
import { negationRule } from './negation.ts';
import { PhraseIndex, scanLongest, type PhraseMatch } from './phrase-index.ts';
import { customerSegments } from '../../domain/shared/text/speaker-roles.ts';

/** Scores above this are `positive`. A lone "thank you" (0.25) stays neutral; a lone "good" (0.36) does not. */
export const POSITIVE_THRESHOLD = 0.25;
/** Scores below this are `negative`. */
export const NEGATIVE_THRESHOLD = -0.25;

const NEGATED_POSITIVE_FACTOR = -0.75;
const NEGATED_NEGATIVE_FACTOR = -0.3;
const BEFORE_CONTRAST_FACTOR = 0.5;
const AFTER_CONTRAST_FACTOR = 1.5;
const INTENSIFIER_REACH = 2;
/** VADER's normalisation constant: the sum at which a score reaches about 0.5 is sqrt(alpha / 3). */
const NORMALISATION_ALPHA = 15;

export function sentimentBucket(score: number): SentimentBucket {
  if (score > POSITIVE_THRESHOLD) return 'positive';
  if (score < NEGATIVE_THRESHOLD) return 'negative';
  return 'neutral';
}

/** A raw valence sum squashed into [-1, 1], rounded to 3 decimals. */
export function normalizeValence(sum: number): number {
  if (sum === 0) return 0;
  return Math.round((sum / Math.sqrt(sum * sum + NORMALISATION_ALPHA)) * 1000) / 1000;
}

interface CompiledSentimentLexicon {
  phrases: PhraseIndex<number>;
  negation: NegationRule;
  intensifiers: Map<string, number>;
  contrastWords: Set<string>;
}

const compiledLexicons = new Map<LexiconKey, CompiledSentimentLexicon>();

function compiledLexicon(key: LexiconKey): CompiledSentimentLexicon {
  let compiled = compiledLexicons.get(key);
  if (!compiled) {
    const lexicon = sentimentLexicons[key];
    compiled = {
      phrases: new PhraseIndex(Object.entries(lexicon.valences), key),
      negation: negationRule(key),
      intensifiers: new Map(
        Object.entries(lexicon.intensifiers).map(([word, factor]) => [normalizeText(word), factor]),
      ),
      contrastWords: new Set(lexicon.contrastWords.map(normalizeText)),
    };
    compiledLexicons.set(key, compiled);
  }
  return compiled;
}

function intensity(
  lexicons: readonly CompiledSentimentLexicon[],
  words: readonly string[],
  match: PhraseMatch<number>,
  covered: ReadonlySet<number>,
): number {
  for (let distance = 1; distance <= INTENSIFIER_REACH; distance++) {
    const index = match.start - distance;
    if (index < 0 || covered.has(index)) break;
    for (const lexicon of lexicons) {
      const factor = lexicon.intensifiers.get(words[index]!);
      if (factor !== undefined) return factor;
    }
  }
  return 1;
}

/** The raw (unnormalised) valence of one piece of text: the sum over its sentiment words and phrases. */
export function textValence(text: string, language: string): number {
  const clauses = tokenizeClauses(text, language);
  const lexicons = lexiconKeysForWords(language, clauses.flat()).map(compiledLexicon);
  if (lexicons.length === 0) return 0;

  const scored: { position: number; valence: number }[] = [];
  const phraseIndexes = lexicons.map((lexicon) => lexicon.phrases);
  const negationRules = lexicons.map((lexicon) => lexicon.negation);
  let contrastPosition = -1;
  let offset = 0;
  for (const words of clauses) {
    const matches = scanLongest(phraseIndexes, words);
    const covered = new Set<number>();
    for (const match of matches) for (let i = match.start; i < match.end; i++) covered.add(i);
    for (const match of matches) {
      let valence = match.value;
      if (valence === 0) continue;
      valence *= intensity(lexicons, words, match, covered);
      if (isNegated(words, match.start, match.end, negationRules, covered)) {
        valence *= valence > 0 ? NEGATED_POSITIVE_FACTOR : NEGATED_NEGATIVE_FACTOR;
      }
      scored.push({ position: offset + match.start, valence });
    }
    if (contrastPosition < 0) {
      const index = words.findIndex((word, i) => !covered.has(i) && lexicons.some((l) => l.contrastWords.has(word)));
      if (index >= 0) contrastPosition = offset + index;
    }
    offset += words.length;
  }

  let sum = 0;
  for (const { position, valence } of scored) {
    if (contrastPosition < 0) sum += valence;
    else sum += valence * (position < contrastPosition ? BEFORE_CONTRAST_FACTOR : AFTER_CONTRAST_FACTOR);
  }
  return sum;
}

export function analyzeSentiment(segments: readonly TranscriptSegment[], language: string): SentimentResult {
  const sumBySpeaker = new Map<string, number>();
  const valenceOf = new Map<TranscriptSegment, number>();
  for (const segment of segments) {
    const valence = textValence(segment.text, language);
    valenceOf.set(segment, valence);
    sumBySpeaker.set(segment.speaker, (sumBySpeaker.get(segment.speaker) ?? 0) + valence);
  }
  const by_speaker: Record<string, number> = {};
  for (const [speaker, sum] of sumBySpeaker) by_speaker[speaker] = normalizeValence(sum);

  const customer = customerSegments(segments);
  const overallSum = customer.reduce((total, segment) => total + (valenceOf.get(segment) ?? 0), 0);
  return { overall: normalizeValence(overallSum), by_speaker };
}
