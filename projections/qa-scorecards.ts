import type { Database, Statement } from 'better-sqlite3';
import type { QaScorecardDefinition, QaScorecardEvent, QaScorecardVersionData } from '../domain/qa-scorecard.ts';
import { defineProjection } from './projection.ts';

/**
 * QA scorecards as GET /v1/qa/scorecards/{id} shows them: the latest version's document as JSON text, and the
 * definition itself, which POST /v1/transcription pins on a job. Deleted scorecards are removed from the table:
 * jobs keep the version they pinned, so nothing needs a deleted one later.
 */
export const qaScorecardsProjection = defineProjection<QaScorecardEvent>({
  name: 'qa_scorecards',
  version: 1,
  tables: ['qa_scorecards'],
  eventTypes: ['QaScorecardCreated', 'QaScorecardReplaced', 'QaScorecardDeleted'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS qa_scorecards (
      scorecard_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      version INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      definition TEXT NOT NULL,
      document TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS qa_scorecards_by_workspace ON qa_scorecards (workspace_id, created_at DESC, scorecard_id DESC);`);
  },
  prepare(db) {
    const insert = db.prepare('INSERT OR REPLACE INTO qa_scorecards (scorecard_id, workspace_id, version, created_at, definition, document) VALUES (?, ?, ?, ?, ?, ?)');
    const createdAt = db.prepare<[string], { created_at: string }>('SELECT created_at FROM qa_scorecards WHERE scorecard_id = ?');
    const remove = db.prepare('DELETE FROM qa_scorecards WHERE scorecard_id = ?');
    const store = (data: QaScorecardVersionData, created: string, updated: string) =>
      insert.run(data.scorecard_id, data.workspace_id, data.version, created, JSON.stringify(data.definition), JSON.stringify(scorecardDocument(data, created, updated)));
    return (event) => {
      switch (event.type) {
        case 'QaScorecardCreated':
          store(event.data, event.data.created_at, event.data.created_at);
          break;
        case 'QaScorecardReplaced':
          store(event.data, createdAt.get(event.data.scorecard_id)?.created_at ?? event.data.replaced_at, event.data.replaced_at);
          break;
        case 'QaScorecardDeleted':
          remove.run(event.data.scorecard_id);
          break;
      }
    };
  },
});

export type QaScorecardDocument = QaScorecardDefinition & { id: string; version: number; created_at: string; updated_at: string };

export function scorecardDocument(data: QaScorecardVersionData, createdAt: string, updatedAt: string): QaScorecardDocument {
  return { id: data.scorecard_id, ...data.definition, version: data.version, created_at: createdAt, updated_at: updatedAt };
}

interface Queries {
  find: Statement<[string, string], { document: string; definition: string; version: number }>;
  page: Statement<[string, number, number], { document: string }>;
  count: Statement<[string], { total: number }>;
}

const prepared = new WeakMap<Database, Queries>();

function queries(db: Database): Queries {
  let statements = prepared.get(db);
  if (statements === undefined) {
    statements = {
      find: db.prepare('SELECT document, definition, version FROM qa_scorecards WHERE scorecard_id = ? AND workspace_id = ?'),
      page: db.prepare('SELECT document FROM qa_scorecards WHERE workspace_id = ? ORDER BY created_at DESC, scorecard_id DESC LIMIT (? + 0) OFFSET (? + 0)'),
      count: db.prepare('SELECT COUNT(*) AS total FROM qa_scorecards WHERE workspace_id = ?'),
    };
    prepared.set(db, statements);
  }
  return statements;
}

/** The scorecard's document (JSON text), definition and version, or undefined when not in the workspace. */
export function findQaScorecard(
  db: Database,
  workspaceId: string,
  scorecardId: string,
): { document: string; definition: QaScorecardDefinition; version: number } | undefined {
  const row = queries(db).find.get(scorecardId, workspaceId);
  return row && { document: row.document, definition: JSON.parse(row.definition) as QaScorecardDefinition, version: row.version };
}

export function listQaScorecards(db: Database, workspaceId: string, limit: number, offset: number): { documents: string[]; total: number } {
  const statements = queries(db);
  return { documents: statements.page.all(workspaceId, limit, offset).map((row) => row.document), total: statements.count.get(workspaceId)!.total };
}
