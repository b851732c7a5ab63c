import type { Context, Handler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import { BoundedMemo } from '../infra/cache/bounded-memo.ts';
import type { AppEnv } from './context.ts';

/** define-route.ts's validationHook: throws the 400 of a failed check. */
type ValidationHook = (result: { target: string; success: boolean; error?: ZodError; data?: unknown }, c: Context<AppEnv>) => void;

/**
 * The query string as @hono/zod-openapi's validator hands it to zod: one value a string, a repeated one an array,
 * `+` a space, names without a value empty strings, an empty name ignored. Parsed with URLSearchParams, which
 * costs a fifth of Hono's `c.req.queries()` (they differ only on malformed percent-encoding).
 */
function queryValues(search: string): Record<string, string | string[]> {
  // No prototype: a parameter named `__proto__` is a parameter like any other.
  const values: Record<string, string | string[]> = Object.create(null);
  if (search === '') return values;
  for (const [name, value] of new URLSearchParams(search)) {
    if (name === '') continue;
    const previous = values[name];
    values[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}

/** The parsed value of `value`; on failure the hook throws our 400. */
function parse(c: Context<AppEnv>, target: 'query' | 'param', schema: ZodType, value: unknown, hook: ValidationHook): object {
  const result = schema.safeParse(value);
  if (!result.success) hook({ target, success: false, error: result.error, data: value }, c);
  return result.data as object;
}

/** How many distinct query strings a route remembers the parsed value of (a page of a list is a handful). */
const REMEMBERED_QUERIES = 256;

/**
 * A route's query strings and what they parse to. Parsing is a pure function of the string (query schemas are
 * synchronous and take nothing but their input: no defaults computed from the clock), and clients repeat the same
 * few strings (`limit=20`, the next page...), so a string seen before is answered from memory: the parse, zod's
 * checks and the object they build cost more than the rest of a cached read. Only valid strings are remembered (an
 * invalid one throws our 400); values are frozen, since every request of that string shares one.
 */
class ParsedQueries {
  private readonly values = new BoundedMemo<string, object>(REMEMBERED_QUERIES);

  constructor(private readonly schema: ZodType) {}

  parse(c: Context<AppEnv>, hook: ValidationHook): object {
    const url = c.req.url;
    const start = url.indexOf('?');
    const search = start === -1 ? '' : url.slice(start + 1);
    return this.values.get(search, () => deepFreeze(parse(c, 'query', this.schema, queryValues(search), hook)));
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The route's handler, preceded by the validation of its query string and path parameters against its zod schemas,
 * with the same values, order (query, then path) and hook as @hono/zod-openapi's validators. Those take a
 * middleware layer and an asynchronous parse per target; this is one synchronous step inside the handler's own
 * layer, and a query string seen before is not parsed again (measured: docs/api.md, Performance). Query and path
 * schemas must therefore be synchronous (no async refinements: zod refuses to run one in `safeParse`) and query
 * schemas pure (their value depends on the string alone).
 */
export function withValidatedInputs(
  query: ZodType | undefined,
  params: ZodType | undefined,
  hook: ValidationHook,
  handler: Handler<AppEnv>,
): Handler<AppEnv> {
  const queries = query && new ParsedQueries(query);
  return (c, next) => {
    // The handler reads the parsed values with `c.req.valid(target)`.
    if (queries) c.req.addValidatedData('query', queries.parse(c, hook));
    if (params) c.req.addValidatedData('param', parse(c, 'param', params, c.req.param(), hook));
    return handler(c, next);
  };
}
