import type { Database, Statement } from 'better-sqlite3';
import type { AgentEvent, AgentProfile, AgentStatus } from '../domain/agent.ts';
import type { CallEvent } from '../domain/call.ts';
import { languageSubtag } from '../domain/shared/language.ts';
import { defineProjection } from './projection.ts';

/**
 * Human agents as `GET /v1/agents` shows them, plus what escalations are assigned by: the languages each speaks
 * (by language subtag: an agent who speaks `en-IN` takes an `en-GB` call) and when each was last assigned a call
 * (`CallEscalated` naming the agent), so the least recently assigned available agent goes first. Removed agents
 * keep their row (calls name them), marked `removed_at`, and are invisible to every query here.
 */
export const agentsProjection = defineProjection<AgentEvent | Extract<CallEvent, { type: 'CallEscalated' }>>({
  name: 'agents',
  version: 1,
  tables: ['agents', 'agent_languages'],
  eventTypes: ['AgentRegistered', 'AgentUpdated', 'AgentRemoved', 'CallEscalated'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS agents (
      agent_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      name TEXT NOT NULL,
      languages TEXT NOT NULL,
      phone TEXT,
      sip_uri TEXT,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      last_assigned_at TEXT,
      removed_at TEXT
    );
    CREATE INDEX IF NOT EXISTS agents_by_workspace ON agents (workspace_id, removed_at, created_at DESC, agent_id DESC);
    CREATE TABLE IF NOT EXISTS agent_languages (
      workspace_id TEXT NOT NULL,
      language TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      PRIMARY KEY (workspace_id, language, agent_id)
    );`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT OR REPLACE INTO agents (agent_id, workspace_id, name, languages, phone, sip_uri, status, created_at, updated_at, last_assigned_at, removed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
    );
    const current = db.prepare<[string], { workspace_id: string; name: string; languages: string; phone: string | null; sip_uri: string | null; status: AgentStatus }>(
      'SELECT workspace_id, name, languages, phone, sip_uri, status FROM agents WHERE agent_id = ?',
    );
    const update = db.prepare('UPDATE agents SET name = ?, languages = ?, phone = ?, sip_uri = ?, status = ?, updated_at = ? WHERE agent_id = ?');
    const remove = db.prepare('UPDATE agents SET removed_at = ?, updated_at = ? WHERE agent_id = ?');
    const assigned = db.prepare('UPDATE agents SET last_assigned_at = ? WHERE agent_id = ?');
    const clearLanguages = db.prepare('DELETE FROM agent_languages WHERE agent_id = ?');
    const addLanguage = db.prepare('INSERT OR IGNORE INTO agent_languages (workspace_id, language, agent_id) VALUES (?, ?, ?)');
    const setLanguages = (workspaceId: string, agentId: string, languages: readonly string[]) => {
      clearLanguages.run(agentId);
      for (const language of languages) addLanguage.run(workspaceId, languageSubtag(language), agentId);
    };
    return (event) => {
      switch (event.type) {
        case 'AgentRegistered': {
          const data = event.data;
          insert.run(data.agent_id, data.workspace_id, data.name, JSON.stringify(data.languages), data.phone, data.sip_uri, data.status, data.created_at, data.created_at);
          setLanguages(data.workspace_id, data.agent_id, data.languages);
          break;
        }
        case 'AgentUpdated': {
          const row = current.get(event.data.agent_id);
          if (!row) break;
          const profile: AgentProfile = { name: row.name, languages: JSON.parse(row.languages) as string[], phone: row.phone, sip_uri: row.sip_uri, status: row.status };
          const next = { ...profile, ...event.data.changes };
          update.run(next.name, JSON.stringify(next.languages), next.phone, next.sip_uri, next.status, event.data.updated_at, event.data.agent_id);
          if (event.data.changes.languages) setLanguages(row.workspace_id, event.data.agent_id, next.languages);
          break;
        }
        case 'AgentRemoved':
          remove.run(event.data.removed_at, event.data.removed_at, event.data.agent_id);
          clearLanguages.run(event.data.agent_id);
          break;
        case 'CallEscalated':
          if (event.data.agent_id) assigned.run(event.data.escalated_at, event.data.agent_id);
          break;
      }
    };
  },
});

/** An agent as the API shows it. */
export interface AgentDocument extends AgentProfile {
  id: string;
  created_at: string;
  updated_at: string;
  last_assigned_at: string | null;
}

interface AgentRow {
  agent_id: string;
  name: string;
  languages: string;
  phone: string | null;
  sip_uri: string | null;
  status: AgentStatus;
  created_at: string;
  updated_at: string;
  last_assigned_at: string | null;
}

function documentOf(row: AgentRow): AgentDocument {
  return {
    id: row.agent_id,
    name: row.name,
    languages: JSON.parse(row.languages) as string[],
    phone: row.phone,
    sip_uri: row.sip_uri,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_assigned_at: row.last_assigned_at,
  };
}

interface Statements {
  one: Statement<[string, string], AgentRow>;
  page: Statement<[string, string | null, string | null, number, number], AgentRow>;
  count: Statement<[string, string | null, string | null], { total: number }>;
  next: Statement<[string, string], { agent_id: string }>;
}

const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    const columns = 'agent_id, name, languages, phone, sip_uri, status, created_at, updated_at, last_assigned_at';
    prepared = {
      one: db.prepare(`SELECT ${columns} FROM agents WHERE workspace_id = ? AND agent_id = ? AND removed_at IS NULL`),
      page: db.prepare(
        `SELECT ${columns} FROM agents WHERE workspace_id = ? AND removed_at IS NULL AND (? IS NULL OR status = ?)
         ORDER BY created_at DESC, agent_id DESC LIMIT (? + 0) OFFSET (? + 0)`,
      ),
      count: db.prepare('SELECT count(*) AS total FROM agents WHERE workspace_id = ? AND removed_at IS NULL AND (? IS NULL OR status = ?)'),
      next: db.prepare(
        `SELECT a.agent_id FROM agent_languages l JOIN agents a ON a.agent_id = l.agent_id
         WHERE l.workspace_id = ? AND l.language = ? AND a.status = 'available' AND a.removed_at IS NULL
         ORDER BY a.last_assigned_at IS NOT NULL, a.last_assigned_at, a.created_at, a.agent_id LIMIT 1`,
      ),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

export function findAgent(db: Database, workspaceId: string, agentId: string): AgentDocument | undefined {
  const row = statements(db).one.get(workspaceId, agentId);
  return row ? documentOf(row) : undefined;
}

/** Agents of the workspace, newest first. */
export function listAgents(db: Database, workspaceId: string, status: AgentStatus | undefined, limit: number, offset: number): { data: AgentDocument[]; total: number } {
  const prepared = statements(db);
  return {
    data: prepared.page.all(workspaceId, status ?? null, status ?? null, limit, offset).map(documentOf),
    total: prepared.count.get(workspaceId, status ?? null, status ?? null)?.total ?? 0,
  };
}

/**
 * The agent an escalated call of `language` goes to: available, speaking the language (by subtag), assigned
 * least recently (never assigned first, then the oldest assignment; ties by registration). Undefined: nobody.
 */
export function nextAvailableAgent(db: Database, workspaceId: string, language: string): string | undefined {
  return statements(db).next.get(workspaceId, languageSubtag(language))?.agent_id;
}
