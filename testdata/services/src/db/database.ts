// The service's database: one module-level, lazily opened in-memory SQLite (sql.js).
// A harness that calls vi.resetModules() and imports this module again gets a new, empty
// database; module instances loaded before the reset stay bound to the old one.
import initSqlJs, { type Database } from "sql.js";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE orders (
     id       INTEGER PRIMARY KEY AUTOINCREMENT,
     customer TEXT    NOT NULL,
     email    TEXT    NOT NULL,
     status   TEXT    NOT NULL DEFAULT 'open',
     total    REAL    NOT NULL DEFAULT 0,
     quote    REAL
   )`,
  `CREATE TABLE order_lines (
     id       INTEGER PRIMARY KEY AUTOINCREMENT,
     order_id INTEGER NOT NULL REFERENCES orders(id),
     sku      TEXT    NOT NULL,
     qty      INTEGER NOT NULL,
     price    REAL    NOT NULL
   )`,
  `CREATE TABLE audit_log (
     id       INTEGER PRIMARY KEY AUTOINCREMENT,
     scope    TEXT    NOT NULL,
     event    TEXT    NOT NULL
   )`,
];

let opened: Promise<Database> | undefined;

/** The database of this module instance, opened on first use (not migrated). */
export function getDb(): Promise<Database> {
  opened ??= initSqlJs().then((SQL) => new SQL.Database());
  return opened;
}

/** Brings the schema up to date. Idempotent. */
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
