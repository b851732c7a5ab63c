import type { Database, Statement } from 'better-sqlite3';
import type { RecordedEvent } from '../infra/eventstore/port.ts';

/**
 * Events a process manager could not handle for a logic reason (an unexpected refusal, a bug): retrying on its
 * own would fail the same way, so the event is set aside here and the manager moves on. The operator sees them
 * (`cli processes dead-letters`) and asks for a retry once the cause is fixed (`cli processes retry ID`); the
 * server's process runner picks the request up and handles the event again (out of order with later events:
 * managers are idempotent). Operational data in read.db beside the checkpoints, not a projection.
 */
export type DeadLetterStatus = 'dead' | 'retry_requested' | 'resolved';

export interface DeadLetter {
  id: number;
  process: string;
  position: number;
  event_id: string;
  event_type: string;
  stream: string;
  error: string;
  status: DeadLetterStatus;
  /** Handling attempts so far (the first failure, then each retry). */
  attempts: number;
  failed_at: string;
  resolved_at: string | null;
}

export class DeadLetters {
  private readonly insert: Statement<[string, number, string, string, string, string, string]>;
  private readonly select: Statement<[{ process: string | null; status: string | null }], DeadLetter>;
  private readonly requested: Statement<[], DeadLetter>;
  private readonly setStatus: Statement<[DeadLetterStatus, number]>;
  private readonly failedAgain: Statement<[string, string, number]>;
  private readonly resolved: Statement<[string, number]>;
  private readonly counts: Statement<[], { process: string; dead: number }>;

  constructor(db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS process_dead_letters (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      process TEXT NOT NULL,
      position INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      stream TEXT NOT NULL,
      error TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 1,
      failed_at TEXT NOT NULL,
      resolved_at TEXT,
      UNIQUE (process, position)
    )`);
    this.insert = db.prepare(
      `INSERT INTO process_dead_letters (process, position, event_id, event_type, stream, error, status, failed_at) VALUES (?, ?, ?, ?, ?, ?, 'dead', ?)
       ON CONFLICT(process, position) DO UPDATE SET error = excluded.error, status = 'dead', attempts = attempts + 1, failed_at = excluded.failed_at`,
    );
    this.select = db.prepare(
      `SELECT * FROM process_dead_letters WHERE (@process IS NULL OR process = @process) AND (@status IS NULL OR status = @status) ORDER BY id`,
    );
    this.requested = db.prepare(`SELECT * FROM process_dead_letters WHERE status = 'retry_requested' ORDER BY id`);
    this.setStatus = db.prepare('UPDATE process_dead_letters SET status = ? WHERE id = ?');
    this.failedAgain = db.prepare(`UPDATE process_dead_letters SET status = 'dead', error = ?, failed_at = ?, attempts = attempts + 1 WHERE id = ?`);
    this.resolved = db.prepare(`UPDATE process_dead_letters SET status = 'resolved', resolved_at = ?, attempts = attempts + 1 WHERE id = ?`);
    this.counts = db.prepare(`SELECT process, count(*) AS dead FROM process_dead_letters WHERE status != 'resolved' GROUP BY process`);
  }

  record(process: string, event: RecordedEvent, error: string, at: Date): void {
    this.insert.run(process, event.position, event.id, event.type, event.stream, error, at.toISOString());
  }

  list(filter: { process?: string; status?: DeadLetterStatus } = {}): DeadLetter[] {
    return this.select.all({ process: filter.process ?? null, status: filter.status ?? null });
  }

  /** Asks the server to handle the event again; false when there is no such letter or it is resolved. */
  requestRetry(id: number): boolean {
    const letter = this.list().find((candidate) => candidate.id === id);
    if (!letter || letter.status === 'resolved') return false;
    this.setStatus.run('retry_requested', id);
    return true;
  }

  retryRequests(): DeadLetter[] {
    return this.requested.all();
  }

  markResolved(id: number, at: Date): void {
    this.resolved.run(at.toISOString(), id);
  }

  markFailed(id: number, error: string, at: Date): void {
    this.failedAgain.run(error, at.toISOString(), id);
  }

  /** Unresolved letters per process (the metrics). */
  unresolvedByProcess(): Map<string, number> {
    return new Map(this.counts.all().map((row) => [row.process, row.dead]));
  }
}
