import { expect, it, vi } from "vitest";
import { Geo } from "../src/geo";
import { connect } from "../src/db";

vi.mock("../src/db", async () => {
  const { buildConfig } = await import("../src/config");
  return { connect: () => buildConfig().url };
});

it("geo", () => {
  expect(Geo.near(1, 2)).toBe(true);
  expect(connect()).toBe("x");
});
