// The repository's own test: a record written is read back.
import { setup, teardown } from "./fixtures/pipeline.fixture";

beforeEach(setup);
afterEach(teardown);

it("reads back what it writes", async () => {
  const { createRecord, getRecord, updateRecord } = await import("../src/server/repo");
  const rec = await createRecord({ name: "a", tags: ["x"] });
  await updateRecord(rec.id, { status: "queued", score: 0.5 });
  expect(await getRecord(rec.id)).toMatchObject({ id: rec.id, status: "queued", score: 0.5, tags: ["x"] });
});
