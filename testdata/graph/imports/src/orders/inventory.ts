// Import cycle: inventory.ts <-> orders.ts.
import { cancelOrder } from "./orders";

const stock = new Map<string, number>();

export function reserveStock(sku: string, qty: number): boolean {
  const left = (stock.get(sku) ?? 0) - qty;
  if (left < 0) {
    cancelOrder(sku, qty);
    return false;
  }
  stock.set(sku, left);
  return true;
}

export function releaseStock(sku: string, qty: number): void {
  stock.set(sku, (stock.get(sku) ?? 0) + qty);
}
