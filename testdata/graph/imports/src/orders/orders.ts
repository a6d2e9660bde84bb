// Import cycle: orders.ts <-> inventory.ts.
import { reserveStock, releaseStock } from "./inventory";

export function placeOrder(sku: string, qty: number): boolean {
  if (!reserveStock(sku, qty)) {
    return false;
  }
  return true;
}

export function cancelOrder(sku: string, qty: number): void {
  releaseStock(sku, qty);
}
