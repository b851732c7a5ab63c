import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommandHandler } from '../commands/handler.ts';
import { registerWebhookCommand } from '../commands/register-webhook.ts';
import { webhookDecider, webhookStream } from '../domain/webhook.ts';
import { createSqliteEventStore } from '../infra/eventstore/sqlite.ts';
import { loadSecretBox } from '../infra/crypto/secret-box.ts';
import { EventStoreWorkQueue } from '../infra/work-queue/event-store-queue.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'cli-'));

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

let workspaceId = '';

test('workspaces create prints the first Admin key once', async () => {
  const { stdout, code } = await cli('workspaces', 'create', '--name', 'Acme Lending', '--json');
  assert.is(code, 0);
  const created = JSON.parse(stdout);
  assert.equal(Object.keys(created).sort(), ['key', 'key_id', 'scope', 'workspace_id']);
  assert.is(created.scope, 'Admin');
  assert.match(created.key, /^vcs_[0-9a-z]{40}$/);
  workspaceId = created.workspace_id;
});

test('keys create, list (no secrets), revoke', async () => {
  const created = JSON.parse((await cli('keys', 'create', '--workspace', workspaceId, '--name', 'reporting', '--scope', 'Read-Only', '--json')).stdout);
  assert.equal(Object.keys(created).sort(), ['id', 'key', 'name', 'scope', 'workspace_id']);
  const listed = await cli('keys', 'list', '--workspace', workspaceId, '--json');
  const keys = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
  assert.is(keys.length, 2);
  assert.not.ok(listed.stdout.includes(created.key), 'the secret is never listed');
  assert.not.ok(listed.stdout.includes('secret_hash'));
  assert.ok('last_used_at' in keys[0]!);
  const revoked = JSON.parse((await cli('keys', 'revoke', created.id, '--json')).stdout);
  assert.type(revoked.revoked_at, 'string');
  const table = await cli('keys', 'list', '--workspace', workspaceId);
  assert.match(table.stdout, /reporting/);
});

test('set-rate-limit and streams for auditors', async () => {
  const updated = JSON.parse((await cli('workspaces', 'set-rate-limit', workspaceId, '5000', '--json')).stdout);
  assert.is(updated.rate_limit_per_minute, 5000);
  const streams = JSON.parse((await cli('streams', 'list', '--prefix', 'workspace-', '--json')).stdout);
  assert.equal(streams, [{ stream: `workspace-${workspaceId}`, revision: 1, events: 2 }]);
  const lines = (await cli('streams', 'read', `workspace-${workspaceId}`, '--json')).stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines.map((line) => line.type), ['WorkspaceCreated', 'WorkspaceRateLimitSet']);
  assert.equal(Object.keys(lines[0]).sort(), ['data', 'id', 'metadata', 'position', 'revision', 'time', 'type']);
  assert.is(lines[0].metadata.actor, 'cli');
});

test('streams read shows a webhook secret as [redacted]', async () => {
  // Appended straight to the same events.db, as the server would (the CLI and the server share DATA_DIR).
  const store = createSqliteEventStore(join(dataDir, 'events.db'));
  const register = registerWebhookCommand(loadSecretBox(join(dataDir, 'secrets.key')), {
    webhook_id: 'wh_cli',
    workspace_id: workspaceId,
    url: 'https://example.com/h',
    events: ['*'],
    secret: 'whsec_do_not_show',
    created_at: new Date().toISOString(),
    registered_webhooks: 0,
  });
  await new CommandHandler(store).handle(webhookDecider, webhookStream('wh_cli'), register, { workspaceId, actor: 'test', now: new Date() });
  await store.close();
  const { stdout, code } = await cli('streams', 'read', 'webhook-wh_cli', '--json');
  assert.is(code, 0);
  assert.not.ok(stdout.includes('whsec_do_not_show'), stdout);
  assert.not.ok(stdout.includes(register.data.secret!), 'not even sealed');
  assert.is(JSON.parse(stdout.trim()).data.secret, '[redacted]');
});

