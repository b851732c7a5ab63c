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
 * Each turn is then read as a whole (textValence): a dismissive repeated agreement and a pleasantry before a
 * complaint are not pleasure. A speaker's score is the sum of their turns' valences, later turns weighted more
 * (recencyWeights; courtesy-strength words are not weighted), normalised into [-1, 1] as sum / sqrt(sum² + 15).
 *
 * `overall` is the customer's score (an agent's scripted courtesy says nothing about how the call went); without
 * role labels, that of everyone but the speaker who opened the call.
 */
import type { SentimentBucket, SentimentResult, TranscriptSegment } from './port.ts';
import { lexiconKeysForWords, type LexiconKey } from '../../domain/shared/text/lexicon-selection.ts';
import { sentimentLexicons } from './lexicon/sentiment/index.ts';
import { normalizeText, tokenize, tokenizeClauses } from '../../domain/shared/text/normalize.ts';
import { isNegated, type NegationRule } from '../../domain/shared/text/negation-scope.ts';
import { negationRule } from './negation.ts';
import { PhraseIndex, scanLongest, type PhraseMatch } from './phrase-index.ts';
import { agentSpeaker, customerSegments } from '../../domain/shared/text/speaker-roles.ts';

/** Scores above this are `positive`. A lone "thank you" (0.25) stays neutral; a lone "good" (0.36) does not. */
export const POSITIVE_THRESHOLD = 0.25;
/** Scores below this are `negative`. */
export const NEGATIVE_THRESHOLD = -0.25;

const NEGATED_POSITIVE_FACTOR = -0.75;
const NEGATED_NEGATIVE_FACTOR = -0.3;
const BEFORE_CONTRAST_FACTOR = 0.5;
const AFTER_CONTRAST_FACTOR = 1.5;
const INTENSIFIER_REACH = 2;
/**
 * A dismissive repeated agreement ("haan haan", "हाँ हाँ ठीक है"). Alone it stays neutral (a closing "சரி சரி"
 * after an information call is not anger), but it tips a turn with any other annoyance into negative.
 */
const FLAT_AGREEMENT_VALENCE = -0.9;
/** A match at least this negative makes the turn a complaint (an apology, -0.3, does not). */
const COMPLAINT_VALENCE = -1;
/** Praise or a pleasantry before a complaint in the same turn: sarcasm at worst, politeness at best. */
const PLEASANTRY_BEFORE_COMPLAINT_FACTOR = -0.3;
/** The last turn of a speaker weighs 1 + RECENCY_WEIGHT times the first. */
const RECENCY_WEIGHT = 1;
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
  /** Each flat-agreement phrase as its normalised words. */
  flatAgreements: string[][];
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
      flatAgreements: lexicon.flatAgreements.map((phrase) => tokenize(phrase, key === 'hi-latn' ? 'hi' : key)),
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

/** Courtesy-strength entries: thanks (1), apologies (-0.3), "no problem" (1). Mood words are stronger. */
function isMild(lexiconValence: number): boolean {
  return lexiconValence > -0.5 && lexiconValence <= 1;
}

interface ScoredMatch {
  /** Word position in the segment (all clauses counted). */
  position: number;
  /** Index of the clause the match lies in. */
  clause: number;
  valence: number;
  /** From a mild lexicon entry (|valence| <= 1): courtesy, not mood. */
  mild: boolean;
}

/** Where a dismissive repeated agreement ("haan haan", "हाँ हाँ ठीक है", "சரி சரி") ends in `words`, or -1. */
function flatAgreementEnd(lexicons: readonly CompiledSentimentLexicon[], words: readonly string[]): number {
  for (let index = 0; index < words.length; index++) {
    for (const lexicon of lexicons) {
      for (const phrase of lexicon.flatAgreements) {
        const size = phrase.length;
        if (index + 2 * size > words.length) continue;
        let repeated = true;
        for (let offset = 0; offset < size && repeated; offset++) {
          repeated = words[index + offset] === phrase[offset] && words[index + size + offset] === phrase[offset];
        }
        if (repeated) return index + 2 * size;
      }
    }
  }
  return -1;
}

/**
 * The raw (unnormalised) valence of one piece of text (one speaker's turn): the sum over its sentiment words and
 * phrases, with negation, intensifiers and contrast as described above, and two turn-level readings:
 *   - a dismissive repeated agreement ("haan haan", "yeah yeah", "हो हो", "ஆமா ஆமா", "అవును అవును") is itself
 *     negative, and the praise that follows it in the turn is sarcastic ("haan haan, bilkul, bahut accha plan
 *     hoga"): it counts negated;
 *   - a pleasantry or praise before a complaint in the same turn, with no "but" between, is sarcasm or
 *     politeness ("Wah, bahut badhiya service hai. Teen hafte se refund pending hai"; "अच्छा हुआ आपने फ़ोन किया।
 *     मेरी EMI दो बार कट गई"): it does not count as positive.
 */
export function textValence(text: string, language: string): number {
  const { courtesy, rest } = turnValence(text, language);
  return courtesy + rest;
}

/**
 * A turn's valence in two parts: `courtesy`, from mild words (|valence| <= 1 in the lexicon: "thanks", "धन्यवाद",
 * "sorry"), which a closing formula carries whatever the mood; and `rest`, everything else. Only `rest` gains
 * weight from coming late in the call.
 */
interface TurnValence {
  courtesy: number;
  rest: number;
}

