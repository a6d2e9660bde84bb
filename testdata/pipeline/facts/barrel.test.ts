// FACT 10: observe a callee at its DEFINING module. A spy on the defining module sees calls
// made through a barrel (`export { work } from "./callee"` reads the binding live); a spy on
// the barrel does not see callers that import the defining module directly.
import { afterEach, expect, it, vi } from "vitest";
import * as barrel from "./mods/barrel";
import * as callee from "./mods/callee";
import { direct } from "./mods/handlers";
import { viaBarrel } from "./mods/via-barrel";

afterEach(() => {
  vi.restoreAllMocks();
});

it("a spy on the defining module sees a call made through the barrel", () => {
  const spy = vi.spyOn(callee, "work");
  expect(viaBarrel()).toBe("real");
  expect(spy).toHaveBeenCalledTimes(1);
});

it("a spy on the barrel misses a caller that imports the defining module", () => {
  const spy = vi.spyOn(barrel, "work");
  expect(direct()).toBe("real");
  expect(spy).not.toHaveBeenCalled();
});
