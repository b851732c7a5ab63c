import type { Database, Statement } from 'better-sqlite3';
import type { WebhookEvent } from '../domain/webhook.ts';
import { defineProjection } from './projection.ts';

/**
 * Registered webhooks, without their secrets (the sender reads those from the aggregate). `registered_position`
 * is the global position of the registration, so the fan-out delivers an event only to webhooks registered before
 * it. Deleted webhooks keep their row, marked `deleted_at`, and are invisible to every query here.
 */
export const webhooksProjection = defineProjection<WebhookEvent>({
  name: 'webhooks',
  version: 1,
  tables: ['webhooks'],
  eventTypes: ['WebhookRegistered', 'WebhookDeleted'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS webhooks (
      webhook_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      created_at TEXT NOT NULL,
      registered_position INTEGER NOT NULL,
      deleted_at TEXT
    );
    CREATE INDEX IF NOT EXISTS webhooks_by_workspace ON webhooks (workspace_id, deleted_at, registered_position);`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT INTO webhooks (webhook_id, workspace_id, url, events, created_at, registered_position, deleted_at) VALUES (?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT(webhook_id) DO NOTHING`,
    );
    const remove = db.prepare('UPDATE webhooks SET deleted_at = ? WHERE webhook_id = ?');
    return (event) => {
      if (event.type === 'WebhookRegistered') {
        const data = event.data;
        insert.run(data.webhook_id, data.workspace_id, data.url, JSON.stringify(data.events), data.created_at, event.position);
      } else {
        remove.run(event.data.deleted_at, event.data.webhook_id);
      }
    };
  },
});

export interface WebhookRow {
  webhook_id: string;
  workspace_id: string;
  url: string;
  events: string[];
  created_at: string;
  registered_position: number;
}

interface RawRow extends Omit<WebhookRow, 'events'> {
  events: string;
}

interface Statements {
  one: Statement<[string, string], RawRow>;
  page: Statement<[string, number, number], RawRow>;
  count: Statement<[string], { total: number }>;
  liveIds: Statement<[string], { id: string }>;
  registeredBefore: Statement<[string, number], RawRow>;
}

const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    const columns = 'webhook_id, workspace_id, url, events, created_at, registered_position';
    prepared = {
      one: db.prepare(`SELECT ${columns} FROM webhooks WHERE workspace_id = ? AND webhook_id = ? AND deleted_at IS NULL`),
      page: db.prepare(
        `SELECT ${columns} FROM webhooks WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY registered_position DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare('SELECT count(*) AS total FROM webhooks WHERE workspace_id = ? AND deleted_at IS NULL'),
      liveIds: db.prepare('SELECT webhook_id AS id FROM webhooks WHERE workspace_id = ? AND deleted_at IS NULL'),
      registeredBefore: db.prepare(
        `SELECT ${columns} FROM webhooks WHERE workspace_id = ? AND deleted_at IS NULL AND registered_position < ? ORDER BY registered_position`,
      ),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

const parse = (row: RawRow): WebhookRow => ({ ...row, events: JSON.parse(row.events) as string[] });

/** A live webhook of the workspace, or undefined (another workspace's, deleted, or never registered). */
export function findWebhook(db: Database, workspaceId: string, webhookId: string): WebhookRow | undefined {
  const row = statements(db).one.get(workspaceId, webhookId);
  return row && parse(row);
}

/** Newest first. */
export function listWebhooks(db: Database, workspaceId: string, limit: number, offset: number): { webhooks: WebhookRow[]; total: number } {
  const { page, count } = statements(db);
  return { webhooks: page.all(workspaceId, limit, offset).map(parse), total: count.get(workspaceId)?.total ?? 0 };
}

/** The ids of the workspace's live webhooks (registered, not deleted): at most the per-workspace limit. */
export function liveWebhookIds(db: Database, workspaceId: string): string[] {
  return statements(db).liveIds.all(workspaceId).map((row) => row.id);
}

/** Live webhooks of the workspace registered before the event at `position`. */
export function webhooksRegisteredBefore(db: Database, workspaceId: string, position: number): WebhookRow[] {
  return statements(db).registeredBefore.all(workspaceId, position).map(parse);
}
