// Ordinary unit tests of the repository and the pipeline, on the real database.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setup, teardown } from "./fixtures/pipeline.fixture";

describe("repo", () => {
  beforeEach(setup);
  afterEach(teardown);

  it("creates, updates and reads a record", async () => {
    const { createRecord, getRecord, updateRecord } = await import("../src/server/repo");
    const rec = await createRecord({ name: "a", tags: ["x"] });
    expect(rec).toMatchObject({ name: "a", tags: ["x"], status: "new", score: null });
    await updateRecord(rec.id, { status: "done", score: 0.5, payload: { k: 1 } });
    expect(await getRecord(rec.id)).toMatchObject({ status: "done", score: 0.5, payload: { k: 1 } });
  });

  it("starts every test on an empty database", async () => {
    const { listRecords } = await import("../src/server/repo");
    expect(await listRecords()).toEqual([]);
  });
});

describe("processItem", () => {
  beforeEach(setup);
  afterEach(teardown);

  it("enriches and persists", async () => {
    const { createRecord } = await import("../src/server/repo");
    const { processItem } = await import("../src/server/index");
    const rec = await createRecord({ name: "alpha", tags: ["news"] });
    const res = await processItem(rec.id);
    expect(res.enriched).toBe(true);
    expect(res.record.status).toBe("processed");
    expect(res.record.score).toBeTypeOf("number");
  });

  it("with skip, persists without a score", async () => {
    const { createRecord } = await import("../src/server/repo");
    const { processItem } = await import("../src/server/index");
    const rec = await createRecord({ name: "alpha", tags: ["news"] });
    const res = await processItem(rec.id, { skip: true });
    expect(res.enriched).toBe(false);
    expect(res.record).toMatchObject({ status: "processed", score: null });
  });
});

describe("runPipeline", () => {
  beforeEach(setup);
  afterEach(teardown);

  it("processes the queued records", async () => {
    const { createRecord, updateRecord, listRecords } = await import("../src/server/repo");
    const { runPipeline } = await import("../src/server/index");
    const { readLegacy } = await import("../src/server/legacy/records");
    const a = await createRecord({ name: "a" });
    await createRecord({ name: "b" });
    await updateRecord(a.id, { status: "queued" });
    expect(await runPipeline({ quiet: true })).toEqual({ processed: 1, enriched: 1 });
    expect((await listRecords("processed")).map((r) => r.id)).toEqual([a.id]);
    expect(readLegacy(a.id)).toEqual({ id: a.id, label: "a", dirty: false });
  });
});
