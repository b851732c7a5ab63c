import type { Database, Statement } from 'better-sqlite3';
import { suppressionWorkspaceIdOf, type SuppressionEvent, type SuppressionSource } from '../domain/suppression.ts';
import { defineProjection } from './projection.ts';

/**
 * Each workspace's do-not-call list, for `GET /v1/suppressions`. A number taken off the list loses its row; put
 * back on, it gets a new one (with the new reason and time).
 */
export const suppressionsProjection = defineProjection<SuppressionEvent>({
  name: 'suppressions',
  version: 1,
  tables: ['suppressions'],
  eventTypes: ['NumberSuppressed', 'NumberUnsuppressed'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS suppressions (
      workspace_id TEXT NOT NULL,
      phone TEXT NOT NULL,
      source TEXT NOT NULL,
      reason TEXT,
      call_id TEXT,
      suppressed_at TEXT NOT NULL,
      PRIMARY KEY (workspace_id, phone)
    );
    CREATE INDEX IF NOT EXISTS suppressions_by_time ON suppressions (workspace_id, suppressed_at DESC, phone DESC);`);
  },
  prepare(db) {
    const insert = db.prepare(
      'INSERT OR REPLACE INTO suppressions (workspace_id, phone, source, reason, call_id, suppressed_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const remove = db.prepare('DELETE FROM suppressions WHERE workspace_id = ? AND phone = ?');
    return (event) => {
      const workspaceId = suppressionWorkspaceIdOf(event.stream);
      if (event.type === 'NumberSuppressed') {
        const data = event.data;
        insert.run(workspaceId, data.phone, data.source, data.reason, data.call_id, data.suppressed_at);
      } else {
        remove.run(workspaceId, event.data.phone);
      }
    };
  },
});

/** A number on the do-not-call list, as the API shows it. */
export interface SuppressionDocument {
  phone: string;
  /** `call_outcome`: a call ended with disposition dnd; `api`: added with POST /v1/suppressions. */
  source: SuppressionSource;
  reason: string | null;
  /** The call whose outcome put the number on the list (source call_outcome). */
  call_id: string | null;
  suppressed_at: string;
}

interface Statements {
  one: Statement<[string, string], SuppressionDocument>;
  page: Statement<[string, number, number], SuppressionDocument>;
  count: Statement<[string], { total: number }>;
}

const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    const columns = 'phone, source, reason, call_id, suppressed_at';
    prepared = {
      one: db.prepare(`SELECT ${columns} FROM suppressions WHERE workspace_id = ? AND phone = ?`),
      // `LIMIT (? + 0)`: a bare bound LIMIT makes SQLite re-prepare the statement on every execution.
      page: db.prepare(
        `SELECT ${columns} FROM suppressions WHERE workspace_id = ? ORDER BY suppressed_at DESC, phone DESC LIMIT (? + 0) OFFSET (? + 0)`,
      ),
      count: db.prepare('SELECT count(*) AS total FROM suppressions WHERE workspace_id = ?'),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

export function findSuppression(db: Database, workspaceId: string, phone: string): SuppressionDocument | undefined {
  return statements(db).one.get(workspaceId, phone);
}

/** The workspace's list, most recently added first. */
export function listSuppressions(db: Database, workspaceId: string, limit: number, offset: number): { data: SuppressionDocument[]; total: number } {
  const prepared = statements(db);
  return { data: prepared.page.all(workspaceId, limit, offset), total: prepared.count.get(workspaceId)?.total ?? 0 };
}
