// The hand-written statement of what `oracle gen tickets/PROJ-201.yaml` should emit for a
// method (issue 12): the fixture builds the receiver; collaborators reached as
// `this.dep.m()` are observed with call-through spies on the instance the receiver holds;
// `this.audit()` (a method of the class, inherited) with a spy on the receiver itself.
//
// function: src/orders/service.ts#OrderService.finalize
// flag:     opts.skipQuote (parameter 2 of 2)
// wrap:     this.pricing.quote
// preserve: this.orders.findById, this.orders.updateRecord, this.mailer.send, this.audit
// fixture:  orders (test/fixtures/orders.fixture.ts): setup, teardown, arrange["OrderService.finalize"]
//
// Observed calls (call-through):
//   this.pricing.quote         -> src/orders/pricing.ts#PricingEngine.quote            in-place-spy on self.pricing (constructor parameter property)
//   this.orders.findById       -> src/orders/repository.ts#OrderRepository.findById    in-place-spy on self.orders
//   this.orders.updateRecord   -> src/orders/repository.ts#OrderRepository.updateRecord in-place-spy on self.orders
//   this.mailer.send           -> src/mail/mailer.ts#Mailer.send (interface)            in-place-spy on self.mailer
//   this.audit                 -> src/orders/base.ts#BaseService.audit                  in-place-spy on self
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { OrderService } from "../src/orders/service";
import { arrange, setup, teardown } from "../test/fixtures/orders.fixture";

type Self = OrderService;
type Fn = (...a: never[]) => unknown;
// Private and protected members are reached the way TypeScript allows: element access.
let self: Self;
let args: Parameters<Self["finalize"]>;
let quote: MockInstance<Fn>;
let findById: MockInstance<Fn>;
let updateRecord: MockInstance<Fn>;
let send: MockInstance<Fn>;
let audit: MockInstance<Fn>;

beforeEach(async () => {
  await setup();
  ({ self, args } = await arrange["OrderService.finalize"]());
  quote = vi.spyOn(self["pricing"], "quote") as unknown as MockInstance<Fn>;
  findById = vi.spyOn(self["orders"], "findById") as unknown as MockInstance<Fn>;
  updateRecord = vi.spyOn(self["orders"], "updateRecord") as unknown as MockInstance<Fn>;
  send = vi.spyOn(self["mailer"], "send") as unknown as MockInstance<Fn>;
  audit = vi.spyOn(self as unknown as { audit: (event: string) => void }, "audit") as unknown as MockInstance<Fn>;
});

afterEach(async () => {
  vi.restoreAllMocks();
  await teardown();
});

describe("PROJ-201 skip-quote: OrderService.finalize with opts.skipQuote", () => {
  it("flag set: this.pricing.quote is not called; findById, updateRecord, send, audit still are", async () => {
    args[1] = { ...args[1], skipQuote: true };
    await self.finalize(...args);
    expect(quote).not.toHaveBeenCalled();
    expect(findById).toHaveBeenCalled();
    expect(updateRecord).toHaveBeenCalled();
    expect(send).toHaveBeenCalled();
    expect(audit).toHaveBeenCalled();
  });

  it("flag unset: this.pricing.quote is called", async () => {
    args[1] = { ...args[1], skipQuote: false };
    await self.finalize(...args);
    expect(quote).toHaveBeenCalled();
  });
});
