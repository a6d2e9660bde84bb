// FACT 5: vi.spyOn cannot observe an export of a package under node_modules: vitest leaves
// such packages to Node (externalized), and a native module namespace is not configurable.
// Both a CommonJS package (sql.js) and an ESM one (vitest/config) fail the same way. A
// hoisted vi.mock of the package does work (see mock-node-modules.test.ts).
import * as sqljs from "sql.js";
import { expect, it, vi } from "vitest";
import * as vitestConfig from "vitest/config";

it("vi.spyOn on a CommonJS package's export throws", () => {
  expect(Object.getOwnPropertyDescriptor(sqljs, "default")?.configurable).toBe(false);
  expect(() => vi.spyOn(sqljs, "default")).toThrow(/Module namespace is not configurable in ESM/);
});

it("vi.spyOn on an ESM package's export throws", () => {
  expect(() => vi.spyOn(vitestConfig, "defineConfig")).toThrow(
    /Module namespace is not configurable in ESM/,
  );
});
