// BROKEN ON PURPOSE: what the generator must NOT emit. Expected result: both tests FAIL with
// "no such table: records", before any assertion is reached.
//
// This is the naive oracle: every observed callee, the stateful write updateRecord included,
// observed through a hoisted whole-module mock, and the function under test imported
// statically. What happens:
//   1. Loading this file's static imports evaluates src/server/index.ts, which imports
//      src/server/repo.ts -> the repo mock factory runs NOW, before any hook; its
//      importOriginal() evaluates the real repo.ts and src/db/database.ts (instance A).
//   2. beforeEach -> setup(): vi.resetModules(), then imports src/db/database.ts again
//      (instance B) and migrates B.
//   3. arrange.processItem(): `await import(".../repo")` returns the MOCKED repo, and vitest
//      does not run a mock factory again after vi.resetModules(): the mocked module is cached
//      and its createRecord is the original bound to database A, never migrated
//      -> "no such table: records".
//   (The statically imported processItem is bound to A as well.)
// The fix (reference/processItem.hoisted.oracle.test.ts): observe updateRecord with an
// in-place spy on the module instance imported after setup(), and import the function under
// test after setup() too.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { processItem } from "../src/server/index";
import { enrichItem } from "../src/server/enrich";
import { updateRecord } from "../src/server/repo";
import { arrange, setup, teardown } from "../test/fixtures/pipeline.fixture";

vi.mock("../src/server/enrich", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../src/server/enrich")>();
  return { ...mod, enrichItem: vi.fn(mod.enrichItem).mockName("enrichItem") };
});
vi.mock("../src/server/repo", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../src/server/repo")>();
  return { ...mod, updateRecord: vi.fn(mod.updateRecord).mockName("updateRecord") };
});

beforeEach(async () => {
  await setup();
  vi.clearAllMocks();
});
afterEach(teardown);

describe("PROJ-142 skip-enrichment (all hoisted: broken)", () => {
  it("flag set: enrichItem not called, updateRecord still called", async () => {
    const [id] = await arrange.processItem();
    await processItem(id, { skip: true });
    expect(enrichItem).not.toHaveBeenCalled();
    expect(updateRecord).toHaveBeenCalled();
  });

  it("flag unset: enrichItem called", async () => {
    const [id] = await arrange.processItem();
    await processItem(id, { skip: false });
    expect(enrichItem).toHaveBeenCalled();
  });
});
