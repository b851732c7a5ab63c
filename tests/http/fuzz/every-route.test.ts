import * as fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_BODY_BYTES } from '../../../http/middleware/json-body.ts';
import { client, createWorkspace, setRateLimit, startServer, type ApiClient, type TestServer } from '../../support/server.ts';
import { loanRenewalScript } from '../../support/scripts.ts';
import { brokenBodyText, contentType, hostilePathSegment, hostileQueryValue, mutatedBody, oddString } from './hostile-inputs.ts';
import { operationsOf, type OpenApiDocument, type Operation } from './openapi-operations.ts';
import { rawRequest } from './raw-request.ts';
import { checkResponse, type ObservedResponse } from './response-contract.ts';
import { valueOf } from './schema-values.ts';

/**
 * Fuzz of every route the OpenAPI document lists, over one real server: generated requests (mutated bodies, odd
 * unicode, wrong content types, hostile path and query values, bad credentials) must never get a 5xx, a response
 * that is not JSON, an error outside the envelope, or a glimpse of the server's insides; afterwards the server is
 * alive and its heap has not run away. FUZZ_RUNS_PER_ROUTE raises the budget (default 40 requests a route).
 */
const fuzz = suite('HTTP fuzz of every route');
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 40);
/** Generous: without a forced collection in the server, a heap may hold a few hundred requests' garbage. */
const MAX_HEAP_GROWTH_BYTES = 256 * 1024 * 1024;

let server: TestServer;
let key: string;
let api: ApiClient;
let document: OpenApiDocument;
let operations: Operation[];
/** Ids of real resources, by the collection path they live under, so that some requests reach the handlers. */
const knownIds = new Map<string, string>();
let heapBefore = 0;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Statuses seen, for the report at the end: a fuzz that only ever gets 400s is not reaching the handlers. */
const statusesSeen = new Map<number, number>();

async function send(request: FuzzRequest): Promise<ObservedResponse> {
  const response = await rawRequest(server.baseUrl, request.method, request.path, request.headers, request.body);
  statusesSeen.set(response.status, (statusesSeen.get(response.status) ?? 0) + 1);
  return response;
}

function describe(request: FuzzRequest): string {
  return `${request.method} ${request.path.slice(0, 200)} ${request.headers['content-type'] ?? ''} ${(request.body ?? '').slice(0, 200)}`;
}

async function heapUsed(): Promise<number> {
  const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(metrics)?.[1] ?? NaN);
}

function knownIdFor(operation: Operation): string | undefined {
  const collection = operation.path.slice(0, operation.path.indexOf('/{'));
  return knownIds.get(collection);
}

