import { describe, expect, it } from "vitest";
import { add } from "../src/math";

describe("add", () => {
  it("adds", () => {
    expect(add(1, 2)).toBe(3);
  });

  it("is a placeholder", () => { // want "constant-assertion"
    expect(true).toBe(true);
  });

  it("never matches", () => {
    expect(add(1, 2)); // want "missing-matcher"
  });

  it.only("runs alone", () => { // want "only"
    expect(add(2, 2)).toBe(4);
  });

  it("compares a value with itself", () => {
    const sum = add(1, 1);
    expect(sum).toBe(sum); // want "self-comparison"
  });

  it("swallows its failure", () => {
    try { // want "swallowed-assertion"
      expect(add(1, 1)).toBe(3);
    } catch {
      // nothing
    }
  });
});
