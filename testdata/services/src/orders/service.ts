// The order service: business logic over injected collaborators.
import type { Database } from "sql.js";
import { sumLines } from "@shared/money";
import type { Mailer } from "../mail/mailer";
import { BaseService } from "./base";
import type { PricingEngine } from "./pricing";
import type { OrderRepository, OrderRow } from "./repository";
import { computeStats, publishStats, type OrderStats } from "./stats";

export interface FinalizeResult {
  order: OrderRow;
  quoted: boolean;
}

export class OrderService extends BaseService {
  constructor(
    db: Database,
    private readonly orders: OrderRepository,
    private readonly mailer: Mailer,
    private readonly pricing: PricingEngine,
  ) {
    super(db, "orders");
  }

  /**
   * Finalizes an open order: totals it, asks the pricing engine for a quote (expensive)
   * unless `opts.skipQuote` is set, saves it, mails the customer and audits it.
   * PROJ-201: with skipQuote, ONLY the quote is skipped; the write, the mail and the
   * audit still happen.
   */
  async finalize(orderId: number, opts: { skipQuote?: boolean } = {}): Promise<FinalizeResult> {
    const order = await this.orders.findById(orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    if (order.status !== "open") throw new Error(`order ${orderId} is ${order.status}`);
    const total = sumLines(order.lines);
    let quote: number | null = null;
    if (!opts.skipQuote) {
      quote = await this.pricing.quote(order);
    }
    const saved = await this.orders.updateRecord(orderId, { status: "finalized", total, quote });
    await this.mailer.send({ to: order.email, subject: `Order ${orderId} finalized`, body: `Total: ${total}` });
    this.audit(`finalized ${orderId}`);
    return { order: saved, quoted: quote !== null };
  }

  /**
   * Cancels an order and tells the customer, unless `opts.silent`.
   * PROJ-203: an arrow-function field (bound: the controller passes it around as a callback).
   */
  cancel = async (orderId: number, opts: { silent?: boolean } = {}): Promise<OrderRow> => {
    const order = await this.orders.findById(orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    const saved = await this.orders.updateRecord(orderId, { status: "cancelled" });
    if (!opts.silent) {
      await this.mailer.send({ to: order.email, subject: `Order ${orderId} cancelled`, body: "" });
    }
    this.audit(`cancelled ${orderId}`);
    return saved;
  };

  /**
   * Reports on the open orders: statistics (expensive) unless `opts.countOnly`.
   * PROJ-202: a static method; its collaborators are arguments.
   */
  static async report(orders: OrderRepository, opts: { countOnly?: boolean } = {}): Promise<OrderStats> {
    const open = await orders.listOpen();
    let stats: OrderStats = { count: open.length, revenue: 0 };
    if (!opts.countOnly) {
      stats = computeStats(open);
    }
    return publishStats(stats);
  }
}
