// The service's database: one module-level, lazily opened in-memory SQLite (sql.js).
//
// The handle lives in THIS module instance. A test harness that calls vi.resetModules()
// and then imports this module again gets a NEW instance with a NEW, empty database; any
// module instance loaded before the reset (and everything it imported) stays bound to the
// OLD database, which the harness never migrates. That is what makes a wrongly hoisted
// whole-module mock of a stateful module fail with "no such table".
import initSqlJs, { type Database } from "sql.js";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE records (
     id      INTEGER PRIMARY KEY AUTOINCREMENT,
     name    TEXT    NOT NULL,
     tags    TEXT    NOT NULL DEFAULT '',
     status  TEXT    NOT NULL DEFAULT 'new',
     score   REAL,
     payload TEXT
   )`,
  `CREATE TABLE audit (
     id        INTEGER PRIMARY KEY AUTOINCREMENT,
     record_id INTEGER NOT NULL,
     action    TEXT    NOT NULL
   )`,
];

let opened: Promise<Database> | undefined;

/** The database of this module instance, opened on first use (not migrated). */
export function getDb(): Promise<Database> {
  opened ??= initSqlJs().then((SQL) => new SQL.Database());
  return opened;
}

/** Brings the schema of this module instance's database up to date. Idempotent. */
export async function migrate(): Promise<void> {
  const db = await getDb();
  const version = Number(db.exec("PRAGMA user_version")[0]?.values[0]?.[0] ?? 0);
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.run(MIGRATIONS[v]!);
    db.run(`PRAGMA user_version = ${v + 1}`);
  }
}

/** Closes and forgets the database; the next getDb() opens an empty one. */
export async function resetDb(): Promise<void> {
  const current = opened;
  opened = undefined;
  if (current) (await current).close();
}
