import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type { Page } from './schemas/common.ts';

/** The list envelope every list endpoint answers: `{data, total, limit, offset}`. */
export function listBody<Item>(data: Item[], total: number, page: Page): { data: Item[]; total: number; limit: number; offset: number } {
  return { data, total, limit: page.limit, offset: page.offset };
}

/**
 * Answers JSON that is already serialised (read models that store their documents as JSON text): the text (or its
 * UTF-8 bytes) is sent as is, typed as the schema's value for the route's response checks. `T` must describe it.
 */
export function prebuiltJson<T, Status extends ContentfulStatusCode = 200>(
  c: Context,
  text: string | Uint8Array<ArrayBuffer>,
  status: Status = 200 as Status,
): Response & TypedResponse<JSONParsed<T>, Status, 'json'> {
  return c.body(text, status, { 'Content-Type': 'application/json' }) as unknown as Response & TypedResponse<JSONParsed<T>, Status, 'json'>;
}

/** The list envelope, as JSON text, around documents that are JSON texts already. */
export function listEnvelopeText(documents: string[], total: number, page: Page): string {
  return `{"data":[${documents.join(',')}],"total":${total},"limit":${page.limit},"offset":${page.offset}}`;
}

/** The list envelope around documents that are JSON texts already. */
export function prebuiltListJson<Envelope>(c: Context, documents: string[], total: number, page: Page) {
  return prebuiltJson<Envelope>(c, listEnvelopeText(documents, total, page));
}
