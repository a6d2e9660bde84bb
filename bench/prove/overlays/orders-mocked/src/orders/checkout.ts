// Checkout: prices an open order, stores the total, records the event, and mails the receipt.
import { getOrder, recordEvent, updateOrder, type OrderRow } from "./repo";

export interface CheckoutResult {
  order: OrderRow;
  receipt: string | null;
}

/**
 * Checks out order `id`. PROJ-310: with `opts.quiet`, no receipt is mailed; the total, the
 * status and the event are still written.
 */
export async function checkout(id: number, opts: { quiet?: boolean; discount?: number } = {}): Promise<CheckoutResult> {
  const order = await getOrder(id);
  if (!order || order.status !== "open") throw new Error(`order ${id} is not open`);
  const { priceLines } = await import("@app/orders/pricing");
  const total = priceLines(order.lines, opts.discount ?? 0);
  const saved = await updateOrder(id, { status: "paid", total });
  await recordEvent(id, "paid");
  let receipt: string | null = null;
  if (!opts.quiet) {
    const { sendReceipt } = await import("./mailer");
    receipt = await sendReceipt(saved);
  }
  return { order: saved, receipt };
}
