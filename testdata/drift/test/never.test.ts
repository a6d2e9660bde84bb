import { describe, expect, it } from "vitest";
import { describeRun } from "../src/deploy/gate";

describe("describeRun, checked on demand", () => {
  it("names the rows", async () => {
    const text = await describeRun([1]);
    if (process.env.CHECK_RUNS) {
      expect(text).toContain("1 of 1 rows");
    }
  });

  it("names the rows, always", async () => {
    expect(await describeRun([1])).toContain("1 of 1 rows");
  });
});
