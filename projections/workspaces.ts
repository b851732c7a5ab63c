import type { Database } from 'better-sqlite3';
import type { WorkspaceEvent } from '../domain/workspace.ts';
import { defineProjection } from './projection.ts';
import { preparedStatement } from './statement-cache.ts';

export interface WorkspaceRow {
  workspace_id: string;
  name: string;
  rate_limit_per_minute: number;
  dialing_concurrency: number;
  created_at: string;
  default_qa_scorecard_id: string | null;
}

export const workspacesProjection = defineProjection<WorkspaceEvent>({
  name: 'workspaces',
  // v2: default_qa_scorecard_id.
  version: 2,
  tables: ['workspaces'],
  eventTypes: ['WorkspaceCreated', 'WorkspaceRenamed', 'WorkspaceRateLimitSet', 'WorkspaceDialingConcurrencySet', 'WorkspaceDefaultQaScorecardSet'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS workspaces (
      workspace_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      rate_limit_per_minute INTEGER NOT NULL,
      dialing_concurrency INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      default_qa_scorecard_id TEXT
    )`);
  },
  prepare(db) {
    const insert = db.prepare(
      'INSERT OR REPLACE INTO workspaces (workspace_id, name, rate_limit_per_minute, dialing_concurrency, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const rename = db.prepare('UPDATE workspaces SET name = ? WHERE workspace_id = ?');
    const setRate = db.prepare('UPDATE workspaces SET rate_limit_per_minute = ? WHERE workspace_id = ?');
    const setConcurrency = db.prepare('UPDATE workspaces SET dialing_concurrency = ? WHERE workspace_id = ?');
    const setDefaultScorecard = db.prepare('UPDATE workspaces SET default_qa_scorecard_id = ? WHERE workspace_id = ?');
    return (event) => {
      switch (event.type) {
        case 'WorkspaceCreated': {
          const data = event.data;
          insert.run(data.workspace_id, data.name, data.rate_limit_per_minute, data.dialing_concurrency, data.created_at);
          break;
        }
        case 'WorkspaceRenamed':
          rename.run(event.data.name, event.data.workspace_id);
          break;
        case 'WorkspaceRateLimitSet':
          setRate.run(event.data.rate_limit_per_minute, event.data.workspace_id);
          break;
        case 'WorkspaceDialingConcurrencySet':
          setConcurrency.run(event.data.dialing_concurrency, event.data.workspace_id);
          break;
        case 'WorkspaceDefaultQaScorecardSet':
          setDefaultScorecard.run(event.data.qa_scorecard_id, event.data.workspace_id);
          break;
      }
    };
  },
});

export function findWorkspace(db: Database, workspaceId: string): WorkspaceRow | undefined {
  // Prepared once per database: the rate limiter asks on every request whenever the read models have moved.
  return preparedStatement<[string], WorkspaceRow>(db, 'SELECT * FROM workspaces WHERE workspace_id = ?').get(workspaceId);
}

export function listWorkspaces(db: Database): WorkspaceRow[] {
  return db.prepare<[], WorkspaceRow>('SELECT * FROM workspaces ORDER BY created_at').all();
}
