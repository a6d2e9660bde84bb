// Blocked from outside the package: exports "./features/internal/*": null.
export function rateFor(region: string): number {
  return region.startsWith("eu") ? 0.2 : 0.1;
}
