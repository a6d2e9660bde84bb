// Orders and their events, written through sql.js.
import { getDb } from "../db/database";

export interface Line {
  sku: string;
  qty: number;
  price: number;
}

export interface OrderRow {
  id: number;
  customer: string;
  lines: Line[];
  status: string;
  total: number | null;
}

function toRow(values: unknown[]): OrderRow {
  const [id, customer, lines, status, total] = values;
  return { id: Number(id), customer: String(customer), lines: JSON.parse(String(lines)) as Line[], status: String(status), total: total === null ? null : Number(total) };
}

export async function createOrder(customer: string, lines: Line[]): Promise<OrderRow> {
  const db = await getDb();
  db.run("INSERT INTO orders (customer, lines) VALUES (?, ?)", [customer, JSON.stringify(lines)]);
  const id = Number(db.exec("SELECT last_insert_rowid()")[0]!.values[0]![0]);
  return (await getOrder(id))!;
}

export async function getOrder(id: number): Promise<OrderRow | undefined> {
  const db = await getDb();
  const rows = db.exec("SELECT id, customer, lines, status, total FROM orders WHERE id = ?", [id]);
  const values = rows[0]?.values[0];
  return values ? toRow(values) : undefined;
}

export async function updateOrder(id: number, patch: { status?: string; total?: number | null }): Promise<OrderRow> {
  const db = await getDb();
  if (patch.status !== undefined) db.run("UPDATE orders SET status = ? WHERE id = ?", [patch.status, id]);
  if (patch.total !== undefined) db.run("UPDATE orders SET total = ? WHERE id = ?", [patch.total, id]);
  const row = await getOrder(id);
  if (!row) throw new Error(`order ${id} not found`);
  return row;
}

export async function recordEvent(orderId: number, kind: string): Promise<void> {
  const db = await getDb();
  db.run("INSERT INTO events (order_id, kind) VALUES (?, ?)", [orderId, kind]);
}

export async function listEvents(orderId: number): Promise<string[]> {
  const db = await getDb();
  const rows = db.exec("SELECT kind FROM events WHERE order_id = ? ORDER BY id", [orderId]);
  return (rows[0]?.values ?? []).map((v) => String(v[0]));
}
