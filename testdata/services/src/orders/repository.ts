// Persistence of orders, as a class that receives its database handle.
import type { Database } from "sql.js";

export interface OrderLine {
  sku: string;
  qty: number;
  price: number;
}

export interface OrderRow {
  id: number;
  customer: string;
  email: string;
  status: "open" | "finalized" | "cancelled";
  total: number;
  quote: number | null;
  lines: OrderLine[];
}

export interface OrderPatch {
  status?: OrderRow["status"];
  total?: number;
  quote?: number | null;
}

export class OrderRepository {
  constructor(private readonly db: Database) {}

  async insert(customer: string, email: string, lines: readonly OrderLine[]): Promise<OrderRow> {
    this.db.run("INSERT INTO orders (customer, email) VALUES (?, ?)", [customer, email]);
    const id = Number(this.db.exec("SELECT last_insert_rowid()")[0]!.values[0]![0]);
    for (const l of lines) {
      this.db.run("INSERT INTO order_lines (order_id, sku, qty, price) VALUES (?, ?, ?, ?)", [id, l.sku, l.qty, l.price]);
    }
    const row = await this.findById(id);
    if (!row) throw new Error(`order ${id} vanished`);
    return row;
  }

  async findById(id: number): Promise<OrderRow | undefined> {
    const res = this.db.exec("SELECT id, customer, email, status, total, quote FROM orders WHERE id = ?", [id]);
    const v = res[0]?.values[0];
    if (!v) return undefined;
    const lines = this.db.exec("SELECT sku, qty, price FROM order_lines WHERE order_id = ? ORDER BY id", [id]);
    return {
      id: Number(v[0]),
      customer: String(v[1]),
      email: String(v[2]),
      status: String(v[3]) as OrderRow["status"],
      total: Number(v[4]),
      quote: v[5] === null ? null : Number(v[5]),
      lines: (lines[0]?.values ?? []).map((l) => ({ sku: String(l[0]), qty: Number(l[1]), price: Number(l[2]) })),
    };
  }

  async listOpen(): Promise<OrderRow[]> {
    const res = this.db.exec("SELECT id FROM orders WHERE status = 'open' ORDER BY id");
    const out: OrderRow[] = [];
    for (const v of res[0]?.values ?? []) {
      const row = await this.findById(Number(v[0]));
      if (row) out.push(row);
    }
    return out;
  }

  async updateRecord(id: number, patch: OrderPatch): Promise<OrderRow> {
    const sets: string[] = [];
    const args: (string | number | null)[] = [];
    if (patch.status !== undefined) (sets.push("status = ?"), args.push(patch.status));
    if (patch.total !== undefined) (sets.push("total = ?"), args.push(patch.total));
    if (patch.quote !== undefined) (sets.push("quote = ?"), args.push(patch.quote));
    if (sets.length > 0) this.db.run(`UPDATE orders SET ${sets.join(", ")} WHERE id = ?`, [...args, id]);
    const row = await this.findById(id);
    if (!row) throw new Error(`order ${id} not found`);
    return row;
  }
}
