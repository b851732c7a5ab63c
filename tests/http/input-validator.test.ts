import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from '@hono/zod-openapi';
import { getQueryParams } from 'hono/utils/url';
import { createRouter, defineRoute } from '../../http/define-route.ts';
import { createErrorHandler } from '../../http/errors.ts';
import { createLogger } from '../../infra/logger.ts';

// Every parameter as parsed, whatever its name.
const AnyQuery = z.object({}).catchall(z.union([z.string(), z.array(z.string())]));

const router = createRouter();
router.openapi(
  defineRoute({ method: 'get', path: '/echo/{id}', operationId: 'echo', request: { params: z.object({ id: z.string() }), query: AnyQuery }, responses: { 200: { description: 'echo' } } }, { public: true }),
  (c) => c.json({ query: c.req.valid('query'), id: c.req.valid('param').id }) as never,
);

test('query strings reach zod exactly as @hono/zod-openapi would hand them over', async () => {
  const queries = ['?limit=20&offset=5', '?limit=1&limit=2', '?limit=', '?limit', '?=5&a=1', '?a=b+c', '?a=%20x', '?a=1&&b=2', '?a=x=y', '?a=%E2%82%AC', '', '?', '?a=1&a=2&a=3'];
  for (const query of queries) {
    const url = `http://127.0.0.1/echo/scr%5F1${query}`;
    const expected = Object.fromEntries(Object.entries(getQueryParams(url) as Record<string, string[]>).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
    const response = await router.request(url);
    assert.is(response.status, 200, query);
    const body = (await response.json()) as { query: unknown; id: string };
    assert.equal(body.query, expected, query);
    assert.is(body.id, 'scr_1', 'path parameters decoded');
  }
});

const pageRouter = createRouter();
pageRouter.onError(createErrorHandler(createLogger('silent')));
let handled = 0;
pageRouter.openapi(
  defineRoute(
    { method: 'get', path: '/page', operationId: 'page', request: { query: z.object({ limit: z.coerce.number().int().max(5), tags: z.array(z.string()).optional() }) }, responses: { 200: { description: 'page' } } },
    { public: true },
  ),
  (c) => {
    handled++;
    const query = c.req.valid('query');
    return c.json({ query, frozen: Object.isFrozen(query) && (query.tags === undefined || Object.isFrozen(query.tags)) }) as never;
  },
);

test('a query string seen before gives the same value, frozen; an invalid one is refused every time', async () => {
  for (let attempt = 0; attempt < 2; attempt++) {
    const valid = await pageRouter.request('http://127.0.0.1/page?limit=3&tags=a&tags=b');
    assert.is(valid.status, 200);
    assert.equal(await valid.json(), { query: { limit: 3, tags: ['a', 'b'] }, frozen: true });
    const invalid = await pageRouter.request('http://127.0.0.1/page?limit=9');
    assert.is(invalid.status, 400, `attempt ${attempt + 1}`);
    assert.is(((await invalid.json()) as { error: { details: { field: string } } }).error.details.field, 'limit');
  }
  const other = await pageRouter.request('http://127.0.0.1/page?limit=4');
  assert.equal(await other.json(), { query: { limit: 4 }, frozen: true }, 'another string is parsed on its own');
  assert.is(handled, 3);
});

test.run();
