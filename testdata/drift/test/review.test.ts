import { describe, expect, it, vi } from "vitest";
import { reviewRows } from "../src/deploy/review";

// The automock: src/actions/__mocks__/lint.ts stands in.
vi.mock("../src/actions/lint");

describe("reviewRows", () => {
  it("says clean rows are clean", () => {
    expect(reviewRows([1, 2])).toBe("clean");
  });
});
