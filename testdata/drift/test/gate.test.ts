import { describe, expect, it, vi } from "vitest";
import { canDeploy } from "../src/deploy/gate";

vi.mock("../src/actions/count", () => ({
  countRows: async () => ({ passed: true }),
}));

describe("canDeploy", () => {
  it("deploys when every row passed", async () => {
    expect(await canDeploy([1, 2, 3])).toBe(true);
  });
});
