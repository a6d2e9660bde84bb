// The record repository: every read and write of the `records` table.
import { getDb } from "../db/database";

export interface RecordRow {
  id: number;
  name: string;
  tags: string[];
  status: string;
  score: number | null;
  payload: unknown;
}

export interface NewRecord {
  name: string;
  tags?: string[];
}

export interface RecordPatch {
  status?: string;
  score?: number | null;
  payload?: unknown;
}

type Row = [number, string, string, string, number | null, string | null];

function toRecord([id, name, tags, status, score, payload]: Row): RecordRow {
  return {
    id,
    name,
    tags: tags === "" ? [] : tags.split(","),
    status,
    score,
    payload: payload === null ? null : (JSON.parse(payload) as unknown),
  };
}

export async function getRecord(id: number): Promise<RecordRow | undefined> {
  const db = await getDb();
  const res = db.exec(
    "SELECT id, name, tags, status, score, payload FROM records WHERE id = ?",
    [id],
  );
  const row = res[0]?.values[0];
  return row ? toRecord(row as Row) : undefined;
}

export async function createRecord(input: NewRecord): Promise<RecordRow> {
  const db = await getDb();
  db.run("INSERT INTO records (name, tags) VALUES (?, ?)", [
    input.name,
    (input.tags ?? []).join(","),
  ]);
  const id = Number(db.exec("SELECT last_insert_rowid()")[0]!.values[0]![0]);
  return (await getRecord(id))!;
}

/** The write: persists a patch and appends an audit row. */
export async function updateRecord(id: number, patch: RecordPatch): Promise<RecordRow> {
  const db = await getDb();
  const current = await getRecord(id);
  if (!current) throw new Error(`record ${id} not found`);
  db.run("UPDATE records SET status = ?, score = ?, payload = ? WHERE id = ?", [
    patch.status ?? current.status,
    patch.score === undefined ? current.score : patch.score,
    JSON.stringify(patch.payload === undefined ? current.payload : patch.payload),
    id,
  ]);
  db.run("INSERT INTO audit (record_id, action) VALUES (?, ?)", [id, "update"]);
  return (await getRecord(id))!;
}

export async function listRecords(status?: string): Promise<RecordRow[]> {
  const db = await getDb();
  const res =
    status === undefined
      ? db.exec("SELECT id, name, tags, status, score, payload FROM records ORDER BY id")
      : db.exec(
          "SELECT id, name, tags, status, score, payload FROM records WHERE status = ? ORDER BY id",
          [status],
        );
  return (res[0]?.values ?? []).map((row) => toRecord(row as Row));
}
