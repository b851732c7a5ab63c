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
  const kept = keptNodeId(dataDirectory);
  if (kept) return kept;
  const path = join(dataDirectory, NODE_ID_FILE);
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

/** The name a node keeps in `DATA_DIR/node-id`, or undefined when none was generated yet. Reads only. */
export function keptNodeId(dataDirectory: string): string | undefined {
  try {
    return readFileSync(join(dataDirectory, NODE_ID_FILE), 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    return undefined;
  }
}
