// A generated twin of src/app/handlers.ts. "@app/handlers" resolves to the FIRST fallback
// that exists (src/app/handlers.ts), so nothing resolves to this file.
export function handleQuote(amount: string): number {
  return -amount.length;
}
