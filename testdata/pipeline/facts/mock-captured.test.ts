// FACT 4: a hoisted vi.mock DOES see a callee captured at module load: the mocked export is in
// place before the capturing module is evaluated. (Compare spy-live-binding.test.ts.)
import { expect, it, vi } from "vitest";
import { work } from "./mods/callee";
import { viaHandlers } from "./mods/handlers";

vi.mock("./mods/callee", async (importOriginal) => {
  const mod = await importOriginal<typeof import("./mods/callee")>();
  return { ...mod, work: vi.fn(mod.work) };
});

it("a hoisted mock sees the captured callee, and still calls through", () => {
  expect(viaHandlers()).toBe("real");
  expect(work).toHaveBeenCalledTimes(1);
});
