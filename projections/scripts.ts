import type { Database, Statement } from 'better-sqlite3';
import type { ScriptEvent, ScriptVersionData } from '../domain/script.ts';
import type { Script } from '../domain/script-types.ts';
import { defineProjection } from './projection.ts';

/**
 * Scripts and every one of their versions. Each version row keeps its API document as JSON text, fixed when the
 * version is published (a version never changes; its `updated_at` is its publication time), and each script row
 * the summary of its latest version that lists show, so a page of twenty scripts is one indexed read of stored
 * texts, joined without parsing and re-serialising them. Deleted scripts keep their
 * rows (marked `deleted_at`): a finished campaign may still point at one of their versions.
 */
export const scriptsProjection = defineProjection<ScriptEvent>({
  name: 'scripts',
  version: 4,
  tables: ['scripts', 'script_versions'],
  eventTypes: ['ScriptCreated', 'ScriptVersionPublished', 'ScriptDeleted'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS scripts (
      script_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      latest_version INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT,
      summary TEXT NOT NULL
    );
    -- Not a partial index (WHERE deleted_at IS NULL): SQLite (built with STAT4) re-prepares a statement whose plan
    -- may depend on a bound value, and a partial index makes every bound workspace id such a value.
    CREATE INDEX IF NOT EXISTS live_scripts ON scripts (workspace_id, deleted_at, created_at DESC, script_id DESC);
    CREATE TABLE IF NOT EXISTS script_versions (
      script_id TEXT NOT NULL,
      version INTEGER NOT NULL,
      workspace_id TEXT NOT NULL,
      definition TEXT NOT NULL,
      variables TEXT NOT NULL,
      published_at TEXT NOT NULL,
      document TEXT NOT NULL,
      PRIMARY KEY (script_id, version)
    );`);
  },
  prepare(db) {
    const insertScript = db.prepare(
      'INSERT OR REPLACE INTO scripts (script_id, workspace_id, latest_version, created_at, updated_at, deleted_at, summary) VALUES (?, ?, ?, ?, ?, NULL, ?)',
    );
    const bumpScript = db.prepare('UPDATE scripts SET latest_version = ?, updated_at = ?, summary = ? WHERE script_id = ?');
    const deleteScript = db.prepare('UPDATE scripts SET deleted_at = ? WHERE script_id = ?');
    const createdAt = db.prepare<[string], { created_at: string }>('SELECT created_at FROM scripts WHERE script_id = ?');
    const insertVersion = db.prepare(
      `INSERT OR REPLACE INTO script_versions (script_id, version, workspace_id, definition, variables, published_at, document)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    /** Stores a version; returns the summary JSON a list shows while it is the latest. */
    const addVersion = (data: ScriptVersionData, created: string, published: string): string => {
      const definition: Script = { name: data.name, single_call_enabled: data.single_call_enabled, steps: data.steps };
      const document = scriptDocument(data, created, published);
      insertVersion.run(
        data.script_id,
        data.version,
        data.workspace_id,
        JSON.stringify(definition),
        JSON.stringify(data.variables),
        published,
        JSON.stringify(document),
      );
      return JSON.stringify(scriptSummary(document));
    };
    return (event) => {
      switch (event.type) {
        case 'ScriptCreated': {
          const data = event.data;
          const summary = addVersion(data, data.created_at, data.created_at);
          insertScript.run(data.script_id, data.workspace_id, data.version, data.created_at, data.created_at, summary);
          break;
        }
        case 'ScriptVersionPublished': {
          const data = event.data;
          const created = createdAt.get(data.script_id)?.created_at ?? data.published_at;
          const summary = addVersion(data, created, data.published_at);
          bumpScript.run(data.version, data.published_at, summary, data.script_id);
          break;
        }
        case 'ScriptDeleted':
          deleteScript.run(event.data.deleted_at, event.data.script_id);
          break;
      }
    };
  },
});

/** The API representation of one script version (what GET /v1/scripts/{id} answers). */
export interface ScriptDocument {
  id: string;
  name: string;
  version: number;
  single_call_enabled: boolean;
  steps: Script['steps'];
  variables: string[];
  created_at: string;
  updated_at: string;
}

