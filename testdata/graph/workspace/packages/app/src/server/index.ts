import { updateRecord, createRecord, events, checksumHex, type Item } from "@acme/core"; // exports ".": import -> source
import { subscribe, emit as publish } from "@acme/core/sub"; // exports "./sub" (aliased import)
import { priceOf } from "@acme/core/features/pricing"; // subpath pattern "./features/*"
import { migrate } from "@acme/legacy"; // no exports: `types`
import * as util from "@acme/util"; // no exports, no types: `main` (.js -> .ts)
import { resolveSettings } from "./settings.js"; // relative, `.js` -> settings.ts

export async function processItem(id: number, opts: { skip?: boolean }): Promise<Item> {
  const settings = resolveSettings();
  subscribe((event) => console.info(event));
  const item = await createRecord(`item-${id}`);
  const price = priceOf(1000, settings.region);
  if (!opts.skip) {
    publish(`priced:${price}:${checksumHex(item.name)}`);
  }
  events.emit("updated"); // `export * as events` from the package root
  migrate(id);
  return util.retry(() => updateRecord(item)); // @acme/core's updateRecord, not @acme/legacy's
}

// Dynamic import of a workspace subpath (ESM mode: the "import" branch of exports).
export const notifyLater = async (event: string): Promise<void> => {
  const { emit } = await import("@acme/core/sub");
  emit(event);
};
