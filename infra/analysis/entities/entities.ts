/**
 * Entities a supervisor's summary needs, found in one piece of call text: amounts in rupees, days and dates,
 * times, and loan / account ids. Pure functions, linear in the text's length, no model.
 *
 * Amounts: digits with or without grouping (₹5,000, Rs. 5000, 8,450 rupees, 5k), spoken numbers in every call
 * language (five thousand, पाँच हज़ार रुपये, साढ़े तीन लाख, दोन हजार, ரெண்டாயிரம் ரூபாய், ఐదు వేలు, లక్షన్నర). A
 * number is an amount when a currency word is next to it, when it has a scale word (thousand, लाख, ஆயிரம்), or
 * when it is written in digits of at least 100 with grouping or after a money word (EMI, due, premium, बकाया).
 * Never when a percent word, a date marker or an hour marker follows it, or an id word precedes it.
 * An amount within a few words of EMI / instalment (किस्त, हप्ता, தவணை, వాయిదా) is marked `emi`.
 *
 * Dates: relative days, weekdays, periods (calendar-words.ts), and days of the month (15th, 10 तारीख, पंद्रह
 * तारीख, 15ஆம் தேதி, 15వ తేదీ). Times: an hour with its marker (6 pm, 10 बजे, after six) and times of day.
 * Neighbouring day and time words make one mention ("tomorrow morning", "कल शाम").
 */
import { normalizeText } from '../../../domain/shared/text/normalize.ts';
import { PhraseIndex } from '../phrase-index.ts';
import {
  DAY_OF_MONTH_MARKERS,
  HOUR_MARKERS,
  HOUR_PREFIXES,
  ORDINAL_SUFFIXES,
  NEXT_OR_THIS,
  PERIODS,
  RELATIVE_DAYS,
  TIMES_OF_DAY,
  WEEKDAYS,
} from './calendar-words.ts';
import { numberWord } from './number-words.ts';

export interface AmountMention {
  /** Rupees. */
  rupees: number;
  /** The words as spoken. */
  text: string;
  /** Said next to EMI / instalment. */
  emi: boolean;
}

export type WhenKind = 'day' | 'time';

export interface WhenMention {
  /** `day` when it names a day or a period (tomorrow, Saturday, the 15th, next week), `time` for a time of day only. */
  kind: WhenKind;
  text: string;
}

export interface Entities {
  amounts: AmountMention[];
  when: WhenMention[];
  /** Loan, account, policy or card ids: "account ending 4471", "LN-20231234". */
  ids: string[];
}

interface Token {
  raw: string;
  word: string;
  start: number;
  end: number;
  /** Written onto the previous token without a space (15th, 5k, 15ஆம்). */
  glued: boolean;
  /** The digits' value when the token is a number written in digits. */
  digits: number | null;
  /** Digits written with grouping commas (5,000; 1,50,000). */
  grouped: boolean;
}

const TOKEN = /₹|%|[0-9०-९௦-௯౦-౯]+(?:[.,][0-9०-९௦-௯౦-౯]+)*|[\p{L}\p{M}\u200C\u200D]+/gu;
// Symbols the phrase matcher cannot see (it keeps letters and digits only) become words.
const SYMBOL_WORDS: Record<string, string> = { '₹': 'rs', '%': 'percent' };
const INDIC_DIGIT_ZEROS = [0x0966, 0x0be6, 0x0c66];

function asciiDigits(text: string): string {
  return text.replace(/[०-९௦-௯౦-౯]/g, (digit) => {
    const code = digit.codePointAt(0)!;
    const zero = INDIC_DIGIT_ZEROS.find((base) => code >= base && code <= base + 9)!;
    return String(code - zero);
  });
}

// Words repeat across sentences and calls: a bounded memo of their normal form.
const WORD_MEMO_LIMIT = 8192;
const wordMemo = new Map<string, string>();

