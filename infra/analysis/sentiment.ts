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
import { turnRequests } from './intent.ts';
import type { IntentRuleLabel } from './lexicon/intent/intent-lexicon.ts';

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
/**
 * The same agreement in a turn that brushes the caller off (asks to be called later, refuses, opts out): "हाँ हाँ,
 * अभी मीटिंग में हूँ, बाद में करना", "ஆமா ஆமா ... அப்புறம் கூப்பிடுங்க". Impatience, negative on its own.
 */
const FLAT_AGREEMENT_BRUSH_OFF_VALENCE = -1.5;
/** The turn requests that brush the caller off (intent cues of weight >= 2 in the turn). */
const BRUSH_OFFS: readonly IntentRuleLabel[] = ['callback_request', 'not_interested', 'dnd_request'];
/**
 * Asking not to be called again is displeasure with the calls, whatever the words ("Remove my number. Do not
 * call me again."): negative on its own; a courteous one ("Please take my number off your list. Thank you.")
 * stays neutral, as its thanks (+1) offsets most of it. Not weighted by recency: it is an act, not a mood.
 */
const OPT_OUT_VALENCE = -1.5;
// (A floor, not an addition: what the turn already says against the calls counts towards it.)
/**
 * A short question with a pleasant word ("Happy now?", "Khush?", "झालं समाधान?") asks, it does not say the
 * speaker is pleased: it counts nothing, and negated (x NEGATED_POSITIVE_FACTOR) when the speaker was already
 * negative earlier in the call or the turn: then it is rhetorical.
 */
const RHETORICAL_QUESTION_WORDS = 4;
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
  pastMarkers: Set<string>;
  /** English puts "was" before the state word; the Indic languages put था, होतो, இருந்தது after it. */
  pastMarkerBefore: boolean;
}

const compiledLexicons = new Map<LexiconKey, CompiledSentimentLexicon>();

/**
 * Marathi glues its emphatic particle to the word ("छानच", "नक्कीच", "बरोबरच"): every single-word entry also
 * matches with a final च, at the same valence. Stems (`आवड*`) match such forms already.
 */
function withEmphaticForms(key: LexiconKey, valences: Record<string, number>): [string, number][] {
  const entries = Object.entries(valences);
  if (key !== 'mr') return entries;
  const emphatic: [string, number][] = [];
  for (const [word, valence] of entries) {
    if (/[\s*]/u.test(word) || `${word}च` in valences) continue;
    emphatic.push([`${word}च`, valence]);
  }
  return [...entries, ...emphatic];
}

const CLAUSE_WITH_BREAK = /([.,!?;:।॥\n]+)/u;

/** For each non-empty clause of tokenizeClauses(text), whether it is a short question (at most N words, ends in ?). */
function shortQuestions(text: string, language: string): boolean[] {
  const pieces = text.split(CLAUSE_WITH_BREAK);
  const flags: boolean[] = [];
  for (let index = 0; index < pieces.length; index += 2) {
    const words = tokenize(pieces[index]!, language);
    if (words.length === 0) continue;
    flags.push(words.length <= RHETORICAL_QUESTION_WORDS && (pieces[index + 1] ?? '').includes('?'));
  }
  return flags;
}

