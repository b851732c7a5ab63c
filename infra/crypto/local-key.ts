import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Key material for one purpose (signing URLs, sealing secrets): the configured value when one is set (several
 * servers sharing a DATA_DIR must agree), otherwise 32 random bytes created on first start and kept in `keyPath`
 * (mode 0600), so what was signed or sealed stays valid across restarts. Two processes starting at once agree: the
 * file is created exclusively and read back.
 */
export function loadOrCreateKey(keyPath: string, configured?: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  if (!existsSync(keyPath)) {
    mkdirSync(dirname(keyPath), { recursive: true });
    try {
      writeFileSync(keyPath, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'hex');
}
