// FACT 2: when NO static import reaches a mocked module, its factory runs lazily at the
// first import of the module (here: inside the test, after vi.resetModules()), not when the
// file loads. This is why the correct oracle gets fresh originals for its hoisted mocks: the
// function under test is first imported after the fixture's setup().
import { beforeAll, expect, it, vi } from "vitest";
import { factsLog, record } from "./mods/log";

vi.mock("./mods/stateful", async (importOriginal) => {
  const { record } = await import("./mods/log");
  record("factory start");
  const mod = await importOriginal<typeof import("./mods/stateful")>();
  return { ...mod, work: vi.fn(mod.work) };
});

beforeAll(() => record("beforeAll"));

it("runs the factory at the first import, not at file load", async () => {
  expect(factsLog()).toEqual(["beforeAll"]);
  vi.resetModules();
  record("reset");
  const consumer = await import("./mods/consumer");
  expect(factsLog()).toEqual(["beforeAll", "reset", "factory start", "stateful evaluated #1"]);
  expect(consumer.useWork()).toBe(1);
});
