// The expensive part: a pricing engine that would call a remote quote service.
import { roundCents } from "@shared/money";
import type { OrderRow } from "./repository";

export class PricingEngine {
  calls = 0;

  constructor(private readonly surcharge = 0.05) {}

  /** A quote for the order (remote and slow in production). */
  async quote(order: OrderRow): Promise<number> {
    this.calls++;
    const base = order.lines.reduce((acc, l) => acc + l.qty * l.price, 0);
    return roundCents(base * (1 + this.surcharge));
  }
}
