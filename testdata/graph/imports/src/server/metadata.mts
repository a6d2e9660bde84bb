import type { Item } from "./types";

// An ES module file (.mts), imported as "./metadata.mjs".
export function extractMetadata(item: Item): Record<string, string> {
  return { ...item.meta, name: normalizeName(item.name) };
}

const normalizeName = function (name: string): string {
  return name.trim().toLowerCase();
};
