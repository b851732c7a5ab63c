import { characterCount } from '../../domain/shared/text/character-count.ts';
import { z } from '@hono/zod-openapi';
import { ERROR_CODES } from '../errors.ts';

export const ErrorCodeSchema = z.enum(ERROR_CODES).openapi('ErrorCode', {
  description: 'Machine-readable; each operation\'s error responses say which codes they carry (docs/api.md, Errors).',
});

/** The error envelope every failure uses (see errors.ts). */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string().openapi({ example: 'Invalid limit: expected an integer from 1 to 100.' }),
      details: z.record(z.string(), z.unknown()).openapi({ example: { field: 'limit', provided: '0', expected: 'an integer from 1 to 100' } }),
    }),
  })
  .openapi('Error');

/**
 * A whole number in a query string: digits only, so "1.5", "-1", "1e1" and "abc" are refused, not coerced.
 * Documented as an integer with its bounds.
 */
function wholeNumber(minimum: number, maximum: number) {
  const expected = `an integer from ${minimum} to ${maximum}`;
  return z
    .string({ error: expected })
    .regex(/^[0-9]{1,10}$/, { error: expected })
    .transform(Number)
    .pipe(z.number().int().min(minimum, { error: expected }).max(maximum, { error: expected }));
}

export function integerQuery(minimum: number, maximum: number, fallback: number, description: string) {
  return wholeNumber(minimum, maximum)
    .optional()
    .default(fallback)
    .openapi({ type: 'integer', minimum, maximum, default: fallback, description } as never);
}

export function optionalIntegerQuery(minimum: number, maximum: number, description: string) {
  return wholeNumber(minimum, maximum).optional().openapi({ type: 'integer', minimum, maximum, description } as never);
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `limit` (1..100, default 20) and `offset` (>= 0, default 0): every list endpoint takes these. */
export const PaginationQuery = z.object({
  limit: integerQuery(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, 'Page size.'),
  offset: integerQuery(0, 1_000_000_000, 0, 'Number of results to skip.'),
});

export type Page = z.infer<typeof PaginationQuery>;

/** The one list envelope: `{data, total, limit, offset}`. */
export function listEnvelope<Item extends z.ZodType>(item: Item, name: string) {
  return z
    .object({
      data: z.array(item),
      total: z.int().openapi({ description: 'Results in all pages.' }),
      limit: z.int(),
      offset: z.int(),
    })
    .openapi(name);
}

/** A path parameter `{id}` with its prefix, e.g. `scr_`. */
export function idParams(example: string) {
  return z.object({
    id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example }),
  });
}

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-03-01T10:00:00.000Z' });

/**
 * A name of 1 to `max` characters after trimming, counted as the spec's "Max 255 characters" and the document's
 * `maxLength` count them (code points; zod's `.max` counts UTF-16 units, so 128 emoji were refused).
 */
export function nameText(max = 255) {
  return z
    .string()
    .trim()
    .min(1)
    .refine((value) => characterCount(value) <= max, { error: `a string of at most ${max} characters` })
    .openapi({ maxLength: max });
}
