// BROKEN ON PURPOSE: what the generator must NOT emit. Expected result: the FIRST test
// passes, the SECOND fails with "no such table: records".
//
// Same layout as the correct oracle (everything imported after setup()), except that
// updateRecord is observed through a hoisted mock of src/server/repo.ts. Nothing imports
// repo.ts before the first test's setup(), so the factory first runs inside test 1, after
// its vi.resetModules(): test 1 is fine. But vitest caches the mocked module across
// vi.resetModules() and never runs the factory again, so in test 2 the mocked repo (and the
// processItem that imports it) still holds the database module instance of test 1, which
// test 1's teardown() closed and forgot; it lazily opens a new, UNMIGRATED database
// -> "no such table: records". A hoisted mock pins a module to the first test's world;
// only a module with no state the fixture resets may be hoisted.
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { arrange, setup, teardown } from "../test/fixtures/pipeline.fixture";

vi.mock("../src/server/enrich", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../src/server/enrich")>();
  return { ...mod, enrichItem: vi.fn(mod.enrichItem).mockName("enrichItem") };
});
vi.mock("../src/server/repo", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../src/server/repo")>();
  return { ...mod, updateRecord: vi.fn(mod.updateRecord).mockName("updateRecord") };
});

let processItem: typeof import("../src/server/index").processItem;
let enrichItem: Mock;
let updateRecord: Mock;
let args: Parameters<typeof processItem>;

beforeEach(async () => {
  await setup();
  enrichItem = vi.mocked((await import("../src/server/enrich")).enrichItem);
  updateRecord = vi.mocked((await import("../src/server/repo")).updateRecord);
  ({ processItem } = await import("../src/server/index"));
  args = [...(await arrange.processItem())];
  enrichItem.mockClear();
  updateRecord.mockClear();
});
afterEach(teardown);

describe("PROJ-142 skip-enrichment (repo hoisted, imports dynamic: broken from test 2 on)", () => {
  it("flag set: enrichItem not called, updateRecord still called", async () => {
    args[1] = { ...args[1], skip: true };
    await processItem(...args);
    expect(enrichItem).not.toHaveBeenCalled();
    expect(updateRecord).toHaveBeenCalled();
  });

  it("flag unset: enrichItem called", async () => {
    args[1] = { ...args[1], skip: false };
    await processItem(...args);
    expect(enrichItem).toHaveBeenCalled();
  });
});
