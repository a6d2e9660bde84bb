// FACT 3: vi.spyOn on a source module's export (a module vitest transforms) works, and it
// sees calls that another module makes through its import binding, even when that module was
// loaded BEFORE the spy was installed: the import is read at call time. It does NOT see a
// reference captured when the module was evaluated (`const handlers = { run: work }`).
import { afterEach, expect, it, vi } from "vitest";
import * as callee from "./mods/callee";
import { direct, viaHandlers } from "./mods/handlers";

afterEach(() => {
  vi.restoreAllMocks();
});

it("a spy installed after load sees calls through the import binding (call-through)", () => {
  const spy = vi.spyOn(callee, "work");
  expect(direct()).toBe("real");
  expect(spy).toHaveBeenCalledTimes(1);
});

it("a spy cannot see a callee captured at module load", () => {
  const spy = vi.spyOn(callee, "work");
  expect(viaHandlers()).toBe("real");
  expect(spy).not.toHaveBeenCalled();
});