function normalizedWord(raw: string): string {
  let word = wordMemo.get(raw);
  if (word === undefined) {
    word = normalizeText(raw);
    if (wordMemo.size >= WORD_MEMO_LIMIT) wordMemo.clear();
    wordMemo.set(raw, word);
  }
  return word;
}

function tokens(text: string): Token[] {
  const list: Token[] = [];
  let previousEnd = -1;
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const start = match.index!;
    const isDigits = /^[0-9०-९௦-௯౦-౯]/.test(raw);
    let digits: number | null = null;
    let grouped = false;
    if (isDigits) {
      const ascii = asciiDigits(raw);
      grouped = /^\d{1,3}(,\d{2,3})+(\.\d+)?$/.test(ascii);
      const value = Number(grouped ? ascii.replace(/,/g, '') : ascii.replace(/,(?=\d{3}\b)/g, ''));
      digits = Number.isFinite(value) ? value : null;
    }
    list.push({ raw, word: isDigits ? asciiDigits(raw) : (SYMBOL_WORDS[raw] ?? normalizedWord(raw)), start, end: start + raw.length, glued: start === previousEnd, digits, grouped });
    previousEnd = start + raw.length;
  }
  return list;
}

const indexes = new Map<readonly string[], PhraseIndex<true>>();
function indexOf(list: readonly string[]): PhraseIndex<true> {
  let index = indexes.get(list);
  if (!index) {
    index = new PhraseIndex(list.map((phrase) => [phrase, true] as const), 'und');
    indexes.set(list, index);
  }
  return index;
}

/** The length in words of the longest phrase of `list` starting at `index`, or 0. */
function matchLength(words: readonly string[], index: number, list: readonly string[]): number {
  const match = indexOf(list).longestMatchAt(words, index);
  return match ? match.end - match.start : 0;
}

const CURRENCY_BEFORE = ['rs', 'inr', 'रु', 'रू', 'ரூ', 'రూ'];
const CURRENCY_AFTER = [
  'rupees', 'rupee', 'rs', 'rupaye', 'rupaiye', 'rupay', 'bucks',
  'रुपये*', 'रुपए*', 'रुपया*', 'रुपयों*', 'रुपय*', 'रू', 'ரூபா*', 'ரூ', 'రూపాయ*', 'రూ',
];
const PERCENT = ['percent', 'per', 'pc', 'pratishat', 'प्रतिशत', 'टक्के', 'टक्का', 'சதவீத*', 'சதவிகித*', 'శాతం*'];
const EMI_WORDS = [
  'emi*', 'instalment*', 'installment*', 'kisht', 'kist', 'किस्त*', 'किश्त*', 'ईएमआई', 'हप्ता*', 'हप्ते*',
  'தவணை*', 'இஎம்ஐ', 'ஈஎம்ஐ', 'వాయిదా*', 'ఈఎంఐ',
];
const MONEY_WORDS = [
  ...EMI_WORDS, 'due', 'dues', 'amount', 'pay', 'paid', 'premium', 'limit', 'cover', 'balance', 'bill', 'outstanding',
  'charge*', 'fee', 'fees', 'transfer', 'deposit', 'refund', 'loan', 'of', 'बकाया', 'रकम', 'राशि', 'प्रीमियम', 'बिल',
  'रक्कम', 'थकबाकी', 'தொகை', 'பாக்கி', 'ప్రీమియం', 'బాకీ', 'మొత్తం',
];
const ID_WORDS = [
  'account', 'ac', 'a/c', 'loan', 'policy', 'card', 'number', 'no', 'id', 'ending', 'ref', 'reference', 'ticket',
  'खाता', 'खाते', 'अकाउंट', 'नंबर', 'पॉलिसी', 'लोन', 'क्रमांक', 'கணக்கு*', 'பாலிசி*', 'எண்*', 'நம்பர்*',
  'ఖాతా*', 'అకౌంట్*', 'పాలసీ*', 'నంబర్*',
];
const NOT_AN_AMOUNT_AFTER = [...PERCENT, ...DAY_OF_MONTH_MARKERS, ...HOUR_MARKERS, ...ORDINAL_SUFFIXES, 'months', 'month', 'years', 'year', 'days', 'emis', 'visits', 'minutes'];
const WINDOW = 3;

