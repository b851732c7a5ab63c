// One server per DATA_DIR: a second server is refused while the first lives, whichever way the first ends the
// next one starts, and the operator CLI works beside a server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUse, lockDataDir } from '../../../infra/storage/data-dir-lock.ts';
import { cli, startServer } from '../../support/server.ts';

test('a second lock on the same DATA_DIR is refused until the first is released; another DATA_DIR is free', () => {
  const directory = mkdtempSync(join(tmpdir(), 'lock-'));
  const other = mkdtempSync(join(tmpdir(), 'lock-other-'));
  try {
    const first = lockDataDir(directory);
    assert.throws(() => lockDataDir(directory), (error: unknown) => error instanceof DataDirInUse && error.message.includes(directory));
    lockDataDir(other).release();
    first.release();
    lockDataDir(directory).release();
  } finally {
    rmSync(directory, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  }
});

test('a second server on a DATA_DIR exits with a clear message; after the first is killed (SIGKILL) a server starts; the CLI runs beside it', async () => {
  const server = await startServer();
  try {
    let refused = '';
    try {
      const second = await startServer({ dataDir: server.dataDir });
      await second.stop({ keepData: true });
    } catch (error) {
      refused = (error as Error).message;
    }
    assert.match(refused, 'server exited with 1');
    assert.match(refused, 'another server is running on DATA_DIR');
    assert.is((await fetch(`${server.baseUrl}/health`)).status, 200, 'the first one is unharmed');
    const listed = await cli(server.dataDir, ['workspaces', 'list', '--json']);
    assert.is(listed.code, 0, listed.stderr);
    await server.restart({ signal: 'SIGKILL' });
    assert.is((await fetch(`${server.baseUrl}/health`)).status, 200, 'no stale lock after a crash');
  } finally {
    await server.stop();
  }
});

test.run();
