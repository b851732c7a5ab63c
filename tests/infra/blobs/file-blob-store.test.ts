import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createFileBlobStore } from '../../../infra/blobs/file-blob-store.ts';
import { assertBlobKey, InvalidBlobKey } from '../../../infra/blobs/port.ts';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('file blob store: put, size, read whole and by inclusive range, overwrite, delete', async () => {
  const root = mkdtempSync(join(tmpdir(), 'blobs-'));
  try {
    const store = createFileBlobStore(root);
    const data = Buffer.from('0123456789abcdef');
    assert.is(await store.size('recordings/cal_1.wav'), null);
    await store.put('recordings/cal_1.wav', data);
    assert.is(await store.size('recordings/cal_1.wav'), 16);
    assert.equal(await bytesOf(store.read('recordings/cal_1.wav')), data);
    assert.equal((await bytesOf(store.read('recordings/cal_1.wav', { start: 2, end: 5 }))).toString(), '2345');
    assert.is(store.localPath('recordings/cal_1.wav'), join(root, 'recordings/cal_1.wav'));
    await store.put('recordings/cal_1.wav', Buffer.from('new'));
    assert.is((await bytesOf(store.read('recordings/cal_1.wav'))).toString(), 'new');
    assert.equal(readdirSync(join(root, 'recordings')), ['cal_1.wav'], 'no temporary file is left behind');
    assert.is(await store.size('recordings'), null, 'a directory is not a blob');
    await store.delete('recordings/cal_1.wav');
    assert.is(await store.size('recordings/cal_1.wav'), null);
    await store.delete('recordings/cal_1.wav');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('blob keys: relative, no traversal, no odd characters', () => {
  for (const key of ['recordings/cal_1.wav', 'a', 'audio/2026/x-y_z.mp3']) assertBlobKey(key);
  for (const key of ['', '/etc/passwd', '../x', 'a/../b', 'a/./b', 'a//b', 'a/', 'a b', 'x'.repeat(301), 'recordings/\u00e9.wav']) {
    assert.throws(() => assertBlobKey(key), (error: unknown) => error instanceof InvalidBlobKey, JSON.stringify(key));
  }
  const store = createFileBlobStore(tmpdir());
  assert.throws(() => store.localPath('../outside'), (error: unknown) => error instanceof InvalidBlobKey);
});

test.run();
