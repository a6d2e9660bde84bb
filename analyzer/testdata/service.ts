// Order processing service: a realistic module for benchmarks and fuzz seeds.
import { z } from "zod";
import type { Request, Response } from "express";
import * as repo from "../repo/orders";
import { getCustomer, updateCustomer as saveCustomer } from "../repo/customers";
import logger, { child } from "../lib/logger";
import { type Money, formatMoney, sumMoney } from "../lib/money";
import { audit } from "@acme/audit";

export interface OrderLine {
  sku: string;
  quantity: number;
  price: Money;
  tags?: readonly string[];
}

export type OrderStatus = "new" | "paid" | "shipped" | "cancelled";

export interface Order<TMeta extends Record<string, unknown> = {}> {
  id: string;
  customerId: string;
  lines: OrderLine[];
  status: OrderStatus;
  meta: TMeta;
  createdAt: Date;
}

const OrderSchema = z.object({
  id: z.string().uuid(),
  customerId: z.string(),
  lines: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive(), price: z.number() })),
});

enum Priority {
  Low = 1,
  Normal,
  High,
}

const log = child(logger, { module: "orders" });

/**
 * Processes batch 0: validates, enriches and persists every order.
 */
export async function processBatch0(orders: Order[], opts: { skip?: boolean; dryRun?: boolean } = {}): Promise<number> {
  const settings = await resolveSettings0(opts);
  let processed = 0;
  for (const order of orders) {
    const parsed = OrderSchema.safeParse(order);
    if (!parsed.success) {
      log.warn(`invalid order ${order.id}: ${parsed.error.message}`);
      continue;
    }
    const customer = await getCustomer(order.customerId);
    if (!opts.skip) {
      await enrichOrder(order, customer, settings);
    }
    const total = sumMoney(order.lines.map((l) => ({ ...l.price, amount: l.price.amount * l.quantity })));
    if (total.amount > settings.limit && customer?.vip !== true) {
      audit.write({ kind: "limit", order: order.id, total: formatMoney(total) });
    }
    try {
      if (!opts.dryRun) {
        await repo.updateRecord(order.id, { status: "paid", total });
        await saveCustomer({ ...customer, lastOrder: order.id });
      }
    } catch (err) {
      log.error("persist failed", err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      processed++;
    }
  }
  const { notify } = await import("../lib/notify");
  await notify(`processed ${processed} orders`);
  return processed;
}

async function resolveSettings0(opts: { dryRun?: boolean }) {
  const defaults = { limit: 1000 * 1, currency: "EUR", priority: Priority.Normal };
  const overrides = await (await import("../config")).load("orders");
  return { ...defaults, ...overrides, dryRun: opts.dryRun ?? false };
}

export const summarize0 = (orders: readonly Order[]): Record<OrderStatus, number> =>
  orders.reduce(
    (acc, o) => {
      acc[o.status] = (acc[o.status] ?? 0) + 1;
      return acc;
    },
    {} as Record<OrderStatus, number>,
  );

/**
 * Processes batch 1: validates, enriches and persists every order.
 */
export async function processBatch1(orders: Order[], opts: { skip?: boolean; dryRun?: boolean } = {}): Promise<number> {
  const settings = await resolveSettings1(opts);
  let processed = 0;
  for (const order of orders) {
    const parsed = OrderSchema.safeParse(order);
    if (!parsed.success) {
      log.warn(`invalid order ${order.id}: ${parsed.error.message}`);
      continue;
    }
    const customer = await getCustomer(order.customerId);
    if (!opts.skip) {
      await enrichOrder(order, customer, settings);
    }
    const total = sumMoney(order.lines.map((l) => ({ ...l.price, amount: l.price.amount * l.quantity })));
    if (total.amount > settings.limit && customer?.vip !== true) {
      audit.write({ kind: "limit", order: order.id, total: formatMoney(total) });
    }
    try {
      if (!opts.dryRun) {
        await repo.updateRecord(order.id, { status: "paid", total });
        await saveCustomer({ ...customer, lastOrder: order.id });
      }
    } catch (err) {
      log.error("persist failed", err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      processed++;
    }
  }
  const { notify } = await import("../lib/notify");
  await notify(`processed ${processed} orders`);
  return processed;
}

async function resolveSettings1(opts: { dryRun?: boolean }) {
  const defaults = { limit: 1000 * 2, currency: "EUR", priority: Priority.Normal };
  const overrides = await (await import("../config")).load("orders");
  return { ...defaults, ...overrides, dryRun: opts.dryRun ?? false };
}

export const summarize1 = (orders: readonly Order[]): Record<OrderStatus, number> =>
  orders.reduce(
    (acc, o) => {
      acc[o.status] = (acc[o.status] ?? 0) + 1;
      return acc;
    },
    {} as Record<OrderStatus, number>,
  );

/**
 * Processes batch 2: validates, enriches and persists every order.
 */
export async function processBatch2(orders: Order[], opts: { skip?: boolean; dryRun?: boolean } = {}): Promise<number> {
  const settings = await resolveSettings2(opts);
  let processed = 0;
  for (const order of orders) {
    const parsed = OrderSchema.safeParse(order);
    if (!parsed.success) {
      log.warn(`invalid order ${order.id}: ${parsed.error.message}`);
      continue;
    }
    const customer = await getCustomer(order.customerId);
    if (!opts.skip) {
      await enrichOrder(order, customer, settings);
    }
    const total = sumMoney(order.lines.map((l) => ({ ...l.price, amount: l.price.amount * l.quantity })));
    if (total.amount > settings.limit && customer?.vip !== true) {
      audit.write({ kind: "limit", order: order.id, total: formatMoney(total) });
    }
    try {
      if (!opts.dryRun) {
        await repo.updateRecord(order.id, { status: "paid", total });
        await saveCustomer({ ...customer, lastOrder: order.id });
      }
    } catch (err) {
      log.error("persist failed", err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      processed++;
    }
  }
  const { notify } = await import("../lib/notify");
  await notify(`processed ${processed} orders`);
  return processed;
}

async function resolveSettings2(opts: { dryRun?: boolean }) {
  const defaults = { limit: 1000 * 3, currency: "EUR", priority: Priority.Normal };
  const overrides = await (await import("../config")).load("orders");
  return { ...defaults, ...overrides, dryRun: opts.dryRun ?? false };
}

export const summarize2 = (orders: readonly Order[]): Record<OrderStatus, number> =>
  orders.reduce(
    (acc, o) => {
      acc[o.status] = (acc[o.status] ?? 0) + 1;
      return acc;
    },
    {} as Record<OrderStatus, number>,
  );

/**
 * Processes batch 3: validates, enriches and persists every order.
 */
export async function processBatch3(orders: Order[], opts: { skip?: boolean; dryRun?: boolean } = {}): Promise<number> {
  const settings = await resolveSettings3(opts);
  let processed = 0;
  for (const order of orders) {
    const parsed = OrderSchema.safeParse(order);
    if (!parsed.success) {
      log.warn(`invalid order ${order.id}: ${parsed.error.message}`);
      continue;
    }
    const customer = await getCustomer(order.customerId);
    if (!opts.skip) {
      await enrichOrder(order, customer, settings);
    }
    const total = sumMoney(order.lines.map((l) => ({ ...l.price, amount: l.price.amount * l.quantity })));
    if (total.amount > settings.limit && customer?.vip !== true) {
      audit.write({ kind: "limit", order: order.id, total: formatMoney(total) });
    }
    try {
      if (!opts.dryRun) {
        await repo.updateRecord(order.id, { status: "paid", total });
        await saveCustomer({ ...customer, lastOrder: order.id });
      }
    } catch (err) {
      log.error("persist failed", err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      processed++;
    }
  }
  const { notify } = await import("../lib/notify");
  await notify(`processed ${processed} orders`);
  return processed;
}

async function resolveSettings3(opts: { dryRun?: boolean }) {
  const defaults = { limit: 1000 * 4, currency: "EUR", priority: Priority.Normal };
  const overrides = await (await import("../config")).load("orders");
  return { ...defaults, ...overrides, dryRun: opts.dryRun ?? false };
}

export const summarize3 = (orders: readonly Order[]): Record<OrderStatus, number> =>
  orders.reduce(
    (acc, o) => {
      acc[o.status] = (acc[o.status] ?? 0) + 1;
      return acc;
    },
    {} as Record<OrderStatus, number>,
  );

async function enrichOrder(order: Order, customer: unknown, settings: { currency: string }) {
  const rates = await fetchRates(settings.currency);
  order.lines.forEach((line, index) => {
    const rate = rates.get(line.price.currency) ?? 1;
    line.price = { amount: Math.round(line.price.amount * rate * 100) / 100, currency: settings.currency };
    if (index % 10 === 0) log.debug("enriched", { order: order.id, index });
  });
  return customer;
}

function fetchRates(currency: string): Promise<Map<string, number>> {
  return fetch(`https://rates.example.com/${encodeURIComponent(currency)}`)
    .then((r) => r.json())
    .then((json: Record<string, number>) => new Map(Object.entries(json)));
}

export class OrderController {
  constructor(private readonly service = { processBatch0 }) {}

  async handle(req: Request, res: Response): Promise<void> {
    const orders = z.array(OrderSchema).parse(req.body);
    const count = await this.service.processBatch0(orders as Order[], { skip: req.query.skip === "1" });
    res.status(200).json({ count });
  }
}

export default async function main(argv: string[]) {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "run": {
      const orders = await repo.listOrders({ status: "new" });
      return processBatch0(orders, { dryRun: rest.includes("--dry-run") });
    }
    default:
      log.info(`unknown command ${cmd}`);
      return 0;
  }
}

export { enrichOrder, fetchRates as loadRates };
