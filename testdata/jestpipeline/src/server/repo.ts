// The record repository: every read and write of the `records` table.
import { getDb, type Row } from "../db/database";

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

function toRecord(row: Row): RecordRow {
  return {
    id: row.id,
    name: String(row["name"]),
    tags: [...(row["tags"] as string[])],
    status: String(row["status"]),
    score: row["score"] as number | null,
    payload: row["payload"] === null ? null : (JSON.parse(String(row["payload"])) as unknown),
  };
}

export async function getRecord(id: number): Promise<RecordRow | undefined> {
  const db = await getDb();
  const row = db.table("records").find((r) => r.id === id);
  return row ? toRecord(row) : undefined;
}

export async function createRecord(input: NewRecord): Promise<RecordRow> {
  const db = await getDb();
  const row = db.insert("records", { name: input.name, tags: input.tags ?? [], status: "new", score: null, payload: null });
  return (await getRecord(row.id))!;
}

/** The write: persists a patch and appends an audit row. */
export async function updateRecord(id: number, patch: RecordPatch): Promise<RecordRow> {
  const db = await getDb();
  const current = await getRecord(id);
  if (!current) throw new Error(`record ${id} not found`);
  const row = db.table("records").find((r) => r.id === id)!;
  row["status"] = patch.status ?? current.status;
  row["score"] = patch.score === undefined ? current.score : patch.score;
  row["payload"] = JSON.stringify(patch.payload === undefined ? current.payload : patch.payload);
  db.insert("audit", { record_id: id, action: "update" });
  return (await getRecord(id))!;
}

export async function listRecords(status?: string): Promise<RecordRow[]> {
  const db = await getDb();
  return db
    .table("records")
    .filter((r) => status === undefined || r["status"] === status)
    .map(toRecord);
}