function turnValence(text: string, language: string): TurnValence {
  const clauses = tokenizeClauses(text, language);
  const allWords = clauses.flat();
  const lexicons = lexiconKeysForWords(language, allWords).map(compiledLexicon);
  if (lexicons.length === 0) return { courtesy: 0, rest: 0 };

  const scored: ScoredMatch[] = [];
  const phraseIndexes = lexicons.map((lexicon) => lexicon.phrases);
  const negationRules = lexicons.map((lexicon) => lexicon.negation);
  let contrastPosition = -1;
  let negatorPresent = false;
  let offset = 0;
  clauses.forEach((words, clause) => {
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
      scored.push({ position: offset + match.start, clause, valence, mild: isMild(match.value) });
    }
    negatorPresent ||= words.some(
      (word, i) => !covered.has(i) && negationRules.some((rule) => rule.before.has(word) || rule.after.has(word)),
    );
    if (contrastPosition < 0) {
      const index = words.findIndex((word, i) => !covered.has(i) && lexicons.some((l) => l.contrastWords.has(word)));
      if (index >= 0) contrastPosition = offset + index;
    }
    offset += words.length;
  });

  let courtesyAdjustment = 0;
  const flatEnd = flatAgreementEnd(lexicons, allWords);
  if (flatEnd >= 0) {
    const praiseAfter = scored.filter((match) => match.position >= flatEnd && match.valence > 0);
    const refusalOrComplaint = negatorPresent || scored.some((match) => match.valence < 0);
    if (praiseAfter.length === 0) {
      // "हाँ हाँ ठीक है, भर दूँगा": agreement to end the conversation.
      courtesyAdjustment += FLAT_AGREEMENT_VALENCE;
    } else if (refusalOrComplaint) {
      // "Haan haan, bilkul, bahut accha plan hoga. Mujhe nahi lena": the praise is sarcastic.
      courtesyAdjustment += FLAT_AGREEMENT_VALENCE;
      for (const match of praiseAfter) {
        match.valence *= NEGATED_POSITIVE_FACTOR;
        match.mild = false;
      }
    }
    // Otherwise eager ("हाँ हाँ, आ गया। बहुत बहुत शुक्रिया"): the repetition adds nothing.
  }
  const last = scored[scored.length - 1];
  if (contrastPosition < 0 && last && last.valence <= COMPLAINT_VALENCE) {
    // The turn ends in a complaint: what was pleasant before it, in earlier clauses, was sarcasm or politeness.
    for (const match of scored) {
      if (match.valence > 0 && match.clause < last.clause) match.valence *= PLEASANTRY_BEFORE_COMPLAINT_FACTOR;
    }
  }
  let courtesy = courtesyAdjustment;
  let rest = 0;
  for (const { position, valence, mild } of scored) {
    const weighted =
      contrastPosition < 0 ? valence : valence * (position < contrastPosition ? BEFORE_CONTRAST_FACTOR : AFTER_CONTRAST_FACTOR);
    if (mild) courtesy += weighted;
    else rest += weighted;
  }
  return { courtesy, rest };
}

/**
 * Weights of a speaker's turns in order: the first counts 1, the last 1 + RECENCY_WEIGHT, those between in
 * proportion. How a call ended says more about how it went than how it started.
 */
export function recencyWeights(turns: number): number[] {
  if (turns === 1) return [1];
  return Array.from({ length: turns }, (_, index) => 1 + (RECENCY_WEIGHT * index) / (turns - 1));
}

function weightedScore(
  segments: readonly TranscriptSegment[],
  valenceOf: ReadonlyMap<TranscriptSegment, TurnValence>,
): number {
  const weights = recencyWeights(segments.length);
  let sum = 0;
  segments.forEach((segment, index) => {
    const valence = valenceOf.get(segment);
    if (valence) sum += valence.courtesy + valence.rest * weights[index]!;
  });
  return normalizeValence(sum);
}

/**
 * The segments that speak for the customer. Labelled transcripts: the customer's. Unlabelled ones with two or
 * more speakers: everyone but the one who opened the call (the agent or voice bot of an outbound call), so the
 * script's courtesy never counts as the customer's mood.
 */
function customerVoice(segments: readonly TranscriptSegment[]): TranscriptSegment[] {
  const labelled = segments.some((s) => ['customer', 'agent'].includes(s.speaker.toLowerCase()));
  if (labelled) return customerSegments(segments);
  const speakers = new Set(segments.map((segment) => segment.speaker));
  if (speakers.size < 2) return [...segments];
  const agent = agentSpeaker(segments);
  return segments.filter((segment) => segment.speaker !== agent);
}

export function analyzeSentiment(segments: readonly TranscriptSegment[], language: string): SentimentResult {
  // Turns are taken in transcript order (time order, as transcripts are produced): no sort, linear time.
  const inOrder = segments;
  const valenceOf = new Map<TranscriptSegment, TurnValence>();
  const turnsBySpeaker = new Map<string, TranscriptSegment[]>();
  for (const segment of inOrder) {
    valenceOf.set(segment, turnValence(segment.text, language));
    const turns = turnsBySpeaker.get(segment.speaker) ?? [];
    turns.push(segment);
    turnsBySpeaker.set(segment.speaker, turns);
  }
  const by_speaker: Record<string, number> = {};
  for (const [speaker, turns] of turnsBySpeaker) by_speaker[speaker] = weightedScore(turns, valenceOf);
  return { overall: weightedScore(customerVoice(inOrder), valenceOf), by_speaker };
}
