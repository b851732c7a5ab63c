import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { assertBlobKey, type BlobStore } from './port.ts';

/** Blobs as files under one directory (`DATA_DIR/blobs`): the embedded default. */
export function createFileBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(root, key);
  };
  return {
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Write beside the target, then rename: a crash mid-write leaves a stray temp file, never a torn blob.
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, path);
    },
    async size(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? info.size : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    read(key, range): Readable {
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
    },
    localPath(key) {
      return pathOf(key);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
