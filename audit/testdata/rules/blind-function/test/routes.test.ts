import { expect, it, vi } from "vitest";
import { route } from "../src/routes";

vi.mock("../src/orders", () => ({ finalizeOrder: vi.fn(() => 7) }));

it("routes", () => {
  expect(route(1)).toBe(7);
});
