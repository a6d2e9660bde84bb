// FACT 1: a hoisted vi.mock factory (and the importOriginal() inside it) runs while the test
// file's STATIC imports load, before any hook, when a static import reaches the mocked
// module. Its result SURVIVES vi.resetModules(): the mock stays in force and the factory is
// NOT run again, so the mocked module keeps the original instance loaded the first time
// (and whatever state that instance is bound to), while unmocked modules re-evaluate.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useWork } from "./mods/consumer";
import { factsLog, record } from "./mods/log";
import "./mods/plain";

vi.mock("./mods/stateful", async (importOriginal) => {
  const { record } = await import("./mods/log");
  record("factory start");
  const mod = await importOriginal<typeof import("./mods/stateful")>();
  record(`factory got original #${mod.instance}`);
  return { ...mod, work: vi.fn(mod.work) };
});

let atBeforeAll: string[] = [];
beforeAll(() => {
  atBeforeAll = [...factsLog()];
  record("beforeAll");
});

describe("vi.mock factory lifecycle", () => {
  it("runs the factory and importOriginal() during the static imports, before any hook", () => {
    expect(atBeforeAll).toEqual([
      "factory start",
      "stateful evaluated #1",
      "factory got original #1",
      "plain evaluated #1",
    ]);
    expect(useWork()).toBe(1);
  });

  it("keeps the mocked module across vi.resetModules(): same vi.fn, factory not run again", async () => {
    const before = await import("./mods/stateful");
    expect(vi.isMockFunction(before.work)).toBe(true);
    before.work();
    const callsBefore = vi.mocked(before.work).mock.calls.length;

    vi.resetModules();
    const plain = await import("./mods/plain");
    const after = await import("./mods/stateful");
    const consumer = await import("./mods/consumer");

    expect(plain.instance).toBe(2); // an unmocked module IS evaluated again ...
    expect(after.work).toBe(before.work); // ... a mocked one is not: same vi.fn,
    expect(after.instance).toBe(1); // still the original instance of the first load,
    expect(consumer.useWork()).toBe(1); // also for a module re-evaluated after the reset.
    expect(factsLog().filter((e) => e === "factory start")).toHaveLength(1);
    // The vi.fn keeps its call history across the reset, so an oracle must clear it right
    // before the call under test. (Between TESTS, vitest <= 4 keeps it too, clearMocks being
    // off by default; vitest 5 turns clearMocks on by default. The oracle never relies on it.)
    expect(vi.mocked(after.work).mock.calls.length).toBe(callsBefore + 1);
  });
});
