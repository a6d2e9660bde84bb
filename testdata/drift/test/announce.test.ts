import { describe, expect, it, vi } from "vitest";
import { announce } from "../src/deploy/announce";

// A package's mock stays: no row.
vi.mock("node:os", () => ({ hostname: () => "ci" }));
vi.mock("../src/actions/notify", () => ({
  notify: async () => ({ sent: true }),
}));

describe("announce", () => {
  it("says the message went out", async () => {
    expect(await announce("1.4.2")).toBe(true);
  });
});
