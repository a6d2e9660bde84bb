import type { Item } from "./types.js";
import { nextId } from "./ids.mjs"; // an .mts file, named with `.mjs`

const rows = new Map<number, Item>();

// The `updateRecord` that @acme/app imports (through the package root barrel).
export async function updateRecord(item: Item): Promise<Item> {
  rows.set(item.id, item);
  return item;
}

export async function createRecord(name: string): Promise<Item> {
  return updateRecord({ id: nextId(), name, tags: [] });
}
