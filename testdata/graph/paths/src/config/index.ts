// Reached as "@config" (exact paths mapping).
export function loadConfig(): { currency: string } {
  return { currency: "EUR" };
}
