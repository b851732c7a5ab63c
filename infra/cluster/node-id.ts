import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NODE_ID_FILE = 'node-id';

/**
 * This node's name: `NODE_ID` when set, else the one generated on the first start and kept in `DATA_DIR/node-id`,
 * so that a node keeps its name across restarts (the lease stream and the logs name the same node).
 */
export function nodeIdOf(dataDirectory: string, configured: string | undefined): string {
  if (configured) return configured;
  const path = join(dataDirectory, NODE_ID_FILE);
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDirectory, { recursive: true });
  const generated = `node-${randomBytes(6).toString('hex')}`;
  // `wx`: two processes starting on one DATA_DIR at once keep the first one's name.
  try {
    writeFileSync(path, `${generated}\n`, { flag: 'wx' });
    return generated;
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return readFileSync(path, 'utf8').trim();
  }
}
