// Money helpers, reached through the @shared/* path alias.
export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

export function sumLines(lines: readonly { qty: number; price: number }[]): number {
  return roundCents(lines.reduce((acc, l) => acc + l.qty * l.price, 0));
}
