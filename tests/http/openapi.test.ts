import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { inProcessApp, type InProcessApp } from '../support/app.ts';

const openapi = suite('OpenAPI document and reference page');
let harness: InProcessApp;
let document: { openapi: string; paths: Record<string, Record<string, { security?: unknown[]; 'x-required-scope'?: string; responses: Record<string, unknown> }>>; components: Record<string, Record<string, unknown>> };

openapi.before(async () => {
  harness = await inProcessApp();
  const response = await harness.app.request('/v1/openapi.json');
  assert.is(response.status, 200);
  document = (await response.json()) as typeof document;
});
openapi.after(async () => harness.close());

openapi('an OpenAPI 3.1 document with the bearer scheme and the error envelope', () => {
  assert.is(document.openapi, '3.1.0');
  assert.equal(document.components.securitySchemes!.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key of the workspace: `Authorization: Bearer vcs_...`. Never in the URL.',
  });
  assert.ok(document.components.schemas!.Error);
});

openapi('every route the app serves is in the document, with its scope or as public', () => {
  const served = new Set<string>();
  for (const route of harness.app.routes) {
    if (route.method === 'ALL') continue;
    served.add(`${route.method.toLowerCase()} ${route.path.replaceAll(/:([A-Za-z_]+)/g, '{$1}')}`);
  }
  assert.ok(served.size >= 10, `served ${served.size}`);
  for (const entry of served) {
    const [method, path] = entry.split(' ') as [string, string];
    const operation = document.paths[path]?.[method];
    assert.ok(operation, `${entry} is missing from the document`);
    const isPublic = Array.isArray(operation!.security) && operation!.security.length === 0;
    assert.ok(isPublic || operation!['x-required-scope'], `${entry} declares its scope`);
    if (!isPublic) assert.ok(operation!.responses['401'] && operation!.responses['403'] && operation!.responses['429'], `${entry} documents its errors`);
  }
  assert.is(document.paths['/v1/api-keys']!.post!['x-required-scope'], 'Admin');
  assert.is(document.paths['/v1/scripts']!.get!['x-required-scope'], 'Read-Only');
  assert.is(document.paths['/v1/scripts']!.post!['x-required-scope'], 'Read-Write');
});

openapi('the reference page is served without assets from elsewhere', async () => {
  const response = await harness.app.request('/v1/docs');
  assert.is(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', 'text/html');
  const html = await response.text();
  assert.match(html, "fetch('openapi.json')");
  assert.not.match(html, /(src|href)=["']?(https?:)?\/\//i);
  assert.not.match(html, /@import|url\(/i);
});

openapi.run();