function isAny(words: readonly string[], index: number, list: readonly string[]): boolean {
  return index >= 0 && index < words.length && matchLength(words, index, list) > 0;
}

function anyWithin(words: readonly string[], from: number, to: number, list: readonly string[]): boolean {
  for (let index = Math.max(0, from); index <= Math.min(words.length - 1, to); index++) if (isAny(words, index, list)) return true;
  return false;
}

interface NumberRun {
  first: number;
  last: number;
  value: number;
  scaled: boolean;
  /** Only digits (no number words). */
  digitsOnly: boolean;
  grouped: boolean;
  /** A digit token with an ordinal ending glued to it (15th, 15ஆம்): a date, not a number. */
  ordinal: boolean;
}

/** The spoken or written number starting at `index`, or null. */
function numberRun(list: readonly Token[], words: readonly string[], index: number): NumberRun | null {
  let total = 0;
  let current = 0;
  let modifier = 0;
  let scaled = false;
  let digitsOnly = true;
  let grouped = false;
  let last = -1;
  for (let at = index; at < list.length; at++) {
    const token = list[at]!;
    if (token.digits !== null) {
      if (last !== -1 && list[last]!.digits !== null) break;
      current += token.digits + modifier;
      modifier = 0;
      grouped ||= token.grouped;
      last = at;
      continue;
    }
    // "5k": a k written onto the digits.
    if (token.word === 'k' && !(token.glued && last === at - 1)) break;
    const entry = numberWord(token.word);
    if (!entry) break;
    if (entry.role !== 'scale' && last !== -1 && list[last]!.digits !== null) break;
    // A scale word may open a number on its own: ஆயிரத்து எண்ணூறு (1,800), వెయ్యి రూపాయలు, "lakh rupees".
    if (entry.role === 'hundred' && last === -1) break;
    if (entry.role !== 'scale' && entry.role !== 'hundred') digitsOnly = false;
    switch (entry.role) {
      case 'unit':
        current += entry.value + modifier;
        modifier = 0;
        break;
      case 'hundred':
        current = (current || 1) * 100;
        break;
      case 'scale':
        total += ((current || 1) + modifier + (entry.half ? 0.5 : 0)) * entry.value;
        current = 0;
        modifier = 0;
        scaled = true;
        break;
      case 'group': {
        const scale = entry.scale ?? 1;
        total += (current + entry.value / scale) * scale;
        current = 0;
        scaled = true;
        break;
      }
      case 'plus_half':
        modifier = 0.5;
        break;
      case 'plus_quarter':
        modifier = 0.25;
        break;
      case 'minus_quarter':
        modifier = -0.25;
        break;
    }
    last = at;
  }
  if (last === -1) return null;
  // A modifier alone (साढ़े without a number) is no number.
  const value = total + current + modifier;
  if (value <= 0) return null;
  const next = list[last + 1];
  const ordinal = next !== undefined && next.glued && list[last]!.digits !== null && isAny(words, last + 1, ORDINAL_SUFFIXES);
  return { first: index, last, value, scaled, digitsOnly, grouped, ordinal };
}

function span(text: string, list: readonly Token[], first: number, last: number): string {
  return text.slice(list[first]!.start, list[last]!.end);
}

