import type { Database, Statement } from 'better-sqlite3';
import { WEBHOOK_DELIVERY_EVENT_TYPES, webhookDeliveryIdOf, type DeliveryStatus, type WebhookDeliveryEvent } from '../domain/webhook-delivery.ts';
import { defineProjection } from './projection.ts';

/**
 * The delivery log: every delivery with its status and attempts (kept as a JSON array on the row: a delivery has
 * at most a handful). It answers the deliveries endpoint, the `last_delivery` and failure counts of the webhook
 * list, and which deliveries are due (the dispatcher's recovery after a restart).
 */
export const webhookDeliveriesProjection = defineProjection<WebhookDeliveryEvent>({
  name: 'webhook_deliveries',
  version: 1,
  tables: ['webhook_deliveries'],
  eventTypes: WEBHOOK_DELIVERY_EVENT_TYPES,
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS webhook_deliveries (
      delivery_id TEXT PRIMARY KEY,
      webhook_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at TEXT NOT NULL,
      created_position INTEGER NOT NULL,
      attempts TEXT NOT NULL,
      last_attempted_at TEXT,
      last_attempted_ms INTEGER,
      last_http_status INTEGER,
      next_attempt_at TEXT,
      next_attempt_ms INTEGER
    );
    CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON webhook_deliveries (webhook_id, created_position DESC);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_by_status ON webhook_deliveries (webhook_id, status, created_position DESC);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_last ON webhook_deliveries (webhook_id, last_attempted_ms DESC);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_ms);`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT INTO webhook_deliveries (delivery_id, webhook_id, workspace_id, event_id, event, status, created_at, created_position, attempts)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, '[]') ON CONFLICT(delivery_id) DO NOTHING`,
    );
    const current = db.prepare<[string], { attempts: string; next_attempt_at: string | null }>(
      'SELECT attempts, next_attempt_at FROM webhook_deliveries WHERE delivery_id = ?',
    );
    const recordAttempt = db.prepare(
      `UPDATE webhook_deliveries SET attempts = ?, status = ?, last_attempted_at = ?, last_attempted_ms = ?, last_http_status = ?,
       next_attempt_at = ?, next_attempt_ms = ? WHERE delivery_id = ?`,
    );
    const setStatus = db.prepare('UPDATE webhook_deliveries SET status = ? WHERE delivery_id = ?');
    const cancel = db.prepare(`UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, next_attempt_ms = NULL WHERE delivery_id = ?`);
    return (event) => {
      const deliveryId = webhookDeliveryIdOf(event.stream);
      switch (event.type) {
        case 'WebhookDeliveryCreated': {
          const data = event.data;
          insert.run(data.delivery_id, data.webhook_id, data.workspace_id, data.event_id, data.event, data.created_at, event.position);
          break;
        }
        case 'WebhookDeliveryAttemptSucceeded':
        case 'WebhookDeliveryAttemptFailed': {
          const data = event.data;
          const row = current.get(deliveryId);
          if (!row) break;
          const list = JSON.parse(row.attempts) as DeliveryAttemptDocument[];
          if (list.some((attempt) => attempt.attempt === data.attempt)) break;
          list.push({
            attempt: data.attempt,
            kind: data.kind,
            attempted_at: data.attempted_at,
            http_status: data.http_status,
            error: data.error,
            duration_ms: data.duration_ms,
            succeeded: event.type === 'WebhookDeliveryAttemptSucceeded',
          });
          // A failed replay leaves a scheduled retry in place; an automatic attempt sets (or clears) the next one.
          const nextAttemptAt =
            event.type !== 'WebhookDeliveryAttemptFailed' ? null : event.data.kind === 'replay' ? row.next_attempt_at : event.data.next_attempt_at;
          recordAttempt.run(
            JSON.stringify(list),
            data.status,
            data.attempted_at,
            Date.parse(data.attempted_at),
            data.http_status,
            nextAttemptAt,
            nextAttemptAt === null ? null : Date.parse(nextAttemptAt),
            deliveryId,
          );
          break;
        }
        case 'WebhookDeliveryAbandoned':
          setStatus.run('failed', deliveryId);
          break;
        case 'WebhookDeliveryReplayRequested':
          setStatus.run('pending', deliveryId);
          break;
        case 'WebhookDeliveryCancelled':
          cancel.run(deliveryId);
          break;
      }
    };
  },
});

export interface DeliveryAttemptDocument {
  attempt: number;
  kind: 'automatic' | 'replay';
  attempted_at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}

/** A delivery as the API shows it. */
export interface DeliveryDocument {
  id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  created_at: string;
  next_attempt_at: string | null;
  attempts: DeliveryAttemptDocument[];
}

export interface LastDelivery {
  event_id: string;
  event: string;
  status: DeliveryStatus;
  http_status: number | null;
  attempted_at: string;
}

interface DeliveryRow {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  created_at: string;
  next_attempt_at: string | null;
  attempts: string;
}

