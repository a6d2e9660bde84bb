// Scoping traps: which declaration does each call name?
import type { Item, Settings } from "./types";
import { resolveSettings } from "./settings";
import { updateRecord } from "./repo";
import * as audit from "./audit";

// Hoisting: the nested function declaration shadows the import for the WHOLE body,
// including the call that comes before it in the source (nested).
export function settingsFor(region: string): Settings {
  const settings = resolveSettings(region);
  return settings;

  function resolveSettings(r: string): Settings {
    return { region: r, dryRun: true };
  }
}

// Block scope: the const shadows the import only inside the `if` block.
export async function auditedUpdate(item: Item): Promise<Item> {
  if (item.id < 0) {
    const updateRecord = async (record: Item): Promise<Item> => record;
    return updateRecord(item); // nested
  }
  return updateRecord(item); // the import
}

// `.call` is a method of Function (lib), not a call of the import itself (external);
// an element access with a string literal names the export (namespace).
export async function replay(items: Item[]): Promise<void> {
  for (const item of items) {
    await updateRecord.call(undefined, item);
    audit["write"]("replayed", item.id);
  }
}
