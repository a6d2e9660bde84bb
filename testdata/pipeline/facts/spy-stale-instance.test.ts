// FACT 7: after vi.resetModules(), a spy installed on a module instance loaded BEFORE the
// reset records zero calls: the code under test, imported after the reset, uses a new
// instance. Observed modules must be imported after the fixture's setup(), like the function
// under test.
import { expect, it, vi } from "vitest";
import * as staleCallee from "./mods/callee";

it("a spy on the pre-reset instance records nothing; one on the live instance records", async () => {
  vi.resetModules();
  const liveCallee = await import("./mods/callee");
  const { direct } = await import("./mods/handlers");
  expect(liveCallee).not.toBe(staleCallee);

  const stale = vi.spyOn(staleCallee, "work");
  const live = vi.spyOn(liveCallee, "work");
  expect(direct()).toBe("real");
  expect(stale).not.toHaveBeenCalled();
  expect(live).toHaveBeenCalledTimes(1);
  vi.restoreAllMocks();
});
