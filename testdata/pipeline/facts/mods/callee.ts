export function work(): string {
  return "real";
}
