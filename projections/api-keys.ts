import type { Database, Statement } from 'better-sqlite3';
import type { ApiKeyEvent, ApiKeyScope } from '../domain/api-key.ts';
import { defineProjection } from './projection.ts';

export interface ApiKeyRow {
  key_id: string;
  workspace_id: string;
  name: string;
  scope: ApiKeyScope;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeyListItem extends Omit<ApiKeyRow, 'secret_hash'> {
  last_used_at: string | null;
}

/**
 * API keys by secret hash, for the auth path. `api_key_usage` (last use) is operational data written by the auth
 * path, not by events, so it is not one of this projection's tables and survives a rebuild.
 */
export const apiKeysProjection = defineProjection<ApiKeyEvent>({
  name: 'api_keys',
  version: 1,
  tables: ['api_keys'],
  eventTypes: ['ApiKeyCreated', 'ApiKeyRevoked'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS api_keys (
      key_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      name TEXT NOT NULL,
      scope TEXT NOT NULL,
      secret_hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    );
    CREATE INDEX IF NOT EXISTS api_keys_workspace ON api_keys (workspace_id, created_at);
    CREATE TABLE IF NOT EXISTS api_key_usage (key_id TEXT PRIMARY KEY, last_used_at TEXT NOT NULL);`);
  },
  prepare(db) {
    const insert = db.prepare(
      'INSERT OR REPLACE INTO api_keys (key_id, workspace_id, name, scope, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
    );
    const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ?');
    return (event) => {
      if (event.type === 'ApiKeyCreated') {
        const data = event.data;
        insert.run(data.key_id, data.workspace_id, data.name, data.scope, data.secret_hash, data.created_at);
      } else {
        revoke.run(event.data.revoked_at, event.data.key_id);
      }
    };
  },
});

const LIST_COLUMNS = `k.key_id, k.workspace_id, k.name, k.scope, k.created_at, k.revoked_at, u.last_used_at
  FROM api_keys k LEFT JOIN api_key_usage u ON u.key_id = k.key_id`;

interface Statements {
  bySecretHash: Statement<[string], ApiKeyRow>;
  one: Statement<[string, string], ApiKeyListItem>;
  page: Statement<[string, number, number], ApiKeyListItem>;
  count: Statement<[string], { total: number }>;
  activeAdmins: Statement<[string], { total: number }>;
  recordUse: Statement<[string, string]>;
}

// Statements are prepared once per database: the lookup by secret hash runs on every authenticated request.
const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    prepared = {
      bySecretHash: db.prepare('SELECT * FROM api_keys WHERE secret_hash = ?'),
      one: db.prepare(`SELECT ${LIST_COLUMNS} WHERE k.workspace_id = ? AND k.key_id = ?`),
      // `LIMIT (? + 0)`: a bare bound LIMIT makes SQLite re-prepare the statement on every execution.
      page: db.prepare(`SELECT ${LIST_COLUMNS} WHERE k.workspace_id = ? ORDER BY k.created_at DESC, k.key_id DESC LIMIT (? + 0) OFFSET (? + 0)`),
      count: db.prepare('SELECT count(*) AS total FROM api_keys WHERE workspace_id = ?'),
      activeAdmins: db.prepare(`SELECT count(*) AS total FROM api_keys WHERE workspace_id = ? AND scope = 'Admin' AND revoked_at IS NULL`),
      recordUse: db.prepare(
        'INSERT INTO api_key_usage (key_id, last_used_at) VALUES (?, ?) ON CONFLICT(key_id) DO UPDATE SET last_used_at = excluded.last_used_at',
      ),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

export function findApiKeyBySecretHash(db: Database, secretHash: string): ApiKeyRow | undefined {
  return statements(db).bySecretHash.get(secretHash);
}

export function findApiKey(db: Database, workspaceId: string, keyId: string): ApiKeyListItem | undefined {
  return statements(db).one.get(workspaceId, keyId);
}

export function listApiKeys(db: Database, workspaceId: string, limit = -1, offset = 0): { data: ApiKeyListItem[]; total: number } {
  const prepared = statements(db);
  return { data: prepared.page.all(workspaceId, limit, offset), total: prepared.count.get(workspaceId)?.total ?? 0 };
}

export function countActiveAdminKeys(db: Database, workspaceId: string): number {
  return statements(db).activeAdmins.get(workspaceId)?.total ?? 0;
}

export function recordApiKeyUse(db: Database, keyId: string, at: string): void {
  statements(db).recordUse.run(keyId, at);
}
