import { describe, expect, it, vi } from "vitest";
import { describeRun } from "../src/deploy/gate";

// Pins a constant: no component boundary.
vi.mock("../src/config/version", () => ({ VERSION: "0.0.0-test" }));

describe("describeRun names the version", () => {
  it("uses the pinned version", async () => {
    expect(await describeRun([1])).toBe("v0.0.0-test: 1 of 1 rows");
  });

  it.skip("names the commit", () => {
    expect(describeRun).toBeDefined();
  });

  it("is vacuous", () => {
    expect(true).toBe(true);
  });
});