export function scriptDocument(data: ScriptVersionData, createdAt: string, updatedAt: string): ScriptDocument {
  return {
    id: data.script_id,
    name: data.name,
    version: data.version,
    single_call_enabled: data.single_call_enabled,
    steps: data.steps,
    variables: data.variables,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

/** What a list shows of a script: everything but the steps (GET /v1/scripts/{id} has those). */
export type ScriptSummary = Omit<ScriptDocument, 'steps'>;

export function scriptSummary(document: ScriptDocument): ScriptSummary {
  const { steps: _steps, ...summary } = document;
  return summary;
}

/** A pinned script version, for the campaign and call modules (they run `definition`). */
export interface ScriptVersionRow {
  script_id: string;
  version: number;
  definition: Script;
  variables: string[];
  deleted: boolean;
}

interface Statements {
  latestDocument: Statement<[string, string], { document: string }>;
  versionDocument: Statement<[string, string, number], { document: string }>;
  page: Statement<[string, number, number], string>;
  count: Statement<[string], { total: number }>;
  version: Statement<[string, string, number], { script_id: string; version: number; definition: string; variables: string; deleted_at: string | null }>;
  latestVersion: Statement<[string, string], { latest_version: number; deleted_at: string | null }>;
}

// Statements are prepared once per database: these queries sit on hot GET paths.
const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    prepared = {
      latestDocument: db.prepare(
        `SELECT v.document FROM scripts s JOIN script_versions v ON v.script_id = s.script_id AND v.version = s.latest_version
         WHERE s.workspace_id = ? AND s.script_id = ? AND s.deleted_at IS NULL`,
      ),
      versionDocument: db.prepare(
        `SELECT v.document FROM scripts s JOIN script_versions v ON v.script_id = s.script_id
         WHERE s.workspace_id = ? AND s.script_id = ? AND v.version = ? AND s.deleted_at IS NULL`,
      ),
      // `LIMIT (? + 0)`, not `LIMIT ?`: SQLite plans with a bare bound LIMIT's value, so every execution would be
      // re-prepared (better-sqlite3 rebinds each time); the expression costs nothing and keeps the plan.
      page: db
        .prepare<[string, number, number], string>(
          `SELECT summary FROM scripts INDEXED BY live_scripts
           WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, script_id DESC LIMIT (? + 0) OFFSET (? + 0)`,
        )
        .pluck(),
      count: db.prepare('SELECT count(*) AS total FROM scripts INDEXED BY live_scripts WHERE workspace_id = ? AND deleted_at IS NULL'),
      version: db.prepare(
        `SELECT v.script_id, v.version, v.definition, v.variables, s.deleted_at FROM scripts s
         JOIN script_versions v ON v.script_id = s.script_id WHERE s.workspace_id = ? AND s.script_id = ? AND v.version = ?`,
      ),
      latestVersion: db.prepare('SELECT latest_version, deleted_at FROM scripts WHERE workspace_id = ? AND script_id = ?'),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

/** The JSON document of a live script of the workspace: its latest version, or `version`. */
export function findScriptDocument(db: Database, workspaceId: string, scriptId: string, version?: number): string | undefined {
  const row =
    version === undefined
      ? statements(db).latestDocument.get(workspaceId, scriptId)
      : statements(db).versionDocument.get(workspaceId, scriptId, version);
  return row?.document;
}

/** Live scripts of the workspace, newest first, as JSON summaries of their latest versions. */
export function listScriptSummaries(db: Database, workspaceId: string, limit: number, offset: number): { summaries: string[]; total: number } {
  const { page, count } = statements(db);
  return { summaries: page.all(workspaceId, limit, offset), total: count.get(workspaceId)?.total ?? 0 };
}

/** Whether the workspace has this script and it is not deleted. */
export function scriptExists(db: Database, workspaceId: string, scriptId: string): boolean {
  const row = statements(db).latestVersion.get(workspaceId, scriptId);
  return row !== undefined && row.deleted_at === null;
}

/**
 * A version of a script of the workspace (latest when `version` is omitted), for running it. Deleted scripts are
 * found too (`deleted: true`): callers that start something new must refuse them.
 */
export function findScriptVersion(db: Database, workspaceId: string, scriptId: string, version?: number): ScriptVersionRow | undefined {
  const { latestVersion, version: versionStatement } = statements(db);
  const wanted = version ?? latestVersion.get(workspaceId, scriptId)?.latest_version;
  if (wanted === undefined) return undefined;
  const row = versionStatement.get(workspaceId, scriptId, wanted);
  if (!row) return undefined;
  return {
    script_id: row.script_id,
    version: row.version,
    definition: JSON.parse(row.definition) as Script,
    variables: JSON.parse(row.variables) as string[],
    deleted: row.deleted_at !== null,
  };
}
