// Pricing, loaded on demand by checkout (await import()).
import type { Line } from "./repo";

export function priceLines(lines: Line[], discount = 0): number {
  let total = 0;
  for (const line of lines) {
    total += line.qty * line.price;
  }
  return Math.round(total * (1 - discount) * 100) / 100;
}
