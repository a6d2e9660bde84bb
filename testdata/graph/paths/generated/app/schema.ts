// "@app/schema": only the SECOND fallback of "@app/*" (generated/app/schema.ts) exists.
export function validateQuote(input: unknown): input is { amount: string } {
  return typeof input === "object" && input !== null && "amount" in input;
}
