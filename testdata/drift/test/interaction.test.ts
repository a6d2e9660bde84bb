import { describe, expect, it, vi } from "vitest";
import { countRows } from "../src/actions/count";
import { canDeploy } from "../src/deploy/gate";

vi.mock("../src/actions/count");

describe("canDeploy asks the producer", () => {
  it("passes the rows on", async () => {
    vi.mocked(countRows).mockResolvedValue({ success: true, details: { passed: true, count: 1 } });
    await canDeploy([7]);
    expect(countRows).toHaveBeenCalledWith([7]);
  });
});