function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const known = knownIdFor(operation);
  const segment = known ? fc.oneof({ weight: 3, arbitrary: fc.constant(encodeURIComponent(known)) }, { weight: 2, arbitrary: hostilePathSegment }) : hostilePathSegment;
  const path = fc.tuple(...operation.pathParameters.map(() => segment)).map((values) => {
    let filled = operation.path;
    operation.pathParameters.forEach((name, index) => (filled = filled.replace(`{${name}}`, values[index]!)));
    return filled;
  });
  const documented = [...operation.queryParameters.map((parameter) => parameter.name), 'limit', 'offset'];
  // Now and then a name the route does not know, or one that carries credentials (refused 401 by design).
  const queryName = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...documented) }, { weight: 1, arbitrary: fc.constantFrom('junk', 'api_key', '') });
  const query = fc
    .array(fc.tuple(queryName, hostileQueryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`));
  const takesBody = operation.body !== null || operation.method === 'DELETE';
  const validBody = operation.body ? valueOf(operation.body, document) : fc.constant({});
  const body = takesBody
    ? fc.option(
        fc.oneof({ weight: 2, arbitrary: validBody.map((value) => JSON.stringify(value)) }, { weight: 4, arbitrary: mutatedBody(validBody) }, { weight: 1, arbitrary: brokenBodyText }),
        { nil: undefined, freq: operation.body ? 10 : 2 },
      )
    : fc.constant(undefined);
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer vcs_not_a_key', `Basic ${key}`, `Bearer ${key}x`, `bearer  ${key}`) },
  );
  const method = operation.method === 'GET' ? fc.oneof({ weight: 9, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constant('HEAD') }) : fc.constant(operation.method);
  const idempotencyKey = fc.option(fc.constantFrom('k1', 'k2', 'x'.repeat(300), ' '), { nil: undefined, freq: 4 });
  return fc.record({ method, path, query, body, contentType, authorization, idempotencyKey }).map((parts) => {
    const headers: Record<string, string> = {};
    if (parts.authorization !== '') headers.authorization = parts.authorization;
    if (parts.body !== undefined && parts.contentType !== '') headers['content-type'] = parts.contentType;
    if (parts.idempotencyKey !== undefined && parts.method === 'POST') headers['idempotency-key'] = parts.idempotencyKey;
    return { method: parts.method, path: `${parts.path}${parts.query}`, headers, ...(parts.body === undefined ? {} : { body: parts.body }) };
  });
}

fuzz.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual' } });
  const workspace = await createWorkspace(server, 'Fuzz');
  key = workspace.key;
  // The fuzz sends thousands of requests a minute; the rate limit is tested elsewhere.
  await setRateLimit(server, workspace.workspaceId, 10_000_000);
  api = client(server, key);
  document = (await api.get('/v1/openapi.json')).body as OpenApiDocument;
  operations = operationsOf(document);
  const script = await api.post('/v1/scripts', loanRenewalScript());
  assert.is(script.status, 201, script.text);
  knownIds.set('/v1/scripts', script.body.id);
  const contact = { phone: '+919876543210', name: 'Asha', lender: 'Acme', amount: 5000 };
  const campaign = await api.post('/v1/campaigns', { name: 'Fuzz', script_id: script.body.id, language: 'hi-IN', contacts: [contact] });
  assert.is(campaign.status, 201, campaign.text);
  knownIds.set('/v1/campaigns', campaign.body.id);
  const call = await api.post('/v1/calls', { phone: '+919876543211', name: 'Ravi', script_id: script.body.id, language: 'hi-IN', metadata: { lender: 'Acme', amount: 10 } });
  assert.is(call.status, 201, call.text);
  knownIds.set('/v1/calls', call.body.id);
  knownIds.set('/v1/recordings', call.body.id);
  const suppressed = await api.post('/v1/suppressions', { phone: '+14155550123' });
  assert.ok(suppressed.status < 300, suppressed.text);
  knownIds.set('/v1/suppressions', '+14155550123');
  heapBefore = await heapUsed();
});

fuzz.after(async () => server?.stop());

fuzz('the document lists the routes to fuzz', () => {
  assert.ok(operations.length >= 30, `${operations.length} operations`);
  assert.ok(operations.some((operation) => operation.path === '/v1/sandbox/clock'), 'the manual clock route is served and fuzzed too');
});

fuzz('every route answers generated requests within the contract', async () => {
  for (const operation of operations) {
    await fc.assert(
      fc.asyncProperty(requestFor(operation), async (request) => {
        checkResponse(await send(request), operation.successContentTypes, describe(request));
      }),
      { numRuns: RUNS_PER_ROUTE, includeErrorInReport: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
  }
});

fuzz('bodies just under and over the size limit, and nested 10,000 deep, on every route that takes one', async () => {
  const nested = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  const justUnder = `{"name":"${'x'.repeat(MAX_BODY_BYTES - 20)}"}`;
  const justOver = `{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
  for (const operation of operations.filter((candidate) => candidate.body !== null)) {
    const known = knownIdFor(operation) ?? 'x';
    const path = operation.pathParameters.reduce((filled, name) => filled.replace(`{${name}}`, encodeURIComponent(known)), operation.path);
    for (const body of [nested, justUnder, justOver]) {
      const request = { method: operation.method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body };
      checkResponse(await send(request), operation.successContentTypes, describe(request));
    }
  }
});

fuzz('odd unicode in every string field of a valid body is answered within the contract', async () => {
  for (const operation of operations.filter((candidate) => candidate.body !== null)) {
    const known = knownIdFor(operation) ?? 'x';
    const path = operation.pathParameters.reduce((filled, name) => filled.replace(`{${name}}`, encodeURIComponent(known)), operation.path);
    await fc.assert(
      fc.asyncProperty(valueOf(operation.body!, document), oddString, async (value, odd) => {
        const body = JSON.stringify(value, (_key, member: unknown) => (typeof member === 'string' ? odd : member));
        const request = { method: operation.method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body };
        checkResponse(await send(request), operation.successContentTypes, describe(request));
      }),
      { numRuns: 10, includeErrorInReport: true },
    );
  }
});

fuzz('afterwards the server is alive, ready, and its heap has not run away', async () => {
  const health = await fetch(`${server.baseUrl}/health`);
  assert.is(health.status, 200);
  const ready = await fetch(`${server.baseUrl}/ready`);
  assert.is(ready.status, 200, await ready.text());
  const growth = (await heapUsed()) - heapBefore;
  assert.ok(Number.isFinite(growth), 'the heap is reported in /metrics');
  assert.ok(growth < MAX_HEAP_GROWTH_BYTES, `heap grew by ${Math.round(growth / 1e6)} MB`);
  if (process.env.FUZZ_STATS) process.stdout.write(`statuses: ${JSON.stringify(Object.fromEntries(statusesSeen))}, heap growth ${Math.round(growth / 1e6)} MB\n`);
});

fuzz.run();
