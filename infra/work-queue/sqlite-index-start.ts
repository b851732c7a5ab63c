import type { Database } from 'better-sqlite3';
import type { IndexStart } from './event-store-queue.ts';

/** A node's work-queue index start mark, kept in its own state.db (table `work_queue_index`). */
export function sqliteIndexStart(db: Database, name = 'work-queue'): IndexStart {
  db.exec('CREATE TABLE IF NOT EXISTS work_queue_index (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  const select = db.prepare<[string], { position: number }>('SELECT position FROM work_queue_index WHERE name = ?');
  const upsert = db.prepare<[string, number]>('INSERT INTO work_queue_index (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position');
  return {
    load: () => select.get(name)?.position ?? 0,
    save: (position) => void upsert.run(name, position),
  };
}
