// Issue 29's misses: a Record<...> return type (sync), and a declared
// `T | undefined` whose object shape a mock may miss.
const table: Record<string, number> = { max: 3 };

export function loadLimits(): Record<string, number> {
  return Object.fromEntries(Object.entries(table));
}

export interface Item {
  id: number;
  name: string;
}

const items: Item[] = [{ id: 1, name: "one" }];

export function findItem(id: number): Item | undefined {
  return items.find((i) => i.id === id);
}

export function findOrNull(id: number): Item | null {
  return items.find((i) => i.id === id) ?? null;
}
