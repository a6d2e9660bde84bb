import type { Item } from "./types";

// Default export with a name: imported as `import enrichItem from "./enrich"`.
export default async function enrichItem(item: Item): Promise<Item> {
  return { ...item, tags: [...item.tags, "enriched"] };
}