function findAmounts(text: string, list: readonly Token[], words: readonly string[], idTokens: ReadonlySet<number>): { amounts: AmountMention[]; used: Set<number> } {
  const amounts: AmountMention[] = [];
  const used = new Set<number>(idTokens);
  for (let index = 0; index < list.length; index++) {
    if (used.has(index)) continue;
    const run = numberRun(list, words, index);
    if (!run) continue;
    const after = run.last + 1;
    let first = run.first;
    let last = run.last;
    const currencyBefore = isAny(words, first - 1, CURRENCY_BEFORE);
    const currencyAfter = isAny(words, after, CURRENCY_AFTER);
    const moneyContext = anyWithin(words, first - WINDOW, first - 1, MONEY_WORDS);
    const idContext = isAny(words, first - 1, ID_WORDS) || isAny(words, first - 2, ID_WORDS);
    const notAmount = run.ordinal || (!currencyAfter && isAny(words, after, NOT_AN_AMOUNT_AFTER)) || (run.digitsOnly && idContext && !currencyBefore && !currencyAfter);
    const year = run.digitsOnly && !run.grouped && run.value >= 1950 && run.value <= 2100 && !currencyBefore && !currencyAfter;
    const isAmount =
      !notAmount &&
      !year &&
      (currencyBefore || currencyAfter || run.scaled || (run.digitsOnly && run.value >= 100 && (run.grouped || moneyContext)));
    if (isAmount) {
      if (currencyBefore) first -= 1;
      if (currencyAfter) last = after;
      // "EMI of 8,450", "8,450 EMI": before it, or the word right after it.
      const emi = anyWithin(words, first - 4, last + 1, EMI_WORDS);
      amounts.push({ rupees: Math.round(run.value * 100) / 100, text: span(text, list, first, last), emi });
      for (let at = first; at <= last; at++) used.add(at);
    }
    index = run.last;
  }
  return { amounts, used };
}

type CalendarWord = 'relative_day' | 'weekday' | 'period' | 'time_of_day';
let calendar: PhraseIndex<CalendarWord> | undefined;

/** Every day and time-of-day phrase in one index: one lookup per word. */
function calendarIndex(): PhraseIndex<CalendarWord> {
  calendar ??= new PhraseIndex<CalendarWord>(
    [
      ...RELATIVE_DAYS.map((phrase) => [phrase, 'relative_day'] as const),
      ...WEEKDAYS.map((phrase) => [phrase, 'weekday'] as const),
      ...PERIODS.map((phrase) => [phrase, 'period'] as const),
      ...TIMES_OF_DAY.map((phrase) => [phrase, 'time_of_day'] as const),
    ],
    'und',
  );
  return calendar;
}

interface WhenSpan {
  first: number;
  last: number;
  kind: WhenKind;
}

function findWhen(list: readonly Token[], words: readonly string[], usedByAmounts: ReadonlySet<number>): WhenSpan[] {
  const spans: WhenSpan[] = [];
  for (let index = 0; index < list.length; index++) {
    if (usedByAmounts.has(index)) continue;
    const named = calendarIndex().longestMatchAt(words, index);
    let length = named && named.value !== 'time_of_day' ? named.end - named.start : 0;
    let kind: WhenKind = 'day';
    // "next Monday", "पुढच्या सोमवारी", "அடுத்த திங்கள்": the word before a weekday belongs to it.
    if (named?.value === 'weekday' && isAny(words, index - 1, NEXT_OR_THIS) && !usedByAmounts.has(index - 1)) {
      index -= 1;
      length += 1;
    }
    if (length === 0) {
      const run = numberRun(list, words, index);
      if (run && !run.scaled && run.value >= 1 && run.value <= 31 && Number.isInteger(run.value)) {
        const after = run.last + 1;
        if (run.ordinal) {
          // 15th, 15ஆம், and a marker after it (15ஆம் தேதி, 15వ తేదీ).
          length = after - index + 1 + (isAny(words, after + 1, DAY_OF_MONTH_MARKERS) ? 1 : 0);
        } else if (isAny(words, after, DAY_OF_MONTH_MARKERS)) {
          length = after - index + 1;
        } else if (run.value <= 12 && isAny(words, after, HOUR_MARKERS)) {
          // "after 6 pm": the preposition belongs to the time.
          const from = isAny(words, index - 1, HOUR_PREFIXES) && !usedByAmounts.has(index - 1) ? index - 1 : index;
          pushWhen(spans, list, { first: from, last: after, kind: 'time' });
          index = after;
          continue;
        } else if (run.value <= 12 && isAny(words, index - 1, HOUR_PREFIXES) && !isAny(words, after, NOT_AN_AMOUNT_AFTER)) {
          pushWhen(spans, list, { first: index - 1, last: run.last, kind: 'time' });
          index = run.last;
          continue;
        }
      }
    }
    if (length === 0 && named?.value === 'time_of_day') {
      length = named.end - named.start;
      kind = 'time';
    }
    if (length === 0) continue;
    const last = index + length - 1;
    pushWhen(spans, list, { first: index, last, kind });
    index = last;
  }
  return spans;
}

