import { describe, expect, it, vi } from "vitest";
import { canDeploy } from "../src/deploy/gate";

vi.mock("../src/actions/count", { spy: true });

describe("spied", () => {
  it("runs the real producer", async () => {
    expect(typeof (await canDeploy([1]))).toBe("boolean");
  });
});
