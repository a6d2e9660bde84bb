import { clamp, toCents } from "utils/math"; // baseUrl
import { label, pad, centered } from "@shared/strings"; // paths wildcard
import { loadConfig } from "@config"; // exact paths mapping
import { handleQuote } from "@app/handlers"; // paths, first fallback
import { validateQuote } from "@app/schema"; // paths, second fallback (generated/)
import route from "@app/routes"; // paths + index probing, default import of an arrow
import * as math from "~/utils/math"; // catch-all paths prefix, namespace import

export function quote(input: unknown): string {
  if (!validateQuote(input)) {
    throw new Error("bad quote"); // `new` is not a call expression
  }
  const cents = clamp(toCents(input.amount), 0, 1_000_000);
  const { currency } = loadConfig();
  return `${centered(label(route("quote")), 20)} ${pad(String(handleQuote(input.amount) + math.clamp(cents, 0, 10)), 8)} ${currency}`;
}
