/**
 * The customer's primary intent, from weighted phrase rules per language (lexicon/intent/*.ts).
 *
 * Only the customer's words count (all segments when nobody is labelled customer or agent). In each segment,
 * every phrase match counts except those inside a longer match ("interested" inside "not interested"), and each
 * label scores its heaviest phrase there; scores add up over segments. Interest phrases resolve to
 * `loan_renewal_interest` when the call (any speaker) talks about renewing a loan, else to `interested`; a
 * negated interest phrase ("renew nahi karna") counts for `not_interested` and a negated promise ("I can't
 * pay") counts for nothing. The highest score wins; ties go by INTENT_PRIORITY; nothing scoring at least
 * MINIMUM_SCORE gives null.
 */
import type { TranscriptSegment } from './port.ts';
import { INTENT_LABELS, INTENT_PRIORITY, type IntentLabel } from './intent-labels.ts';
import type { IntentRuleLabel, WeightedPhrase } from './lexicon/intent/intent-lexicon.ts';
import { intentLexicons } from './lexicon/intent/index.ts';
import { lexiconKeysForWords, type LexiconKey } from '../../domain/shared/text/lexicon-selection.ts';
import { isNegated } from '../../domain/shared/text/negation-scope.ts';
import { negationRule } from './negation.ts';
import { tokenizeClauses } from '../../domain/shared/text/normalize.ts';
import { containsAny, maximalMatches, PhraseIndex } from './phrase-index.ts';
import { customerSegments } from '../../domain/shared/text/speaker-roles.ts';
import { classifyReply } from './customer-reply.ts';

const MINIMUM_SCORE = 1;
/** The weight of the customer's last turn that carries any cue, against 1 for the others. */
const LAST_TURN_WEIGHT = 1.5;
/** An agent's cue at least this strong, confirmed by the customer's "yes", counts CONFIRMED_CUE_WEIGHT for them. */
const STRONG_CUE = 2;
const CONFIRMED_CUE_WEIGHT = 1;

interface IntentCue {
  label: IntentRuleLabel;
  weight: number;
}

interface CompiledIntentLexicon {
  cues: PhraseIndex<IntentCue>;
  loanWords: PhraseIndex<true>;
  renewalWords: PhraseIndex<true>;
  formWords: PhraseIndex<true>;
}

const compiledLexicons = new Map<LexiconKey, CompiledIntentLexicon>();

function compiledLexicon(key: LexiconKey): CompiledIntentLexicon {
  let compiled = compiledLexicons.get(key);
  if (!compiled) {
    const lexicon = intentLexicons[key];
    const cues: [string, IntentCue][] = [];
    for (const [label, phrases] of Object.entries(lexicon.phrases) as [IntentRuleLabel, readonly WeightedPhrase[]][]) {
      for (const [phrase, weight] of phrases) cues.push([phrase, { label, weight }]);
    }
    compiled = {
      cues: new PhraseIndex(cues, key),
      loanWords: new PhraseIndex(lexicon.loanWords.map((word) => [word, true] as const), key),
      renewalWords: new PhraseIndex(lexicon.renewalWords.map((word) => [word, true] as const), key),
      formWords: new PhraseIndex(lexicon.formWords.map((word) => [word, true] as const), key),
    };
    compiledLexicons.set(key, compiled);
  }
  return compiled;
}

interface AnalysedSegment {
  clauses: string[][];
  keys: LexiconKey[];
}

function analyse(segment: TranscriptSegment, language: string): AnalysedSegment {
  const clauses = tokenizeClauses(segment.text, language);
  return { clauses, keys: lexiconKeysForWords(language, clauses.flat()) };
}

/** The heaviest cue of each rule label in one segment. */
function segmentCueScores(segment: AnalysedSegment): Map<IntentRuleLabel, number> {
  const best = new Map<IntentRuleLabel, number>();
  const lexicons = segment.keys.map(compiledLexicon);
  const indexes = lexicons.map((lexicon) => lexicon.cues);
  const negationRules = segment.keys.map(negationRule);
  // "फॉर्म भेज दीजिए, मैं भर दूँगी": in a turn about a form, Hindi and Marathi "fill" is not "pay".
  const formIndexes = lexicons.map((lexicon) => lexicon.formWords);
  const namesForm = segment.clauses.some((words) => containsAny(formIndexes, words));
  for (const words of segment.clauses) {
    for (const match of maximalMatches(indexes, words)) {
      let label = match.value.label;
      if (label === 'payment_promise' && namesForm) continue;
      if (label === 'interest' || label === 'payment_promise') {
        // Negators inside other cues still negate here: in "I don't want to renew", "don't" is part of the
        // not_interested cue "don't want" and also negates "renew".
        if (isNegated(words, match.start, match.end, negationRules)) {
          if (label === 'payment_promise') continue;
          label = 'not_interested';
        }
      }
      best.set(label, Math.max(best.get(label) ?? 0, match.value.weight));
    }
  }
  return best;
}

