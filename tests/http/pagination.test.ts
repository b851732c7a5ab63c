import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

const pagination = suite('pagination');
let server: TestServer;
let api: ApiClient;
const LISTS = ['/v1/scripts', '/v1/api-keys'];

pagination.before(async () => {
  server = await startServer();
  api = client(server, (await createWorkspace(server, 'Pages')).key);
  for (let index = 0; index < 5; index++) {
    const created = await api.post('/v1/scripts', { name: `Script ${index}`, steps: [{ id: 'only', say: `Hello ${index}`, end: true }] });
    assert.is(created.status, 201);
  }
});
pagination.after(async () => server.stop());

pagination('limit outside 1..100, or not a whole number: 400 with field, provided and expected', async () => {
  for (const list of LISTS) {
    for (const value of ['0', '101', '-1', 'abc', '1.5', '', '1e1', ' 5']) {
      const response = await api.get(`${list}?limit=${encodeURIComponent(value)}`);
      assert.is(response.status, 400, `${list} limit=${value}`);
      assert.equal(response.body.error, {
        code: 'invalid_parameter',
        message: 'Invalid limit: expected an integer from 1 to 100.',
        details: { field: 'limit', provided: value, expected: 'an integer from 1 to 100' },
      });
    }
    const twice = await api.get(`${list}?limit=1&limit=2`);
    assert.equal(twice.body.error.details, { field: 'limit', provided: ['1', '2'], expected: 'an integer from 1 to 100' });
  }
});

pagination('offset below 0 or not a whole number: 400', async () => {
  for (const list of LISTS) {
    for (const value of ['-1', 'abc', '2.5']) {
      const response = await api.get(`${list}?offset=${value}`);
      assert.is(response.status, 400);
      assert.equal(response.body.error.details, { field: 'offset', provided: value, expected: 'an integer from 0 to 1000000000' });
    }
  }
});

pagination('defaults 20 and 0; bounds 1 and 100 accepted; pages do not overlap; past the end is empty', async () => {
  const all = await api.get('/v1/scripts');
  assert.equal([all.body.limit, all.body.offset, all.body.total, all.body.data.length], [20, 0, 5, 5]);
  assert.is((await api.get('/v1/scripts?limit=1')).body.data.length, 1);
  assert.is((await api.get('/v1/scripts?limit=100')).body.data.length, 5);
  const first = await api.get('/v1/scripts?limit=2&offset=0');
  const second = await api.get('/v1/scripts?limit=2&offset=2');
  assert.equal([...first.body.data, ...second.body.data].map((item: { id: string }) => item.id), all.body.data.slice(0, 4).map((item: { id: string }) => item.id));
  const beyond = await api.get('/v1/scripts?offset=50');
  assert.equal({ ...beyond.body, data: beyond.body.data.length }, { data: 0, total: 5, limit: 20, offset: 50 });
});

pagination.run();
