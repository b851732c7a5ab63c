/**
 * A summary a supervisor would write, in 2 to 4 sentences in the call's language (English for Hinglish):
 *
 * 1. Who called whom about what: the organisation from the agent's self-introduction, the person the agent asked
 *    for by name, the product named first, and the amounts, days and ids the agent mentioned (entities/): "IDFC
 *    First Bank called the customer about the EMI (₹8,450 EMI, 5th, 12th)."
 * 2. (and 3.) What the customer said or asked: one or two of the customer's own sentences, the most informative
 *    ones: those with an amount, a day or time, a question, a cue of the call's intent, and content words, ranked
 *    together with their TextRank centrality among the customer's sentences. Script boilerplate and pleasantries
 *    (boilerplate.ts) are never chosen, and agent sentences are never quoted.
 * 3. (or 4.) The outcome and the next step: the intent (given, or detected), the disposition when known, the
 *    customer's tone when not neutral, and what to do next (call back at the time the customer named, check the
 *    promised payment, remove the number, escalate, send details, process the renewal).
 *
 * Deterministic, offline, and bounded whatever the transcript's size: the sentence split reads at most
 * MAX_SCANNED_SEGMENTS segments, facts come from the first MAX_AGENT_SENTENCES agent sentences, and at most
 * MAX_CUSTOMER_SENTENCES customer sentences (the first and the last ones) are scored.
 */
import type { SentimentResult, TranscriptSegment } from './port.ts';
import { isIntentLabel, type IntentLabel } from './intent-labels.ts';
import { detectIntent, intentScores } from './intent.ts';
import { lexiconKeysForWords } from '../../domain/shared/text/lexicon-selection.ts';
import { agentSpeaker } from '../../domain/shared/text/speaker-roles.ts';
import { stopwords } from './lexicon/stopwords.ts';
import { languageSubtag } from '../../domain/shared/language.ts';
import { normalizeText, tokenize } from '../../domain/shared/text/normalize.ts';
import { analyzeSentiment, sentimentBucket } from './sentiment.ts';
import { mostCentral } from './text-rank.ts';
import { isBoilerplate } from './boilerplate.ts';
import { extractEntities, formatRupees, type Entities } from './entities/entities.ts';
import { calledPerson, callingOrganisation, namedProduct } from './entities/caller.ts';
import {
  SUMMARY_TEMPLATES,
  summaryLanguage,
  type NextStep,
  type OutcomeFacts,
  type SummaryTemplates,
} from './summary-templates.ts';

/**
 * Segments the sentence split reads at most. A 4-hour call has a few thousand; a longer transcript is read as an
 * evenly spaced sample (its first and last segment included), so the split's cost stays bounded too.
 */
export const MAX_SCANNED_SEGMENTS = 5_000;
/** Agent sentences read for the organisation, product, amounts and days: the call's purpose is stated early. */
export const MAX_AGENT_SENTENCES = 40;
/** Customer sentences scored as quotes: the first 40 and the last 160 (requests and outcomes come late). */
export const MAX_CUSTOMER_SENTENCES = 200;
const FIRST_CUSTOMER_SENTENCES = 40;
const MIN_QUOTE_WORDS = 3;
/** Characters of the agent's first turn searched for the name of the person called. */
const MAX_OPENING_CHARACTERS = 500;
const MAX_QUOTE_CHARACTERS = 180;
const MAX_FACTS = { amounts: 2, days: 2, ids: 1 };

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

const LATIN = /\p{Script=Latin}/gu;
const INDIC = /[\p{Script=Devanagari}\p{Script=Tamil}\p{Script=Telugu}]/gu;

/** Romanised Indic (Hinglish) is summarised in English: more Latin letters than Indic ones. */
function mostlyLatin(sentences: readonly Sentence[]): boolean {
  let latin = 0;
  let indic = 0;
  for (const sentence of sentences.slice(0, 200)) {
    latin += sentence.text.match(LATIN)?.length ?? 0;
    indic += sentence.text.match(INDIC)?.length ?? 0;
  }
  return latin > indic;
}

/** A label the analyzer does not know, made readable: `payment_dispute` -> `payment dispute`. */
function humanise(label: string): string {
  return label.replace(/_/g, ' ');
}

interface CallFacts {
  organisation: string | null;
  product: string | null;
  /** Amounts, days and ids the agent mentioned, formatted for the first sentence. */
  mentioned: string[];
  /** The agent's amounts (the amount due when the customer names none). */
  agentAmounts: Entities['amounts'];
}

