// The repository against a real in-memory database.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, migrate, resetDb } from "../src/db/database";
import { OrderRepository } from "../src/orders/repository";

describe("OrderRepository", () => {
  beforeEach(async () => {
    await resetDb();
    await migrate();
  });

  it("inserts, reads and updates an order with its lines", async () => {
    const repo = new OrderRepository(await getDb());
    const o = await repo.insert("ada", "ada@example.com", [{ sku: "a", qty: 2, price: 1.5 }]);
    expect(o).toMatchObject({ customer: "ada", status: "open", quote: null, lines: [{ sku: "a", qty: 2, price: 1.5 }] });
    const u = await repo.updateRecord(o.id, { status: "finalized", total: 3, quote: 3.15 });
    expect(u).toMatchObject({ status: "finalized", total: 3, quote: 3.15 });
    expect(await repo.listOpen()).toEqual([]);
  });
});