/** Adds a mention, joined to the previous one when only a space or a word of "at"/"after" lies between them. */
function pushWhen(spans: WhenSpan[], list: readonly Token[], found: WhenSpan): void {
  const previous = spans[spans.length - 1];
  // "tomorrow morning", "कल शाम 5 बजे", "Monday after 6 pm": neighbouring words make one mention.
  if (previous && previous.last >= found.first - 1 && list[found.first]!.start - list[previous.last]!.end <= 1) {
    previous.last = found.last;
    if (found.kind === 'day') previous.kind = 'day';
  } else {
    spans.push({ ...found });
  }
}

const ALPHANUMERIC_ID = /\b[A-Z]{2,5}[-/]?\d{4,}\b/g;

/** Ids, and the tokens they take (so an id's digits are never read as an amount). */
function findIds(text: string, list: readonly Token[], words: readonly string[]): { ids: string[]; taken: Set<number> } {
  const ids: string[] = [];
  const taken = new Set<number>();
  for (const match of text.matchAll(ALPHANUMERIC_ID)) {
    ids.push(match[0]);
    const end = match.index! + match[0].length;
    list.forEach((token, index) => {
      if (token.start >= match.index! && token.end <= end) taken.add(index);
    });
  }
  list.forEach((token, index) => {
    if (taken.has(index) || token.digits === null || token.grouped || token.raw.replace(/\D/g, '').length < 4) return;
    // "your loan of 50000 rupees": a number with a currency word is an amount, however near "loan" it stands.
    if (isAny(words, index + 1, CURRENCY_AFTER) || isAny(words, index - 1, CURRENCY_BEFORE)) return;
    if (isAny(words, index - 1, ID_WORDS) || isAny(words, index - 2, ID_WORDS)) {
      ids.push(token.raw);
      taken.add(index);
    }
  });
  return { ids, taken };
}

/** The entities of one piece of text (a sentence or a turn). */
export function extractEntities(text: string): Entities {
  const list = tokens(text);
  const words = list.map((token) => token.word);
  const { ids, taken } = findIds(text, list, words);
  const { amounts, used } = findAmounts(text, list, words, taken);
  const when = findWhen(list, words, used).map((found) => ({ kind: found.kind, text: span(text, list, found.first, found.last) }));
  return { amounts, when, ids };
}

const digitsFormat = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

export interface ScaleWords {
  lakh: string;
  crore: string;
}

/** ₹8,450 under a lakh; ₹1.5 lakh and ₹2 crore above (how Indian speakers and readers say them), in `words`. */
export function formatRupees(rupees: number, words: ScaleWords = { lakh: 'lakh', crore: 'crore' }): string {
  if (rupees >= 10_000_000 && rupees % 100_000 === 0) return `₹${digitsFormat.format(rupees / 10_000_000)} ${words.crore}`;
  if (rupees >= 100_000 && rupees % 1_000 === 0) return `₹${digitsFormat.format(rupees / 100_000)} ${words.lakh}`;
  return `₹${digitsFormat.format(rupees)}`;
}
