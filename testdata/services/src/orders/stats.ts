// Order statistics: expensive over a large book of orders.
import type { OrderRow } from "./repository";

export interface OrderStats {
  count: number;
  revenue: number;
}

export function computeStats(orders: readonly OrderRow[]): OrderStats {
  return { count: orders.length, revenue: orders.reduce((acc, o) => acc + o.total, 0) };
}

export function publishStats(stats: OrderStats): OrderStats {
  return { ...stats };
}
