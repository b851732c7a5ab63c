import type { Database, Statement } from 'better-sqlite3';
import { defaultPacks, type EnabledPack } from '../domain/compliance/packs.ts';
import { complianceSettingsWorkspaceIdOf, type ComplianceSettingsEvent } from '../domain/compliance/settings.ts';
import { defineProjection } from './projection.ts';

/** Each workspace's current compliance settings, for GET /v1/compliance/settings (the history stays in the events). */
export const complianceSettingsProjection = defineProjection<ComplianceSettingsEvent>({
  name: 'compliance-settings',
  version: 1,
  tables: ['compliance_settings'],
  eventTypes: ['ComplianceSettingsSet'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS compliance_settings (
      workspace_id TEXT PRIMARY KEY,
      packs TEXT NOT NULL,
      revision INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    );`);
  },
  prepare(db) {
    const upsert = db.prepare(
      `INSERT INTO compliance_settings (workspace_id, packs, revision, updated_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (workspace_id) DO UPDATE SET packs = excluded.packs, revision = revision + 1, updated_at = excluded.updated_at`,
    );
    return (event) => {
      upsert.run(complianceSettingsWorkspaceIdOf(event.stream), JSON.stringify(event.data.packs), event.data.set_at);
    };
  },
});

export interface ComplianceSettingsRow {
  packs: EnabledPack[];
  /** 0: never set (the defaults). */
  revision: number;
  updated_at: string | null;
}

const statements = new WeakMap<Database, Statement<[string], { packs: string; revision: number; updated_at: string }>>();

export function findComplianceSettings(db: Database, workspaceId: string): ComplianceSettingsRow {
  let statement = statements.get(db);
  if (!statement) {
    statement = db.prepare('SELECT packs, revision, updated_at FROM compliance_settings WHERE workspace_id = ?');
    statements.set(db, statement);
  }
  const row = statement.get(workspaceId);
  if (!row) return { packs: defaultPacks(), revision: 0, updated_at: null };
  return { packs: JSON.parse(row.packs) as EnabledPack[], revision: row.revision, updated_at: row.updated_at };
}
