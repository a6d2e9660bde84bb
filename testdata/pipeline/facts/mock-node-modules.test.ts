// FACT 6: a hoisted vi.mock with importOriginal() CAN observe (call-through) an export of a
// package under node_modules.
import initSqlJs from "sql.js";
import { expect, it, vi } from "vitest";

vi.mock("sql.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("sql.js")>();
  return { ...mod, default: vi.fn(mod.default) };
});

it("observes the package export and still runs it", async () => {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  expect(db.exec("SELECT 1 + 1")[0]?.values).toEqual([[2]]);
  expect(initSqlJs).toHaveBeenCalledTimes(1);
});
