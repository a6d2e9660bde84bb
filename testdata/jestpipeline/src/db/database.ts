// The service's database: one module-level, lazily opened in-memory store (a stand-in for
// testdata/pipeline's sql.js database, with the same lifecycle).
//
// The store lives in THIS module instance. A test harness that calls jest.resetModules() and
// then requires this module again gets a NEW instance with a NEW, empty store; any module
// instance loaded before the reset (and everything it required) stays bound to the OLD store,
// which the harness never migrates: its reads fail with "no such table".

export type Row = Record<string, unknown> & { id: number };

const TABLES: readonly string[] = ["records", "audit"];

export class Database {
  private readonly tables = new Map<string, Row[]>();
  private readonly ids = new Map<string, number>();

  /** The rows of a migrated table; throws "no such table" before migrate(). */
  table(name: string): Row[] {
    const rows = this.tables.get(name);
    if (!rows) throw new Error(`no such table: ${name}`);
    return rows;
  }

  /** Inserts a row, gives it the next id of its table. */
  insert(name: string, values: Record<string, unknown>): Row {
    const rows = this.table(name);
    const id = (this.ids.get(name) ?? 0) + 1;
    this.ids.set(name, id);
    const row: Row = { ...values, id };
    rows.push(row);
    return row;
  }

  /** Creates the tables not there yet. */
  createTables(): void {
    for (const t of TABLES) {
      if (!this.tables.has(t)) this.tables.set(t, []);
    }
  }
}

let opened: Promise<Database> | undefined;

/** The database of this module instance, opened on first use (not migrated). */
export function getDb(): Promise<Database> {
  opened ??= Promise.resolve(new Database());
  return opened;
}

/** Brings the schema of this module instance's database up to date. Idempotent. */
export async function migrate(): Promise<void> {
  (await getDb()).createTables();
}

/** Forgets the database; the next getDb() opens an empty one. */
export async function resetDb(): Promise<void> {
  opened = undefined;
}
