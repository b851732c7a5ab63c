import * as fc from 'fast-check';
import { DISPOSITIONS, type Disposition } from '../../../domain/shared/disposition.ts';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';

/**
 * Arbitraries of the domain's shared value types (times, phones, languages, dispositions, names, counts): mostly
 * plausible values, drawn from small pools so that commands collide on the same numbers and instants, with a
 * share of values the type allows but the rules must refuse.
 */

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const HOUR = 3_600_000;

/** An instant within a few days of T0 (ISO text, as commands carry them). */
export const plausibleTime = fc.integer({ min: -48, max: 240 }).map((hours) => new Date(T0 + hours * HOUR).toISOString());

/** ISO text that is not an instant, or an instant written in another form. */
const oddTime = fc.constantFrom('', 'not a date', '2026-13-45T99:99:99Z', '2026-03-01T15:30:00+05:30', '2026-03-01', '0', 'NaN', '+275760-09-13T00:00:00.000Z');

export const time = fc.oneof({ weight: 6, arbitrary: plausibleTime }, { weight: 1, arbitrary: oddTime });

/**
 * A Date from the Clock port (`now` on commands): always a real instant, the clock's contract. Times that arrive as
 * data (ISO text, or a Date computed from data such as a timer's due time) are fuzzed with `time` / `computedDate`.
 */
export const date = fc.integer({ min: -48, max: 240 }).map((hours) => new Date(T0 + hours * HOUR));

/** A Date computed from data: rarely not an instant at all. */
export const computedDate = fc.oneof({ weight: 12, arbitrary: date }, { weight: 1, arbitrary: fc.constant(new Date(Number.NaN)) });

/** A few valid numbers, so that commands hit the same ones, and some that are not E.164. */
export const PHONES = ['+919876543210', '+919876543211', '+14155550123', '+447700900123', '+919000000001'] as const;
export const phone = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PHONES) },
  { weight: 1, arbitrary: fc.constantFrom('', '+91', '919876543210', '+0123456789', '+91 98765 43210', '+1234567890123456', 'x') },
);

export const language = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SUPPORTED_LANGUAGES) },
  { weight: 1, arbitrary: fc.constantFrom('fr-FR', 'en', 'EN-in', 'hi_IN', '', 'zz-ZZ') },
);

export const disposition: fc.Arbitrary<Disposition> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...DISPOSITIONS) },
  { weight: 1, arbitrary: fc.constantFrom('maybe', '', 'INTERESTED') as fc.Arbitrary<string> as fc.Arbitrary<Disposition> },
);

/** Names: ordinary, blank, too long, odd unicode. */
export const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('Asha', 'Ravi Kumar', 'Acme outreach') },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', 'x'.repeat(256), 'x'.repeat(255), '\u202Eevil\u0000', '\uD800', '🙂'.repeat(10)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** Small counts around the edges of the ranges the deciders accept, and numbers no count should be. */
export const count = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -1, max: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 1.5, -0, 2 ** 53, 10_000_001) },
);

/** Mostly the id of the stream under test; now and then another one (another workspace, a stale reference). */
export function id(main: string, other: string): fc.Arbitrary<string> {
  return fc.oneof({ weight: 8, arbitrary: fc.constant(main) }, { weight: 1, arbitrary: fc.constant(other) });
}

/** Custom variables, including keys that name Object.prototype members. */
export const variables = fc.dictionary(
  fc.constantFrom('amount', 'due_date', 'name', 'phone', 'constructor', 'toString', '__proto__'),
  fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)),
  { maxKeys: 4 },
);

/** A value or null (fc.option, typed: its nil type is not inferred inside records). */
export function nullable<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.option(arbitrary, { nil: null });
}
