import { expect, it, vi } from "vitest";
import { handle } from "../src/api";
import { load } from "../src/store";

vi.mock("../src/store", () => ({
  save: vi.fn(() => 1), // want "async"
  remove: vi.fn(), // want "unknown-export"
  load: vi.fn(),
}));

it("handles", async () => {
  vi.mocked(load).mockReturnValue({ content: "x" }); // want "shape"
  expect(await handle(1)).toBe("x");
});
