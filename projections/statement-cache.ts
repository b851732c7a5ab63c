import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements by SQL text, per database, for queries asked often (per request, per timer tick) or whose text
 * depends on the request's filters: each distinct text is prepared once (better-sqlite3 compiles on `prepare`, which
 * costs more than a small query). SQLite prepares a statement again by itself when a rebuild changes the schema.
 */
const cache = new WeakMap<Database, Map<string, Statement>>();

export function preparedStatement<Parameters extends unknown[] = unknown[], Row = unknown>(db: Database, sql: string): Statement<Parameters, Row> {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement as Statement<Parameters, Row>;
}
