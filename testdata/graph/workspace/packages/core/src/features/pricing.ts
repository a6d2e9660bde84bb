// @acme/core/features/pricing (subpath pattern "./features/*").
import { rateFor } from "./internal/rates.js";

export function priceOf(cents: number, region: string): number {
  return Math.round(cents * (1 + rateFor(region)));
}
