import { request as httpRequest } from 'node:http';
import { z } from '@hono/zod-openapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRouter, defineRoute } from '../../http/define-route.ts';
import { fieldPath, safeProvided } from '../../http/errors.ts';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../../http/middleware/json-body.ts';
import { inProcessApp } from '../support/app.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

const units = suite('error details');

units('field paths name array items and nested fields', () => {
  assert.is(fieldPath(['contacts', 3, 'phone']), 'contacts[3].phone');
  assert.is(fieldPath(['steps', 1, 'listen', 'routes', 2, 'next']), 'steps[1].listen.routes[2].next');
  assert.is(fieldPath([]), '');
});

units('provided values never echo secrets and are cut short', () => {
  assert.is(safeProvided('secret', 'hunter2'), '[redacted]');
  assert.is(safeProvided('webhook.secret', 'hunter2'), '[redacted]');
  assert.is(safeProvided('api_key', 'vcs_x'), '[redacted]');
  assert.is(safeProvided('name', 'Asha'), 'Asha');
  assert.is(safeProvided('name', undefined), null);
  assert.is((safeProvided('name', 'x'.repeat(1000)) as string).length, 257);
  assert.is(safeProvided('contacts', Array.from({ length: 500 }, () => ({ phone: '+919876543210' }))), '[an array of 500 items]');
});

units.run();

const unexpected = suite('unexpected failures (in-process)');

unexpected('a thrown error is a 500 internal_error with the request id, and nothing of the error itself', async () => {
  const boom = defineRoute({ method: 'get', path: '/boom', operationId: 'boom', responses: { 200: { description: 'never', content: { 'application/json': { schema: z.object({}) } } } } });
  const harness = await inProcessApp({}, (app) => {
    const router = createRouter();
    router.openapi(boom, () => {
      throw new Error('database password is hunter2 at /srv/secret/path');
    });
    app.route('/v1', router);
  });
  try {
    const { key } = await harness.workspace();
    const response = await harness.app.request('/v1/boom', { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'req-500-test' } });
    assert.is(response.status, 500);
    assert.is(response.headers.get('x-request-id'), 'req-500-test');
    const text = await response.text();
    assert.equal(JSON.parse(text), {
      error: {
        code: 'internal_error',
        message: 'Unexpected server error; quote the request id when reporting it.',
        details: { request_id: 'req-500-test' },
      },
    });
    assert.not.match(text, 'hunter2');
    assert.not.match(text, 'at ');
  } finally {
    await harness.close();
  }
});

unexpected.run();

const e2e = suite('error envelope over the real server');
let server: TestServer;
let api: ApiClient;

e2e.before(async () => {
  server = await startServer();
  api = client(server, (await createWorkspace(server, 'Errors')).key);
});
e2e.after(async () => server.stop());

e2e('an unknown route is 404 not_found, with or without a key', async () => {
  for (const caller of [api, client(server)]) {
    const response = await caller.get('/v1/nothing-here');
    assert.is(response.status, 404);
    assert.equal(response.body, { error: { code: 'not_found', message: 'No endpoint /v1/nothing-here; see /v1/openapi.json.', details: { path: '/v1/nothing-here' } } });
  }
});

e2e('a wrong method is 405 method_not_allowed with Allow', async () => {
  const response = await api.patch('/v1/scripts', {});
  assert.is(response.status, 405);
  assert.is(response.headers.get('allow'), 'POST, GET, HEAD');
  assert.equal(response.body.error.code, 'method_not_allowed');
  assert.equal(response.body.error.details, { method: 'PATCH', allowed: ['POST', 'GET', 'HEAD'] });
});

