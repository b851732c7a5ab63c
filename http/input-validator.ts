import type { Context, Handler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import type { AppEnv } from './context.ts';

/** define-route.ts's validationHook: throws the 400 of a failed check. */
type ValidationHook = (result: { target: string; success: boolean; error?: ZodError; data?: unknown }, c: Context<AppEnv>) => void;

/**
 * The query string as @hono/zod-openapi's validator hands it to zod: one value a string, a repeated one an array,
 * `+` a space, names without a value empty strings, an empty name ignored. Parsed with URLSearchParams, which
 * costs a fifth of Hono's `c.req.queries()` (they differ only on malformed percent-encoding).
 */
function queryValues(c: Context<AppEnv>): Record<string, string | string[]> {
  // No prototype: a parameter named `__proto__` is a parameter like any other.
  const values: Record<string, string | string[]> = Object.create(null);
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start === -1) return values;
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    if (name === '') continue;
    const previous = values[name];
    values[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}

function validate(c: Context<AppEnv>, target: 'query' | 'param', schema: ZodType, value: unknown, hook: ValidationHook): void {
  const result = schema.safeParse(value);
  // The hook throws our 400; on success the handler reads the parsed value with `c.req.valid(target)`.
  if (!result.success) hook({ target, success: false, error: result.error, data: value }, c);
  c.req.addValidatedData(target, result.data as object);
}

/**
 * The route's handler, preceded by the validation of its query string and path parameters against its zod schemas,
 * with the same values, order (query, then path) and hook as @hono/zod-openapi's validators. Those take a
 * middleware layer and an asynchronous parse per target; this is one synchronous step inside the handler's own
 * layer (measured: docs/api.md, Performance). Query and path schemas must therefore be synchronous (no async
 * refinements): zod refuses to run an async check in `safeParse`.
 */
export function withValidatedInputs(
  query: ZodType | undefined,
  params: ZodType | undefined,
  hook: ValidationHook,
  handler: Handler<AppEnv>,
): Handler<AppEnv> {
  return (c, next) => {
    if (query) validate(c, 'query', query, queryValues(c), hook);
    if (params) validate(c, 'param', params, c.req.param(), hook);
    return handler(c, next);
  };
}
