// A route test in the style of this codebase: it stubs the WHOLE pipeline module, on purpose
// (route tests verify wiring, not business logic). The real processItem never runs here, so
// this suite stays green when the PROJ-142 guard is deleted, or when the guard swallows
// updateRecord too. That blindness is what the behavioral oracle exists to fix.
import { processItem } from "@server/index";
import { handleProcessItem } from "../src/server/routes";

jest.mock("@server/index", () => ({
  processItem: jest.fn().mockResolvedValue({ ok: true }),
  runPipeline: jest.fn().mockResolvedValue({ processed: 0, enriched: 0 }),
  resetStats: jest.fn(),
  stats: { processed: 0, enriched: 0 },
}));

describe("POST /items/:id/process", () => {
  beforeEach(() => {
    jest.mocked(processItem).mockClear();
  });

  it("threads ?skip=true to the pipeline", async () => {
    const res = await handleProcessItem({ params: { id: "7" }, query: { skip: "true" } });
    expect(res).toEqual({ status: 200, body: { ok: true } });
    expect(processItem).toHaveBeenCalledWith(7, { skip: true });
  });

  it("threads a missing skip as skip: false", async () => {
    await handleProcessItem({ params: { id: "7" }, query: {} });
    expect(processItem).toHaveBeenCalledWith(7, { skip: false });
  });

  it("rejects a bad id without calling the pipeline", async () => {
    const res = await handleProcessItem({ params: { id: "x" }, query: {} });
    expect(res.status).toBe(400);
    expect(processItem).not.toHaveBeenCalled();
  });
});
