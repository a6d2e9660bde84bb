// Reached as "utils/math" through `baseUrl`, and as "~/utils/math" through `paths`.
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

// Overloads: one function, three declarations; only the implementation has a body.
export function toCents(value: string): number;
export function toCents(value: number): number;
export function toCents(value: string | number): number {
  return Math.round(Number(value) * 100);
}
