import type { Item } from "./types";
import { updateRecord } from "./repo";

// Imported under another name: `import { saveRecord as persist } from "./persist"`.
export async function saveRecord(item: Item): Promise<Item> {
  return updateRecord(item);
}
