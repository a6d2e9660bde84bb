// The app's database: one module-level, lazily opened in-memory SQLite (sql.js), held by this
// module instance (vi.resetModules() and a new import give a new, empty database).
import initSqlJs, { type Database } from "sql.js";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE orders (
     id       INTEGER PRIMARY KEY AUTOINCREMENT,
     customer TEXT    NOT NULL,
     lines    TEXT    NOT NULL DEFAULT '[]',
     status   TEXT    NOT NULL DEFAULT 'open',
     total    REAL
   )`,
  `CREATE TABLE events (
     id       INTEGER PRIMARY KEY AUTOINCREMENT,
     order_id INTEGER NOT NULL,
     kind     TEXT    NOT NULL
   )`,
];

// Loaded once per module instance, at the top level.
const SQL = await initSqlJs();

let opened: Promise<Database> | undefined;

export function getDb(): Promise<Database> {
  opened ??= Promise.resolve(new SQL.Database());
  return opened;
}

export async function migrate(): Promise<void> {
  const db = await getDb();
  const version = Number(db.exec("PRAGMA user_version")[0]?.values[0]?.[0] ?? 0);
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.run(MIGRATIONS[v]!);
    db.run(`PRAGMA user_version = ${v + 1}`);
  }
}

export async function resetDb(): Promise<void> {
  const current = opened;
  opened = undefined;
  if (current) (await current).close();
}
