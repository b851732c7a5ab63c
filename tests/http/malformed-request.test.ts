import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from '../support/server.ts';

// Requests Node's HTTP parser refuses before the app: found by the fuzz (tests/http/fuzz), which got a bare 431.
const malformed = suite('requests the HTTP parser refuses get the error envelope');
let server: TestServer;

malformed.before(async () => {
  server = await startServer();
});
malformed.after(async () => server?.stop());

function exchange(raw: string): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

function parse(response: string): { status: number; headers: string; body: unknown } {
  const [head, body] = response.split('\r\n\r\n') as [string, string];
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

malformed('headers over 16 KB: 431 headers_too_large', async () => {
  const response = parse(await exchange(`GET /v1/scripts/${'y'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
  assert.is(response.status, 431);
  assert.match(response.headers, 'content-type: application/json');
  assert.equal(response.body, {
    error: { code: 'headers_too_large', message: 'The request line and headers are larger than the server accepts (16 KB).', details: { limit_bytes: 16_384 } },
  });
});

malformed('bytes that are not HTTP: 400 invalid_parameter on the request', async () => {
  const response = parse(await exchange('NOT HTTP AT ALL\r\n\r\n'));
  assert.is(response.status, 400);
  assert.equal(response.body, {
    error: { code: 'invalid_parameter', message: 'The request is not well-formed HTTP/1.1.', details: { field: 'request', provided: null, expected: 'a well-formed HTTP/1.1 request' } },
  });
  assert.is((await fetch(`${server.baseUrl}/health`)).status, 200);
});

malformed.run();
