import { describe, expect, it, vi } from "vitest";
import { describeRun } from "../src/deploy/gate";

// A producer that counted nothing: the real one counts the positive rows.
vi.mock("../src/actions/count", () => ({
  countRows: async () => ({ success: true, details: { passed: false, count: 0 } }),
}));

describe("describeRun", () => {
  it("says how many rows counted", async () => {
    expect(await describeRun([1, 2])).toBe("v1.4.2: 0 of 2 rows");
  });
});