function compiledLexicon(key: LexiconKey): CompiledSentimentLexicon {
  let compiled = compiledLexicons.get(key);
  if (!compiled) {
    const lexicon = sentimentLexicons[key];
    compiled = {
      phrases: new PhraseIndex(withEmphaticForms(key, lexicon.valences), key),
      negation: negationRule(key),
      intensifiers: new Map(
        Object.entries(lexicon.intensifiers).map(([word, factor]) => [normalizeText(word), factor]),
      ),
      contrastWords: new Set(lexicon.contrastWords.map(normalizeText)),
      flatAgreements: lexicon.flatAgreements.map((phrase) => tokenize(phrase, key === 'hi-latn' ? 'hi' : key)),
      pastMarkers: new Set(lexicon.pastMarkers.map(normalizeText)),
      pastMarkerBefore: key === 'en',
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
  /** A state said in the past tense ("परेशान था", "I was upset"). */
  past: boolean;
}

/** How many words from a state word its past-tense marker may stand ("I was very upset", "खूप वैतागलो होतो"). */
const PAST_MARKER_REACH = 2;

function saidInThePast(lexicons: readonly CompiledSentimentLexicon[], words: readonly string[], match: PhraseMatch<number>): boolean {
  for (let distance = 1; distance <= PAST_MARKER_REACH; distance++) {
    for (const lexicon of lexicons) {
      const index = lexicon.pastMarkerBefore ? match.start - distance : match.end - 1 + distance;
      const word = words[index];
      if (word !== undefined && lexicon.pastMarkers.has(word)) return true;
    }
  }
  return false;
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
  const { courtesy, rest, askedPleasure } = turnValence(text, language);
  return courtesy + rest + (courtesy + rest < 0 ? askedPleasure * NEGATED_POSITIVE_FACTOR : 0);
}

/**
 * A turn's valence in two parts: `courtesy`, from mild words (|valence| <= 1 in the lexicon: "thanks", "धन्यवाद",
 * "sorry"), which a closing formula carries whatever the mood; and `rest`, everything else. Only `rest` gains
 * weight from coming late in the call.
 */
interface TurnValence {
  courtesy: number;
  rest: number;
  /** Pleasant words in short questions, left out of courtesy and rest: rhetorical if the speaker was negative. */
  askedPleasure: number;
}

function turnValence(text: string, language: string): TurnValence {
  const clauses = tokenizeClauses(text, language);
  const allWords = clauses.flat();
  const lexicons = lexiconKeysForWords(language, allWords).map(compiledLexicon);
  if (lexicons.length === 0) return { courtesy: 0, rest: 0, askedPleasure: 0 };
  const questions = shortQuestions(text, language);
  let askedPleasure = 0;

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
      if (valence > 0 && questions[clause]) {
        askedPleasure += valence;
        continue;
      }
      const past = valence < 0 && saidInThePast(lexicons, words, match);
      scored.push({ position: offset + match.start, clause, valence, mild: isMild(match.value), past });
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

  if (scored.some((match) => match.valence > 0)) {
    // "चलो अच्छा हुआ, मैं परेशान था कि पहुँची या नहीं": the worry was, the relief is.
    for (const match of scored) if (match.past) match.valence = 0;
  }
  let courtesyAdjustment = 0;
  const requests = turnRequests(text, language);
  if (requests.has('dnd_request')) {
    // "Remove my number. Do not call me again.": an opt-out is displeasure with the calls, at least OPT_OUT_VALENCE
    // of it; a turn that already says so in words ("don't call again, these calls...") is not counted twice.
    const said = scored.reduce((sum, match) => sum + Math.min(0, match.valence), 0);
    if (said > OPT_OUT_VALENCE) courtesyAdjustment += OPT_OUT_VALENCE - said;
  }
  const flatEnd = flatAgreementEnd(lexicons, allWords);
  if (flatEnd >= 0) {
    const praiseAfter = scored.filter((match) => match.position >= flatEnd && match.valence > 0);
    const brushOff = BRUSH_OFFS.some((label) => requests.has(label));
    const refusalOrComplaint = brushOff || negatorPresent || scored.some((match) => match.valence < 0);
    const agreementValence = brushOff ? FLAT_AGREEMENT_BRUSH_OFF_VALENCE : FLAT_AGREEMENT_VALENCE;
    if (praiseAfter.length === 0) {
      // "हाँ हाँ ठीक है, भर दूँगा": agreement to end the conversation.
      courtesyAdjustment += agreementValence;
    } else if (refusalOrComplaint) {
      // "Haan haan, bilkul, bahut accha plan hoga. Mujhe nahi lena": the praise is sarcastic.
      courtesyAdjustment += agreementValence;
      for (const match of praiseAfter) {
        match.valence *= NEGATED_POSITIVE_FACTOR;
        match.mild = false;
      }
    }
    // Otherwise eager ("हाँ हाँ, आ गया। बहुत बहुत शुक्रिया"): the repetition adds nothing.
  }
  const last = scored.filter((match) => match.valence !== 0).at(-1);
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
  return { courtesy, rest, askedPleasure };
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
  let negativeSoFar = false;
  segments.forEach((segment, index) => {
    const valence = valenceOf.get(segment);
    if (!valence) return;
    const said = valence.courtesy + valence.rest * weights[index]!;
    negativeSoFar ||= valence.courtesy + valence.rest < 0;
    // "The 10th. Happy now?" after "You don't need to call me five times a day": rhetorical.
    const asked = negativeSoFar ? valence.askedPleasure * NEGATED_POSITIVE_FACTOR * weights[index]! : 0;
    sum += said + asked;
  });
  return normalizeValence(sum);
}

/**
 * The segments that speak for the customer. Labelled transcripts: the customer's. Unlabelled ones with two or
 * more speakers: everyone but the one who opened the call (the agent or voice bot of an outbound call), so the
 * script's courtesy never counts as the customer's mood.
 */
export function customerVoice(segments: readonly TranscriptSegment[]): TranscriptSegment[] {
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
