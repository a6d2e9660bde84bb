import { expect, it, vi } from "vitest";
import { findItem, findOrNull, loadLimits } from "../src/limits";

vi.mock("../src/limits", () => ({
  loadLimits: vi.fn(),
  findItem: vi.fn(),
  findOrNull: vi.fn(),
}));

it("reads the limits and the items", async () => {
  vi.mocked(loadLimits).mockResolvedValue({ max: 1 }); // want "async"
  vi.mocked(loadLimits).mockReturnValue({ max: 1 });
  vi.mocked(findItem).mockReturnValue({ title: "x" } as never); // want "shape"
  vi.mocked(findItem).mockReturnValue({ id: 2, name: "two" });
  vi.mocked(findItem).mockReturnValue(undefined);
  vi.mocked(findOrNull).mockReturnValue({ label: "y" } as never); // want "shape"
  expect(findItem(2)?.name).toBe("two");
});