e2e('bodies: missing or wrong Content-Type, malformed JSON, a non-object: 400 on field body', async () => {
  const expected = 'a JSON object with Content-Type: application/json';
  const cases: Array<[Record<string, string>, string, unknown]> = [
    [{}, '{"name":"x"}', 'text/plain;charset=UTF-8'],
    [{ 'content-type': 'text/csv' }, 'name\nx', 'text/csv'],
    [{ 'content-type': 'application/json' }, '{"name": ', null],
    [{ 'content-type': 'application/json' }, '', null],
    [{ 'content-type': 'application/json' }, '[1, 2]', 'an array'],
    [{ 'content-type': 'application/json' }, '"text"', 'a string'],
    [{ 'content-type': 'application/json' }, 'null', 'null'],
  ];
  for (const [headers, rawBody, provided] of cases) {
    const response = await api.request('POST', '/v1/scripts', { rawBody, headers });
    assert.is(response.status, 400, rawBody);
    assert.is(response.body.error.code, 'invalid_parameter');
    assert.equal(response.body.error.details, { field: 'body', provided, expected }, rawBody);
  }
});

e2e('JSON nested deeper than 64 levels is 400 on body, at any size (4,000 levels were a 500)', async () => {
  for (const depth of [65, 4_000, 50_000]) {
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const path of ['/v1/scripts', '/v1/transcription', '/v1/webhooks', '/v1/campaigns']) {
      const response = await api.request('POST', path, { rawBody: `{"name": ${nested}}`, headers: { 'content-type': 'application/json' } });
      assert.is(response.status, 400, `${path} at ${depth}`);
      assert.equal(response.body.error.details, { field: 'body', provided: null, expected: `JSON nested at most ${MAX_JSON_DEPTH} levels deep` });
    }
  }
  const shallow = await api.request('POST', '/v1/scripts', { rawBody: `{"name": ${'['.repeat(60)}${']'.repeat(60)}}`, headers: { 'content-type': 'application/json' } });
  assert.is(shallow.body.error.details.field, 'name', 'within the limit, the schema answers');
});

e2e('the parse error never quotes the body', async () => {
  const response = await api.request('POST', '/v1/scripts', { rawBody: '{"secret": "hunter2", oops}', headers: { 'content-type': 'application/json' } });
  assert.is(response.status, 400);
  assert.not.match(response.text, 'hunter2');
});

function rawPost(path: string, headers: Record<string, string | number>, write: (send: (chunk: Buffer) => boolean) => Promise<void>) {
  return new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const url = new URL(path, server.baseUrl);
    const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }));
    });
    // The server answers before the upload ends and closes the connection: that is the point.
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    void write((chunk) => request.write(chunk)).then(() => request.end());
  });
}

e2e('a body over 10 MB is 413 payload_too_large: declared, or streamed in chunks', async () => {
  const { key } = await createWorkspace(server, 'Large');
  const declared = await rawPost('/v1/scripts', { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': MAX_BODY_BYTES + 1 }, async (send) => {
    send(Buffer.from('{"name":"'));
  });
  assert.is(declared.status, 413);
  assert.is(declared.connection, 'close');
  assert.equal(JSON.parse(declared.body), {
    error: { code: 'payload_too_large', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`, details: { limit_bytes: MAX_BODY_BYTES } },
  });
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const streamed = await rawPost('/v1/scripts', { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, async (send) => {
    send(Buffer.from('{"name":"'));
    for (let index = 0; index < 12; index++) {
      if (!send(chunk)) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  assert.is(streamed.status, 413);
  assert.is(JSON.parse(streamed.body).error.code, 'payload_too_large');
  // The server is fine afterwards.
  assert.is((await client(server, key).get('/v1/scripts')).status, 200);
});

e2e('X-Request-Id: echoed when the client sends a plain one, generated otherwise', async () => {
  const echoed = await api.get('/v1/scripts', { headers: { 'x-request-id': 'client-id-42' } });
  assert.is(echoed.headers.get('x-request-id'), 'client-id-42');
  const generated = await api.get('/v1/scripts', { headers: { 'x-request-id': 'bad id with spaces' } });
  assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const onError = await client(server).get('/v1/scripts');
  assert.match(onError.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

e2e.run();
