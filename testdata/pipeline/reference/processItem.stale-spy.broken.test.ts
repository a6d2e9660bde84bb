// BROKEN ON PURPOSE: what the generator must NOT emit. Expected result: "flag set" FAILS with
// `expected "updateRecord" to be called at least once` although processItem DID call it
// (and the record was written: the test checks that, and that check passes).
//
// The spy is installed on the repo module instance this file imported STATICALLY, i.e. before
// setup() reset the module registry. processItem (correctly imported after setup()) uses the
// NEW repo instance; a spy on the old instance records zero calls. Every observed module must
// be imported after setup(), exactly like the function under test.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import * as staleRepo from "../src/server/repo";
import { arrange, setup, teardown } from "../test/fixtures/pipeline.fixture";

let processItem: typeof import("../src/server/index").processItem;
let updateRecord: MockInstance<typeof staleRepo.updateRecord>;
let args: Parameters<typeof processItem>;

beforeEach(async () => {
  await setup();
  updateRecord = vi.spyOn(staleRepo, "updateRecord").mockName("updateRecord");
  ({ processItem } = await import("../src/server/index"));
  args = [...(await arrange.processItem())];
  updateRecord.mockClear();
});
afterEach(async () => {
  updateRecord.mockRestore();
  await teardown();
});

describe("PROJ-142 skip-enrichment (spy on a stale module instance: broken)", () => {
  it("flag set: updateRecord still called", async () => {
    args[1] = { ...args[1], skip: true };
    const result = await processItem(...args);
    expect(result.record.status).toBe("processed"); // the write DID happen ...
    expect(updateRecord).toHaveBeenCalled(); // ... but this spy never sees it
  });
});
