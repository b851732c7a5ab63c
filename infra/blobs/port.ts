import type { Readable } from 'node:stream';

/**
 * Where large binary objects (call recordings, uploaded or downloaded audio) live, addressed by a key such as
 * `recordings/cal_xxx.wav`. Keys are chosen by the service (never by a client) and are deterministic where the
 * writer is a process manager, so a replay overwrites the same object instead of leaving a second one.
 */
export interface BlobStore {
  /** Writes the whole object atomically: readers see the old object or the new one, never half of it. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** A stream of the object's bytes; `range` is inclusive as in HTTP `Range: bytes=start-end`. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A path on the local disk for tools that need a file (ffmpeg); null for stores without one. */
  localPath(key: string): string | null;
  delete(key: string): Promise<void>;
}

export class InvalidBlobKey extends Error {}

const KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

export function assertBlobKey(key: string): void {
  if (key.length > 300 || !KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new InvalidBlobKey(`invalid blob key ${JSON.stringify(key)}`);
  }
}
