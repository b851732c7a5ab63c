import type { Database } from 'better-sqlite3';
import type { TimerEvent } from '../domain/timer.ts';
import { defineProjection } from './projection.ts';
import { preparedStatement } from './statement-cache.ts';

/** Pending durable timers indexed by due time, for the timer scheduler. */
export const timersProjection = defineProjection<TimerEvent>({
  name: 'timers',
  version: 1,
  tables: ['timers'],
  eventTypes: ['TimerScheduled', 'TimerFired', 'TimerCancelled'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS timers (
      timer_id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      workspace_id TEXT,
      due_ms INTEGER NOT NULL,
      status TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS timers_pending ON timers (status, due_ms);`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT INTO timers (timer_id, kind, workspace_id, due_ms, status) VALUES (?, ?, ?, ?, 'scheduled')
       ON CONFLICT(timer_id) DO NOTHING`,
    );
    const setStatus = db.prepare('UPDATE timers SET status = ? WHERE timer_id = ?');
    return (event) => {
      const timerId = event.data.timer_id;
      if (event.type === 'TimerScheduled') {
        insert.run(timerId, event.data.kind, event.metadata.workspace_id, Date.parse(event.data.due_at));
      } else {
        setStatus.run(event.type === 'TimerFired' ? 'fired' : 'cancelled', timerId);
      }
    };
  },
});

export function dueTimers(db: Database, nowMs: number, limit: number): Array<{ timer_id: string; workspace_id: string | null }> {
  // Prepared once per database: the scheduler asks five times a second (compiling the query each time cost more than
  // running it, measured under load).
  return preparedStatement<[number, number], { timer_id: string; workspace_id: string | null }>(
    db,
    `SELECT timer_id, workspace_id FROM timers WHERE status = 'scheduled' AND due_ms <= ? ORDER BY due_ms LIMIT ?`,
  ).all(nowMs, limit);
}

export function pendingTimerCount(db: Database): number {
  return db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM timers WHERE status = 'scheduled'`).get()?.count ?? 0;
}
