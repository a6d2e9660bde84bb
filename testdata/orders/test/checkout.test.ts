import { afterEach, beforeEach, expect, it } from "vitest";
import { arrange, setup, teardown } from "./fixtures/orders.fixture";

beforeEach(setup);
afterEach(teardown);

it("checks out an open order", async () => {
  const [id] = await arrange.checkout();
  const { checkout } = await import("../src/orders/checkout");
  const { listEvents } = await import("../src/orders/repo");
  const res = await checkout(id);
  expect(res.order.status).toBe("paid");
  expect(res.order.total).toBe(7);
  expect(await listEvents(id)).toEqual(["paid"]);
});