/** The last sentence of a turn: what a "yes" right after it answers ("We are updating records. Is it still Adyar?"). */
function lastSentence(segment: TranscriptSegment, language: string): AnalysedSegment {
  const sentences = segment.text.split(/(?<=[.!?।॥])\s+/u).filter((sentence) => sentence.trim() !== '');
  return analyse({ ...segment, text: sentences[sentences.length - 1] ?? '' }, language);
}

/** Whether the turn's first clause is a plain "yes" ("Yes,", "हाँ,", "Haan ji", "हो,", "ஆமாம்,", "అవును,"). */
function opensWithYes(segment: TranscriptSegment, language: string): boolean {
  const first = segment.text.split(/[.,!?;:।॥\n]/u)[0] ?? '';
  return classifyReply(first, language).intent === 'affirm';
}

/**
 * The intent labels whose strong cues (weight >= 2) one turn carries, interest resolved to `interested` (a
 * negated interest phrase is `not_interested`). Sentiment reads a turn's requests with it: an opt-out or a
 * brush-off says something about the mood too.
 */
export function turnRequests(text: string, language: string): Set<IntentRuleLabel> {
  const requests = new Set<IntentRuleLabel>();
  const cues = segmentCueScores(analyse({ speaker: 'customer', text, start_time: 0, end_time: 0 }, language));
  for (const [label, weight] of cues) if (weight >= STRONG_CUE) requests.add(label);
  return requests;
}

function talksAboutLoanRenewal(segments: readonly AnalysedSegment[]): boolean {
  let loan = false;
  let renewal = false;
  for (const segment of segments) {
    const lexicons = segment.keys.map(compiledLexicon);
    for (const words of segment.clauses) {
      loan ||= containsAny(lexicons.map((lexicon) => lexicon.loanWords), words);
      renewal ||= containsAny(lexicons.map((lexicon) => lexicon.renewalWords), words);
    }
  }
  return loan && renewal;
}

/** The score of every intent label for the transcript (all zero when nothing matched). */
export function intentScores(segments: readonly TranscriptSegment[], language: string): Record<IntentLabel, number> {
  const scores = Object.fromEntries(INTENT_LABELS.map((label) => [label, 0])) as Record<IntentLabel, number>;
  const customer = new Set(customerSegments(segments));
  const analysed = segments.map((segment) => ({ segment, analysis: analyse(segment, language) }));
  const interestLabel: IntentLabel = talksAboutLoanRenewal(analysed.map((a) => a.analysis))
    ? 'loan_renewal_interest'
    : 'interested';
  const cueScores = analysed
    .map(({ segment, analysis }, index) => {
      if (!customer.has(segment)) return new Map<IntentRuleLabel, number>();
      const cues = segmentCueScores(analysis);
      const previous = analysed[index - 1];
      if (previous && !customer.has(previous.segment) && opensWithYes(segment, language)) {
        // "Calling about the complaint you raised." "Yes, I was very upset about that charge": the customer's yes
        // makes the agent's request the customer's own, as a supporting cue (the customer's own words outweigh it).
        for (const [label, weight] of segmentCueScores(lastSentence(previous.segment, language))) {
          if (weight >= STRONG_CUE) cues.set(label, Math.max(cues.get(label) ?? 0, CONFIRMED_CUE_WEIGHT));
        }
      }
      return cues;
    })
    .filter((cues) => cues.size > 0);
  cueScores.forEach((cues, index) => {
    // The customer's last turn with a cue is where the call ended up ("how much?" ... "OK, book it").
    const weight = index === cueScores.length - 1 && cueScores.length > 1 ? LAST_TURN_WEIGHT : 1;
    for (const [label, score] of cues) scores[label === 'interest' ? interestLabel : label] += score * weight;
  });
  return scores;
}

export function detectIntent(segments: readonly TranscriptSegment[], language: string): IntentLabel | null {
  const scores = intentScores(segments, language);
  let winner: IntentLabel | null = null;
  for (const label of INTENT_PRIORITY) {
    if (scores[label] >= MINIMUM_SCORE && (winner === null || scores[label] > scores[winner])) winner = label;
  }
  return winner;
}