interface Statements {
  one: Statement<[string, string], DeliveryRow>;
  page: Statement<[string, number, number], DeliveryRow>;
  count: Statement<[string], { total: number }>;
  pageByStatus: Statement<[string, string, number, number], DeliveryRow>;
  countByStatus: Statement<[string, string], { total: number }>;
  last: Statement<[string], { event_id: string; event: string; status: DeliveryStatus; last_http_status: number | null; last_attempted_at: string }>;
  statusCounts: Statement<[string], { status: DeliveryStatus; total: number }>;
  due: Statement<[number, number], { delivery_id: string; webhook_id: string; workspace_id: string }>;
  open: Statement<[string], { delivery_id: string }>;
}

const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    const columns = 'delivery_id, webhook_id, event_id, event, status, created_at, next_attempt_at, attempts';
    prepared = {
      one: db.prepare(`SELECT ${columns} FROM webhook_deliveries WHERE webhook_id = ? AND delivery_id = ?`),
      page: db.prepare(`SELECT ${columns} FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_position DESC LIMIT ? OFFSET ?`),
      count: db.prepare('SELECT count(*) AS total FROM webhook_deliveries WHERE webhook_id = ?'),
      pageByStatus: db.prepare(
        `SELECT ${columns} FROM webhook_deliveries WHERE webhook_id = ? AND status = ? ORDER BY created_position DESC LIMIT ? OFFSET ?`,
      ),
      countByStatus: db.prepare('SELECT count(*) AS total FROM webhook_deliveries WHERE webhook_id = ? AND status = ?'),
      last: db.prepare(
        `SELECT event_id, event, status, last_http_status, last_attempted_at FROM webhook_deliveries
         WHERE webhook_id = ? AND last_attempted_ms IS NOT NULL ORDER BY last_attempted_ms DESC LIMIT 1`,
      ),
      statusCounts: db.prepare('SELECT status, count(*) AS total FROM webhook_deliveries WHERE webhook_id = ? GROUP BY status'),
      due: db.prepare(
        `SELECT delivery_id, webhook_id, workspace_id FROM webhook_deliveries WHERE status = 'pending'
         UNION ALL SELECT delivery_id, webhook_id, workspace_id FROM webhook_deliveries WHERE status = 'retrying' AND next_attempt_ms <= ? LIMIT ?`,
      ),
      open: db.prepare(`SELECT delivery_id FROM webhook_deliveries WHERE webhook_id = ? AND status IN ('pending', 'retrying')`),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

function documentOf(row: DeliveryRow): DeliveryDocument {
  return {
    id: row.delivery_id,
    event_id: row.event_id,
    event: row.event,
    status: row.status,
    created_at: row.created_at,
    next_attempt_at: row.next_attempt_at,
    attempts: JSON.parse(row.attempts) as DeliveryAttemptDocument[],
  };
}

export function findDelivery(db: Database, webhookId: string, deliveryId: string): DeliveryDocument | undefined {
  const row = statements(db).one.get(webhookId, deliveryId);
  return row && documentOf(row);
}

/** Newest first, optionally only one status. */
export function listDeliveries(
  db: Database,
  webhookId: string,
  status: DeliveryStatus | undefined,
  limit: number,
  offset: number,
): { deliveries: DeliveryDocument[]; total: number } {
  const prepared = statements(db);
  const rows = status ? prepared.pageByStatus.all(webhookId, status, limit, offset) : prepared.page.all(webhookId, limit, offset);
  const total = (status ? prepared.countByStatus.get(webhookId, status) : prepared.count.get(webhookId))?.total ?? 0;
  return { deliveries: rows.map(documentOf), total };
}

/** The delivery attempted most recently, as the webhook list shows it. */
export function lastDelivery(db: Database, webhookId: string): LastDelivery | null {
  const row = statements(db).last.get(webhookId);
  if (!row) return null;
  return { event_id: row.event_id, event: row.event, status: row.status, http_status: row.last_http_status, attempted_at: row.last_attempted_at };
}

export function deliveryCounts(db: Database, webhookId: string): Record<DeliveryStatus, number> {
  const counts: Record<DeliveryStatus, number> = { pending: 0, retrying: 0, delivered: 0, failed: 0, cancelled: 0 };
  for (const row of statements(db).statusCounts.all(webhookId)) counts[row.status] = row.total;
  return counts;
}

/** Deliveries an attempt is due for now: pending ones and retries whose time has come. */
export function dueDeliveries(db: Database, nowMs: number, limit: number): Array<{ delivery_id: string; webhook_id: string; workspace_id: string }> {
  return statements(db).due.all(nowMs, limit);
}

/** Deliveries of a webhook with work still to do (cancelled when the webhook is deleted). */
export function openDeliveryIds(db: Database, webhookId: string): string[] {
  return statements(db).open.all(webhookId).map((row) => row.delivery_id);
}
