import type { Item } from "./types";

// Imported as "./targets.js": a `.js` specifier naming a `.ts` file.
export function selectTargets(items: Item[]): Item[] {
  return items.filter((item) => item.tags.includes("target"));
}
