// "@app/handlers": the FIRST fallback of "@app/*" (src/app/handlers.ts) exists.
export function handleQuote(amount: string): number {
  return amount.length;
}