function callFacts(agent: readonly Sentence[], customer: readonly Sentence[], templates: SummaryTemplates): CallFacts {
  const opening = agent.slice(0, 6).map((sentence) => sentence.text).join(' ');
  const organisation = callingOrganisation(opening);
  const product =
    namedProduct(agent.slice(0, 6).flatMap((sentence) => sentence.words)) ??
    namedProduct(customer.slice(0, 6).flatMap((sentence) => sentence.words));
  const amounts = new Map<number, string>();
  const agentAmounts: Entities['amounts'] = [];
  const days = new Set<string>();
  const ids = new Set<string>();
  for (const sentence of agent.slice(0, MAX_AGENT_SENTENCES)) {
    const entities = extractEntities(sentence.text);
    for (const amount of entities.amounts) {
      agentAmounts.push(amount);
      if (!amounts.has(amount.rupees) && amounts.size < MAX_FACTS.amounts) {
        const formatted = formatRupees(amount.rupees, templates.scale);
        amounts.set(amount.rupees, amount.emi ? templates.emi(formatted) : formatted);
      }
    }
    for (const when of entities.when) if (when.kind === 'day' && days.size < MAX_FACTS.days) days.add(when.text);
    for (const id of entities.ids) if (ids.size < MAX_FACTS.ids) ids.add(`#${id}`);
  }
  return { organisation, product, mentioned: [...amounts.values(), ...days, ...ids], agentAmounts };
}

interface ScoredSentence {
  sentence: Sentence;
  entities: Entities;
  question: boolean;
  /** Carries a cue of the call's intent. */
  cue: boolean;
  score: number;
}

const QUESTION = /[?？]\s*["'”’)]*$/u;

function scoreCustomerSentences(
  customer: readonly Sentence[],
  language: string,
  intent: string | null,
): ScoredSentence[] {
  const candidates = customer.filter(
    (sentence) => !isBoilerplate(sentence.text, sentence.words, language) && sentence.words.length >= 2,
  );
  const central = new Set(mostCentral(candidates, 3).map((sentence) => sentence.position));
  const last = customer[customer.length - 1]?.position ?? 0;
  const first = customer[0]?.position ?? 0;
  return candidates.map((sentence) => {
    const entities = extractEntities(sentence.text);
    const question = QUESTION.test(sentence.text);
    const cue =
      intent !== null && isIntentLabel(intent)
        ? intentScores([{ speaker: 'customer', text: sentence.text, start_time: 0, end_time: 0 }], language)[intent] > 0
        : false;
    const lateness = last > first ? (sentence.position - first) / (last - first) : 1;
    const score =
      Math.min(sentence.contentWords.size, 10) * 0.3 +
      (entities.amounts.length > 0 ? 3 : 0) +
      (entities.when.length > 0 ? 2 : 0) +
      (question ? 1.5 : 0) +
      (cue ? 2.5 : 0) +
      (central.has(sentence.position) ? 1 : 0) +
      lateness * 0.5 -
      (sentence.words.length < MIN_QUOTE_WORDS && entities.amounts.length + entities.when.length === 0 ? 5 : 0);
    return { sentence, entities, question, cue, score };
  });
}

/** What a quote brings that another lacks: an amount, a day or time, a question, an intent cue. */
function adds(candidate: ScoredSentence, to: ScoredSentence): boolean {
  return (
    (candidate.entities.amounts.length > 0 && to.entities.amounts.length === 0) ||
    (candidate.entities.when.length > 0 && to.entities.when.length === 0) ||
    (candidate.question && !to.question) ||
    (candidate.cue && !to.cue)
  );
}

/** One or two quotes: the best sentence, and a second when it adds something the first lacks. */
function chooseQuotes(scored: readonly ScoredSentence[]): ScoredSentence[] {
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.sentence.position - b.sentence.position);
  const best = ranked[0];
  if (!best || best.score <= 0) return [];
  const second = ranked.slice(1).find(
    (candidate) =>
      candidate.score >= 3 &&
      adds(candidate, best) &&
      candidate.sentence.text !== best.sentence.text &&
      best.sentence.text.length + candidate.sentence.text.length <= 2 * MAX_QUOTE_CHARACTERS,
  );
  return (second ? [best, second] : [best]).sort((a, b) => a.sentence.position - b.sentence.position);
}

