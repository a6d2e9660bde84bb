// A controller test in the style of this codebase: it mocks the WHOLE service module, so the
// real OrderService never runs here. It stays green when the PROJ-201 guard is deleted, or
// when the guard swallows the write too: the blindness `oracle audit` reports and the
// behavioral oracle fixes.
import { describe, expect, it, vi } from "vitest";
import { OrderController } from "../src/orders/controller";
import { OrderService } from "../src/orders/service";

vi.mock("../src/orders/service", () => ({
  OrderService: class {
    finalize = vi.fn().mockResolvedValue({ order: { id: 7 }, quoted: false });
    cancel = vi.fn().mockResolvedValue({ id: 7, status: "cancelled" });
  },
}));

function controller() {
  const service = new (OrderService as unknown as new () => OrderService)();
  return { service, controller: new OrderController(service) };
}

describe("POST /orders/:id/finalize", () => {
  it("threads ?quote=skip to the service", async () => {
    const { service, controller: c } = controller();
    const res = await c.finalize({ params: { id: "7" }, query: { quote: "skip" } });
    expect(res).toEqual({ status: 200, body: { id: 7, quoted: false } });
    expect(service.finalize).toHaveBeenCalledWith(7, { skipQuote: true });
  });

  it("rejects a bad id without calling the service", async () => {
    const { service, controller: c } = controller();
    const res = await c.finalize({ params: { id: "x" }, query: {} });
    expect(res.status).toBe(400);
    expect(service.finalize).not.toHaveBeenCalled();
  });
});

describe("POST /orders/:id/cancel", () => {
  it("threads ?silent=true to the service", async () => {
    const { service, controller: c } = controller();
    const res = await c.cancel({ params: { id: "7" }, query: { silent: "true" } });
    expect(res).toEqual({ status: 200, body: { id: 7, status: "cancelled" } });
    expect(service.cancel).toHaveBeenCalledWith(7, { silent: true });
  });
});
