// FACT 9: a callee defined in the same module as its caller and called through its local
// binding is observable by NEITHER strategy: a hoisted mock replaces the module's exports but
// the real caller still calls the real local function, and an export spy replaces the property
// on the namespace object, which the local call never reads. (PROJ-150 raw-metadata: error.)
import { afterEach, expect, it, vi } from "vitest";
import * as local from "./mods/local";

vi.mock("./mods/local", async (importOriginal) => {
  const mod = await importOriginal<typeof import("./mods/local")>();
  return { ...mod, helper: vi.fn(mod.helper) };
});

afterEach(() => {
  vi.restoreAllMocks();
});

it("a hoisted mock of the module does not see the local call", () => {
  expect(local.outer(1)).toBe(4);
  expect(vi.isMockFunction(local.helper)).toBe(true);
  expect(local.helper).not.toHaveBeenCalled();
});

it("an export spy does not see it either", async () => {
  vi.resetModules();
  vi.doUnmock("./mods/local");
  const fresh = await import("./mods/local");
  expect(vi.isMockFunction(fresh.helper)).toBe(false);
  const spy = vi.spyOn(fresh, "helper");
  expect(fresh.outer(1)).toBe(4);
  expect(spy).not.toHaveBeenCalled();
});
