import type { Item } from "./types";

const rows = new Map<number, Item>();

// The `updateRecord` that server/index.ts imports (legacy/repo.ts defines another one).
export async function updateRecord(item: Item): Promise<Item> {
  rows.set(item.id, item);
  return item;
}

export async function createRecord(fields: Omit<Item, "id">): Promise<Item> {
  const item = { ...fields, id: nextId() };
  return updateRecord(item);
}

export async function getRecord(id: number): Promise<Item | undefined> {
  return rows.get(id);
}

// Not exported: calls to it from this module are local.
function nextId(): number {
  return rows.size + 1;
}
