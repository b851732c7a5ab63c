import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WEBHOOK_EVENT_NAMES } from '../../domain/webhook.ts';
import { inProcessApp, type InProcessApp } from '../support/app.ts';

const openapi = suite('OpenAPI document and reference page');
let harness: InProcessApp;
type Response = { description: string; headers?: Record<string, { $ref: string }> };
type Operation = { operationId?: string; tags?: string[]; security?: unknown[]; 'x-required-scope'?: string; parameters?: Array<{ $ref?: string; name?: string }>; responses: Record<string, Response> };
let document: {
  openapi: string;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, any>>;
  webhooks: Record<string, { post: Operation & { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
};

function operations(): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]));
}

const headerNames = (response: Response) => Object.keys(response.headers ?? {}).sort();

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

openapi('every operation has a unique camelCase operationId and declared tags; servers are set', () => {
  const ids = operations().map(([, operation]) => operation.operationId);
  for (const [name, operation] of operations()) {
    assert.match(operation.operationId ?? '', /^[a-z][A-Za-z0-9]+$/, `${name} operationId`);
    for (const tag of operation.tags ?? []) assert.ok(document.tags.some((declared) => declared.name === tag && declared.description), `${name}: tag ${tag} declared`);
  }
  assert.is(new Set(ids).size, ids.length, 'operationIds are unique');
  assert.is(document.paths['/v1/campaigns']!.post!.operationId, 'createCampaign');
  assert.is(document.paths['/v1/calls']!.get!.operationId, 'listCalls');
  assert.equal(document.servers, [{ url: '/', description: 'The server this document was fetched from.' }]);
});

openapi('Idempotency-Key on every authenticated POST; shared response headers by status', () => {
  for (const [name, operation] of operations()) {
    const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
    const hasKey = (operation.parameters ?? []).some((parameter) => parameter.$ref === '#/components/parameters/Idempotency-Key');
    assert.is(hasKey, name.startsWith('POST ') && !isPublic, `${name} Idempotency-Key`);
    for (const [status, response] of Object.entries(operation.responses)) assert.ok(response.headers?.['X-Request-Id'], `${name} ${status} X-Request-Id`);
  }
  const createScript = document.paths['/v1/scripts']!.post!.responses;
  assert.equal(headerNames(createScript['201']!), ['Idempotent-Replayed', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
  assert.equal(headerNames(createScript['429']!), ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
  assert.equal(headerNames(createScript['503']!), ['Retry-After', 'X-Request-Id']);
  assert.equal(headerNames(createScript['401']!), ['X-Request-Id']);
  assert.equal(headerNames(document.paths['/v1/scripts']!.get!.responses['200']!), ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']);
  for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed']) {
    assert.ok(document.components.headers![name]?.schema, `components.headers.${name}`);
  }
  assert.is(document.components.parameters!['Idempotency-Key']!.in, 'header');
});

openapi('the statuses each operation can answer: 409 of the refusing DELETEs, 404 only with an id, 413 only with a body', () => {
  assert.match(document.paths['/v1/scripts/{id}']!.delete!.responses['409']!.description, 'invalid_state');
  assert.match(document.paths['/v1/api-keys/{id}']!.delete!.responses['409']!.description, 'invalid_state');
  assert.not.ok(document.paths['/v1/webhooks/{id}']!.delete!.responses['409'], 'deleting a webhook is never refused');
  assert.not.ok(document.paths['/v1/scripts']!.get!.responses['404'], 'a list has no id to miss');
  assert.ok(document.paths['/v1/campaigns']!.post!.responses['404'], 'script_id in the body');
  const createCall = document.paths['/v1/calls']!.post!.responses['409']!.description;
  assert.match(createCall, 'number_suppressed');
  assert.match(createCall, 'idempotency_key_reused');
  assert.ok(document.paths['/v1/scripts']!.post!.responses['413']);
  assert.not.ok(document.paths['/v1/scripts']!.get!.responses['413']);
  assert.ok(document.paths['/health']!.get!.responses['401'], 'a key in the URL is refused on public endpoints too');
});

openapi('Error.code is the enum of every code the service answers, domain refusals included', () => {
  const codes = document.components.schemas!.ErrorCode!.enum as string[];
  const root = new URL('../../', import.meta.url).pathname;
  const sources = (folder: string): string[] =>
    readdirSync(join(root, folder)).flatMap((entry) => {
      const path = join(folder, entry);
      return statSync(join(root, path)).isDirectory() ? sources(path) : entry.endsWith('.ts') ? [path] : [];
    });
  const raised = new Set<string>();
  for (const file of ['domain', 'commands', 'http'].flatMap(sources)) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/new (?:DomainError|ApiError)\(\s*'([a-z_]+)'|errorBody\('([a-z_]+)'/g)) raised.add(match[1] ?? match[2]!);
  }
  for (const helper of ['invalid_state', 'resource_not_found', 'already_exists']) raised.add(helper);
  assert.ok(raised.size >= 10, `found ${raised.size} codes in the sources`);
  for (const code of raised) assert.ok(codes.includes(code), `${code} is in the ErrorCode enum`);
});

openapi('webhooks: every event the service emits, its envelope and data as schemas, the delivery headers', () => {
  assert.equal(Object.keys(document.webhooks).sort(), [...WEBHOOK_EVENT_NAMES].sort());
  for (const [event, { post }] of Object.entries(document.webhooks)) {
    const envelope = post.requestBody.content['application/json']!.schema.$ref.replace('#/components/schemas/', '');
    const schema = document.components.schemas![envelope]!;
    assert.equal(schema.required, ['event', 'id', 'timestamp', 'data'], `${event} envelope`);
    assert.equal(schema.properties.event.enum ?? [schema.properties.event.const], [event]);
    const headers = (post.parameters ?? []).map((parameter) => parameter.$ref);
    assert.ok(headers.includes('#/components/parameters/X-Service-Signature'), `${event} is signed`);
    assert.ok(headers.includes('#/components/parameters/X-Service-Event-Id'), `${event} carries its id`);
  }
  assert.match(document.components.parameters!['X-Service-Signature']!.schema.pattern, 'sha256=');
});

openapi('input constraints the server enforces are declared; request defaults do not force fields on clients', () => {
  const schemas = document.components.schemas!;
  const e164 = '^\\+[1-9]\\d{6,14}$';
  assert.is(schemas.ContactInput.properties.phone.pattern, e164);
  assert.is(schemas.PlaceCall.properties.phone.pattern, e164);
  assert.is(schemas.SuppressNumber.properties.phone.pattern, e164);
  assert.ok(schemas.CreateCampaign.properties.language.enum.includes('hi-IN'));
  assert.is(schemas.CreateCampaign.properties.name.maxLength, 255);
  assert.equal(schemas.TranscriptionInput.oneOf, [{ required: ['audio_url'] }, { required: ['transcript'] }]);
  assert.is(schemas.WebhookInput.properties.url.pattern, '^https://');
  const from = (document.paths['/v1/calls']!.get!.parameters as Array<{ name?: string; schema?: { pattern?: string; format?: string } }>).find((parameter) => parameter.name === 'from')!;
  assert.ok(new RegExp(from.schema!.pattern!).test('2026-03-01'), 'a date alone is declared as accepted');
  assert.is(from.schema!.format, undefined);
  assert.not.ok('default' in schemas.ScriptInput.properties.single_call_enabled);
  assert.match(schemas.ScriptInput.properties.single_call_enabled.description, 'Default: `false`.');
  assert.not.ok(schemas.ScriptInput.required.includes('single_call_enabled'));
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