test('projections status and rebuild', async () => {
  const status = JSON.parse((await cli('projections', 'status', '--json')).stdout) as Array<{ name: string; lag: number }>;
  assert.ok(status.some((entry) => entry.name === 'api_keys'));
  assert.ok(status.every((entry) => entry.lag === 0));
  const rebuilt = JSON.parse((await cli('projections', 'rebuild', 'api_keys', '--json')).stdout);
  assert.equal(rebuilt.rebuilt, ['api_keys']);
  const keys = JSON.parse((await cli('keys', 'list', '--workspace', workspaceId, '--json')).stdout);
  assert.is(keys.length, 2);
});

test('queue parked lists parked work items; queue requeue puts one back for the nodes to claim, with a fresh set of attempts', async () => {
  // Parked by a node of a cluster on this events.db (the adapter the nodes use, on the same file).
  const store = createSqliteEventStore(join(dataDir, 'events.db'));
  const node = new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'n1' });
  try {
    for (const [queue, id] of [['webhooks', 'dlv_cli-1'], ['reports', 'rrn_cli']] as const) {
      await node.enqueue(queue, { id, payload: { id }, maxAttempts: 1 });
      const [claimed] = await node.claim(queue, { consumer: 'n1', max: 1 });
      await node.nack(claimed!, { reason: 'the receiver refused' });
    }
    const listed = await cli('queue', 'parked', '--json');
    assert.is(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout), [
      { queue: 'webhooks', id: 'dlv_cli-1', attempts: 1, reason: 'the receiver refused (attempt 1 of 1)', payload: { id: 'dlv_cli-1' } },
      { queue: 'reports', id: 'rrn_cli', attempts: 1, reason: 'the receiver refused (attempt 1 of 1)', payload: { id: 'rrn_cli' } },
    ]);
    assert.equal(JSON.parse((await cli('queue', 'parked', '--queue', 'reports', '--json')).stdout).map((item: { id: string }) => item.id), ['rrn_cli']);
    assert.match((await cli('queue', 'parked')).stdout, /dlv_cli-1/);

    const requeued = await cli('queue', 'requeue', 'dlv_cli-1', '--json');
    assert.is(requeued.code, 0, requeued.stderr);
    assert.equal(JSON.parse(requeued.stdout), { queue: 'webhooks', id: 'dlv_cli-1', requeued: true });
    assert.equal(JSON.parse((await cli('queue', 'parked', '--json')).stdout).map((item: { id: string }) => item.id), ['rrn_cli']);
    const [again] = await node.claim('webhooks', { consumer: 'n1', max: 1 });
    assert.equal([again?.id, again?.attempt], ['dlv_cli-1', 1], 'claimable again, a fresh set of attempts');

    for (const args of [['queue', 'requeue', 'dlv_cli-1'], ['queue', 'requeue', 'rrn_cli', '--queue', 'calls'], ['queue', 'parked', '--queue', 'nope'], ['queue', 'requeue']]) {
      const { code, stderr } = await cli(...args);
      assert.is(code, 2, args.join(' '));
      assert.match(stderr, /^error: (no parked item|unknown queue|missing ITEM_ID)/);
    }
  } finally {
    await node.close();
    await store.close();
  }
});

test('bad arguments: a one-line error and exit code 2', async () => {
  for (const args of [['bogus'], ['keys', 'create', '--workspace', workspaceId, '--name', 'x', '--scope', 'Root'], ['workspaces', 'set-rate-limit', workspaceId, 'fast'], ['keys', 'revoke', 'key_nope'], ['projections', 'rebuild', 'nope'], ['workspaces', 'create', '--nme', 'x']]) {
    const { code, stderr } = await cli(...args);
    assert.is(code, 2, args.join(' '));
    assert.is(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, /^error: /);
  }
});

test.after(() => rmSync(dataDir, { recursive: true, force: true }));
test.run();
