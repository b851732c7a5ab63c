import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.ts';
import { registerSharedHeaders } from './contract/headers.ts';
import { describeRequestDefaults } from './contract/request-defaults.ts';
import { API_TAGS } from './contract/tags.ts';
import { registerWebhooks } from './contract/webhooks.ts';
import { BEARER_SCHEME, createRouter, defineRoute } from './define-route.ts';
import { DOCS_PAGE } from './docs-page.ts';
import { prebuiltJson } from './list.ts';

const TAG = 'Reference';

const documentRoute = defineRoute(
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: [TAG],
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the zod schemas the routes validate with; the contract tests lint it with Spectral and Redocly.',
    responses: { 200: { description: 'The document.', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
  },
  { public: true },
);

const pageRoute = defineRoute(
  {
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tags: [TAG],
    summary: 'The API reference, rendered from the OpenAPI document',
    description: 'A self-contained HTML page (no assets from elsewhere) that renders `openapi.json`.',
    responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: z.string() } } } },
  },
  { public: true },
);

const DESCRIPTION =
  'Voice calling and call analysis. Every request carries `Authorization: Bearer <key>`; errors are ' +
  '`{"error": {"code", "message", "details"}}`; lists are `{"data", "total", "limit", "offset"}`. ' +
  'Conventions, limits and error codes: docs/api.md.';

/**
 * Relative: the document is served by the deployment it describes, so `/` resolves to the host that served it
 * (behind a proxy or not) without the server knowing its public name. Paths carry their own `/v1`.
 */
const SERVERS = [{ url: '/', description: 'The server this document was fetched from.' }];

/**
 * Serves the OpenAPI document of `app` (generated once, on first request, from the zod schemas the routes
 * validate with) and the reference page. Mount it under `/v1` after every other route is registered.
 */
export function apiReferenceRoutes(app: OpenAPIHono<AppEnv>, version: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key of the workspace: `Authorization: Bearer vcs_...`. Never in the URL.',
  });
  registerSharedHeaders(app.openAPIRegistry);
  registerWebhooks(app.openAPIRegistry);
  const router = createRouter();
  let document: string | null = null;
  router.openapi(documentRoute, (c) => {
    if (document === null) {
      const generated = app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: 'Voice calling and call analysis API', version, description: DESCRIPTION },
        servers: SERVERS,
        tags: API_TAGS.map((tag) => ({ ...tag })),
        security: [{ [BEARER_SCHEME]: [] }],
      });
      describeRequestDefaults(generated);
      document = JSON.stringify(generated);
    }
    return prebuiltJson<Record<string, unknown>>(c, document);
  });
  router.openapi(pageRoute, (c) => c.html(DOCS_PAGE));
  return router;
}
