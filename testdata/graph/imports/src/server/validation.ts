import { z } from "zod"; // external package (stub under node_modules/zod)
import type { Item } from "./types"; // type-only import

const itemSchema = z.object({ id: z.number().int(), name: z.string().min(1) }); // module-load calls (not in a function)

export function parseItem(input: unknown): Pick<Item, "id" | "name"> {
  const parsed = itemSchema.parse(input); // member of an external type
  return { id: parsed.id, name: z.string().parse(parsed.name) };
}

// A module-level object of handlers: calls through it are members, not imports.
const handlers = {
  check: (input: unknown): boolean => typeof input === "object",
};

export function isItemLike(input: unknown): boolean {
  return handlers.check(input) && JSON.stringify(input).length > 2;
}
