import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { takeTopLevelField } from '../../../infra/eventstore/top-level-field.ts';

const FIELD = 'transcript';

/** What taking the field must give: the object without it, and the field's JSON (null when absent or null). */
function expected(object: Record<string, unknown>): { rest: Record<string, unknown>; value: unknown } {
  const { [FIELD]: value, ...rest } = object;
  return { rest, value: value === undefined ? null : value };
}

// Names that collide with the field inside strings and nested objects, escapes, and the usual JSON values.
const name = fc.oneof(fc.constantFrom(FIELD, `${FIELD}s`, 'trans"cript', 'a\\b', '{', '}', ',', ':', '['), fc.string({ maxLength: 8 }));
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1.5e-7, 12345678901234, `"${FIELD}":1`, '\\"}', '{"a":[1,2]}'),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(name, tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;
const object = fc.dictionary(name, value, { maxKeys: 6, noNullPrototype: true });

test('takes the field out of compact and indented JSON: the rest parses to the object without it, the value to the field', () => {
  fc.assert(
    fc.property(object, fc.constantFrom(undefined, 2, '\t'), (subject, indent) => {
      const taken = takeTopLevelField(JSON.stringify(subject, null, indent), FIELD);
      assert.ok(taken);
      const want = expected(subject);
      assert.equal(JSON.parse(taken.rest), want.rest);
      assert.equal(taken.value === null ? null : JSON.parse(taken.value), want.value);
    }),
    { numRuns: 3_000 },
  );
});

test('compact JSON: the value is the very text the serialiser wrote for the field', () => {
  fc.assert(
    fc.property(object, value, (subject, field) => {
      fc.pre(field !== null);
      const withField = { ...subject, [FIELD]: field };
      assert.is(takeTopLevelField(JSON.stringify(withField), FIELD)?.value, JSON.stringify(field));
    }),
    { numRuns: 1_000 },
  );
});

test('first, middle, last and only field; a name written with escapes; the same name nested or inside a string', () => {
  assert.equal(takeTopLevelField('{"transcript":[1],"a":2}', FIELD), { rest: '{"a":2}', value: '[1]' });
  assert.equal(takeTopLevelField('{"a":1,"transcript":{"b":"}"},"c":3}', FIELD), { rest: '{"a":1,"c":3}', value: '{"b":"}"}' });
  assert.equal(takeTopLevelField('{"a":1,"transcript":"x"}', FIELD), { rest: '{"a":1}', value: '"x"' });
  assert.equal(takeTopLevelField('{"transcript":null}', FIELD), { rest: '{}', value: null });
  assert.equal(takeTopLevelField('{"transcr\\u0069pt":[2]}', FIELD), { rest: '{}', value: '[2]' });
  assert.equal(takeTopLevelField('{"a":{"transcript":[1]},"b":"\\"transcript\\":2"}', FIELD), { rest: '{"a":{"transcript":[1]},"b":"\\"transcript\\":2"}', value: null });
  assert.equal(takeTopLevelField('{}', FIELD), { rest: '{}', value: null });
});

test('not a JSON object: undefined, and the caller parses the text whole', () => {
  for (const text of ['[1,2]', '"transcript"', '12', 'null', '', '   ']) assert.is(takeTopLevelField(text, FIELD), undefined, text);
});

test.run();
