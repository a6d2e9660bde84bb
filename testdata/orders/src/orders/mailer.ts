// Receipts: the slow part of a checkout (a mail service in the real app).
import type { OrderRow } from "./repo";

export const sent: string[] = [];

export async function sendReceipt(order: OrderRow): Promise<string> {
  const text = `receipt for order ${order.id}: ${order.total} on ${new Date(Date.now()).toISOString().slice(0, 10)}`;
  sent.push(text);
  return text;
}
