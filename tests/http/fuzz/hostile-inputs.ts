import * as fc from 'fast-check';

/**
 * What a hostile or broken client sends: strings that trip parsers and databases, mutated bodies, wrong content
 * types, path segments and query values that are not what a route expects.
 */
export const oddString = fc.constantFrom(
  '\uD800', // a lone surrogate
  'abc\uDFFFdef',
  '\u202Eevil\u202C', // right-to-left override
  '\u200F\u200E',
  'nul\u0000byte',
  '🙂👩🏽‍💻🇮🇳',
  'x'.repeat(10_000),
  '',
  ' ',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%00',
  '{name}',
  '__proto__',
  'constructor',
  '\\',
  '"',
);

/** A value of any JSON type, odd strings and edge numbers included. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, [], {}, [null], { '': '' }),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);

export type Mutation = (body: Record<string, unknown>) => { text: string } | { value: Record<string, unknown> };

/** One change to a plausible body: drop, retype, duplicate or add a field, or poison a string. */
export function mutatedBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom('keep', 'drop', 'retype', 'duplicate', 'unknown', 'poison', 'proto'), anyJson)
    .map(([value, pick, mutation, replacement]) => {
      const body = (value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {}) as Record<string, unknown>;
      const keys = Object.keys(body);
      const key = keys.length > 0 ? keys[pick % keys.length]! : 'name';
      switch (mutation) {
        case 'drop':
          delete body[key];
          return JSON.stringify(body);
        case 'retype':
        case 'poison':
          body[key] = mutation === 'poison' ? poisonStrings(body[key], replacement) : replacement;
          return JSON.stringify(body);
        case 'duplicate': {
          // JSON.stringify cannot write a key twice: splice a second copy of the member into the text.
          const text = JSON.stringify(body);
          return text === '{}' ? `{"${key}":1,"${key}":2}` : `{${JSON.stringify(key)}:${JSON.stringify(replacement)},${text.slice(1)}`;
        }
        case 'unknown':
          body[`extra_${pick % 3}`] = replacement;
          return JSON.stringify(body);
        case 'proto':
          return `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${JSON.stringify(body).slice(1)}`.replace(',}', '}');
        default:
          return JSON.stringify(body);
      }
    });
}

/** Every string inside `value` replaced by `replacement` when it is a string (else an odd string). */
function poisonStrings(value: unknown, replacement: unknown): unknown {
  const odd = typeof replacement === 'string' ? replacement : '\uD800\u0000';
  if (typeof value === 'string') return odd;
  if (Array.isArray(value)) return value.map((member) => poisonStrings(member, replacement));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, poisonStrings(member, replacement)]));
  return odd;
}

/** Bodies that are not JSON objects at all. */
export const brokenBodyText = fc.constantFrom('', 'null', '[]', '"text"', '42', '{', '{"a":', '{"a":1}}', 'not json', '\u0000', '{"a":"\\ud800"}', '{"a":1e999999}');

export const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/json; charset=utf-16', '') },
);

/** A path segment as sent on the wire (already percent-encoded where it has to be). */
export const hostilePathSegment = fc.oneof(
  fc.constantFrom('x', 'scr_00000000000000000000000000', 'cmp_does_not_exist', '0', '-1', 'null', 'undefined'),
  fc.constantFrom('%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', '..%2F', '%00', 'a%00b', '%FF%FE', '%E0%A4', '%', '%ZZ', '%F0%9F%99%82', '%D8%00', '%E2%80%AE'),
  fc.constantFrom('x'.repeat(2_000), 'y'.repeat(8_000)),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

/** Query values: numbers out of range, wrong types, odd text, invalid percent-encoding. */
export const hostileQueryValue = fc.oneof(
  fc.constantFrom('-1', '0', '1', '20', '100', '101', '1e309', 'NaN', '1.5', '99999999999999999999', 'true', ''),
  fc.constantFrom('2026-03-01', '2026-03-01T10:00:00Z', '2026-13-45', 'running', 'completed', 'interested', 'hi-IN'),
  fc.constantFrom('%00', '%ZZ', '%FF', '%2E%2E%2F', 'x'.repeat(3_000)),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);
