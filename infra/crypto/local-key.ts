import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const KEY_BYTES = 32;
const KEY_FILE_FORMAT = /^[0-9a-f]{64}$/;

/**
 * Key material for one purpose (signing URLs, sealing secrets): the configured value when one is set (several
 * servers sharing a DATA_DIR must agree), otherwise 32 random bytes created on first start and kept in `keyPath`
 * (hex, mode 0600), so what was signed or sealed stays valid across restarts.
 *
 * The file is written whole to a temporary name, flushed, and then linked into place, which fails if the key
 * already exists: a crash never leaves a half-written key, and two processes starting at once agree on one key.
 * A key file that is not exactly 64 hex characters (empty, truncated, edited) stops the start with a message
 * instead of yielding a short key.
 */
export function loadOrCreateKey(keyPath: string, configured?: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  if (!existsSync(keyPath)) createKeyFile(keyPath);
  const text = readFileSync(keyPath, 'utf8').trim();
  if (!KEY_FILE_FORMAT.test(text)) {
    throw new Error(
      `${keyPath} is not a key (expected 64 hex characters): restore it from a backup, or delete it to start with a new key (what was signed or sealed with the old one can no longer be verified or opened)`,
    );
  }
  return Buffer.from(text, 'hex');
}

function createKeyFile(keyPath: string): void {
  mkdirSync(dirname(keyPath), { recursive: true });
  const temporary = `${keyPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, randomBytes(KEY_BYTES).toString('hex'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, keyPath);
  } catch (error) {
    // Another process created it first: both use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}
