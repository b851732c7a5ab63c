import * as fc from 'fast-check';
import { resolve, type JsonSchema, type OpenApiDocument } from './openapi-operations.ts';

/**
 * Plausible JSON for a JSON Schema (the subset zod-openapi writes: objects, arrays, strings with formats and
 * patterns, numbers with bounds, enums, unions, nullables): the "valid body" the fuzzer then mutates. It aims
 * at getting past validation often enough to reach the handlers, not at being valid every time.
 */
export function valueOf(schema: JsonSchema, document: OpenApiDocument, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  if (depth > 6) return fc.constant(null);
  if ('const' in resolved) return fc.constant(resolved.const);
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return fc.constantFrom(...(resolved.enum as unknown[]));
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (union && union.length > 0) return fc.oneof(...union.map((member) => valueOf(member, document, depth + 1)));
  if (Array.isArray(resolved.allOf) && resolved.allOf.length > 0) return valueOf(resolved.allOf[0] as JsonSchema, document, depth + 1);
  const type = Array.isArray(resolved.type) ? (resolved.type as string[]).filter((name) => name !== 'null')[0] : (resolved.type as string | undefined);
  switch (type) {
    case 'object':
      return objectOf(resolved, document, depth);
    case 'array': {
      const items = (resolved.items as JsonSchema | undefined) ?? {};
      const minLength = Math.min(Number(resolved.minItems ?? 0), 3);
      return fc.array(valueOf(items, document, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(Number(resolved.maxItems ?? 3), 3)) });
    }
    case 'string':
      return stringOf(resolved);
    case 'integer':
    case 'number': {
      const min = Number(resolved.minimum ?? (resolved.exclusiveMinimum !== undefined ? Number(resolved.exclusiveMinimum) + 1 : 0));
      const max = Number(resolved.maximum ?? min + 100);
      return fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(Math.max(max, min), 1e9)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean());
  }
}

function objectOf(schema: JsonSchema, document: OpenApiDocument, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, member] of Object.entries(properties)) model[key] = valueOf(member, document, depth + 1);
  return fc.record(model, { requiredKeys: [...required].filter((key) => key in model) });
}

// Values of the formats and patterns our schemas use, so that bodies pass them.
const KNOWN_STRINGS: Array<[RegExp, string[]]> = [
  [/phone|\\\+/, ['+919876543210', '+14155550123']],
  [/language|\[a-z\]\{2,3\}-/, ['hi-IN', 'en-IN']],
];

function stringOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const examples = [schema.example, ...((schema.examples as unknown[] | undefined) ?? [])].filter((example) => typeof example === 'string') as string[];
  if (examples.length > 0) return fc.constantFrom(...examples);
  if (schema.format === 'date-time') return fc.constantFrom('2026-03-01T10:00:00Z', '2030-01-01T00:00:00Z');
  if (schema.format === 'date') return fc.constantFrom('2026-03-01');
  if (schema.format === 'uri' || schema.format === 'url') return fc.constantFrom('https://example.com/audio.wav', 'https://example.com/hook');
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const description = `${pattern} ${String(schema.description ?? '')}`;
  for (const [test, values] of KNOWN_STRINGS) if (test.test(description)) return fc.constantFrom(...values);
  const minLength = Number(schema.minLength ?? 1);
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(Number(schema.maxLength ?? 12), 12)) }).map((text) => text.replace(/\s/g, 'x') || 'x');
}
