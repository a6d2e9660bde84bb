// A text bar chart (the part of a summary a compact report leaves out).

export function renderChart(counts: Record<string, number>): string {
  return Object.keys(counts)
    .sort()
    .map((k) => `${k.padEnd(10)} ${"#".repeat(counts[k]!)}`)
    .join("\n");
}