const TERMINAL_PUNCTUATION = /[.!?।॥…]["'”’)]*$/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;

function quoteText(text: string): string {
  let quote = text.replace(/[“”"]/g, '').trim();
  if (quote.length > MAX_QUOTE_CHARACTERS) {
    const cut = quote.slice(0, MAX_QUOTE_CHARACTERS);
    quote = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_QUOTE_CHARACTERS / 2)).trim()}…`;
  }
  if (!TERMINAL_PUNCTUATION.test(quote)) quote += DEVANAGARI.test(quote) && !/[.]/.test(quote) ? '।' : '.';
  return quote;
}

/**
 * The day or time of the next step: the last one the customer named in a sentence with the intent's cue ("I will
 * pay it by Friday"), else the last one the customer named (all of one sentence's mentions together: "tomorrow
 * morning, around ten"), else the agent's last in the closing sentences ("after 6 pm today?").
 */
function namedWhen(customer: readonly ScoredSentence[], agentClosing: readonly Sentence[]): string | null {
  const withWhen = customer.filter((scored) => scored.entities.when.length > 0);
  const chosen = withWhen.filter((scored) => scored.cue).pop() ?? withWhen.pop();
  if (chosen) return chosen.entities.when.map((when) => when.text).join(' ');
  for (const sentence of [...agentClosing].reverse()) {
    const when = extractEntities(sentence.text).when;
    if (when.length > 0) return when.map((mention) => mention.text).join(' ');
  }
  return null;
}

function nextStep(intent: string | null, disposition: string | null | undefined): NextStep | null {
  if (disposition === 'dnd' || intent === 'dnd_request') return 'opt_out';
  if (intent === 'wrong_number') return 'fix_record';
  if (disposition === 'escalated' || intent === 'human_agent_request' || intent === 'complaint') return 'escalate';
  if (disposition === 'callback' || intent === 'callback_request') return 'callback';
  if (intent === 'payment_promise') return 'payment';
  if (disposition === 'not_interested' || disposition === 'not_reachable' || intent === 'not_interested') return null;
  if (intent === 'loan_renewal_interest') return 'renewal';
  if (intent === 'interested' || disposition === 'interested') return 'send_details';
  return null;
}

function outcomeSentence(
  templates: SummaryTemplates,
  intent: string | null,
  disposition: string | null | undefined,
  tone: 'positive' | 'negative' | null,
  facts: OutcomeFacts,
): string {
  const known = intent !== null && isIntentLabel(intent) ? templates.outcome[intent as IntentLabel] : undefined;
  const outcome = intent === null ? templates.noIntent : known ? known(facts) : templates.otherIntent(humanise(intent));
  const ending = disposition
    ? templates.endedAs(templates.disposition[disposition] ?? templates.otherDisposition(humanise(disposition)))
    : '';
  const step = nextStep(intent, disposition);
  return templates.outcomeSentence(`${outcome}${ending}${tone ? templates.tone[tone] : ''}`, step ? templates.next[step](facts) : null);
}

function customerTone(segments: readonly TranscriptSegment[], language: string, sentiment: SentimentResult | undefined): 'positive' | 'negative' | null {
  const result = sentiment ?? analyzeSentiment(segments, language);
  const bucket = sentimentBucket(result.overall);
  return bucket === 'neutral' ? null : bucket;
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
  const sentences = splitSentences(segments, language);
  const templates = SUMMARY_TEMPLATES[summaryLanguage(languageSubtag(language), mostlyLatin(sentences))];
  const tone = customerTone(segments, language, input.sentiment);

  // The agent's sentences give the facts; everyone else's (the customer's) give the quotes.
  const agent = agentSpeaker(segments);
  const agentSentences = sentences.filter((sentence) => sentence.speaker === agent);
  const allCustomer = sentences.filter((sentence) => sentence.speaker !== agent);
  const customer =
    allCustomer.length <= MAX_CUSTOMER_SENTENCES
      ? allCustomer
      : [...allCustomer.slice(0, FIRST_CUSTOMER_SENTENCES), ...allCustomer.slice(-(MAX_CUSTOMER_SENTENCES - FIRST_CUSTOMER_SENTENCES))];

  const facts = callFacts(agentSentences, customer, templates);
  const scored = scoreCustomerSentences(customer, language, intent);
  const quotes = chooseQuotes(scored);
  const customerAmounts = scored.flatMap((entry) => entry.entities.amounts);
  // The amount the customer named, else the EMI the agent named (never another amount of the agent's: a fee).
  const promised = customerAmounts[customerAmounts.length - 1] ?? facts.agentAmounts.find((amount) => amount.emi);
  const outcomeFacts: OutcomeFacts = {
    when: namedWhen(scored, agentSentences.slice(-4)),
    amount: promised ? formatRupees(promised.rupees, templates.scale) : null,
  };

  // Whom the agent asks for in its first turn; in a wrong-number call that is not who answered.
  const firstAgentTurn = segments.reduce<TranscriptSegment | null>(
    (first, segment) => (segment.speaker === agent && (!first || segment.start_time < first.start_time) ? segment : first),
    null,
  );
  const person = intent === 'wrong_number' || !firstAgentTurn ? null : calledPerson(firstAgentTurn.text.slice(0, MAX_OPENING_CHARACTERS));
  const opening = templates.called(facts.organisation, person, facts.product, facts.mentioned);
  const ending = outcomeSentence(templates, intent, input.disposition, tone, outcomeFacts);
  if (sentences.length === 0) return `${ending} ${templates.noSpeech}`;
  const quoted = quotes.map((entry) => (entry.question ? templates.asked : templates.said)(quoteText(entry.sentence.text)));
  return [opening, ...quoted, ending].join(' ');
}
