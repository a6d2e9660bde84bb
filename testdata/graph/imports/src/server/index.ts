import type { Item, ProcessOptions } from "./types"; // type-only import: no call, stands nothing up
import { selectTargets } from "./targets.js"; // `.js` specifier -> targets.ts
import { resolveSettings } from "./settings"; // index probing -> settings/index.ts
import { extractMetadata } from "./metadata.mjs"; // `.mjs` specifier -> metadata.mts
import enrichItem from "./enrich"; // default import (extension probing -> enrich.ts)
import { saveRecord as persist } from "./persist"; // aliased import
import * as audit from "./audit"; // namespace import
import { updateRecord } from "./repo"; // the imported updateRecord wins over legacy/repo.ts
import { legacySync } from "../legacy/compat.cjs"; // a CommonJS (.cts) module

// The function the SPEC's example manifest targets.
export async function processItem(id: number, opts: ProcessOptions): Promise<Item[]> {
  const settings = resolveSettings();
  const items = selectTargets(await loadBatch(id));
  const out: Item[] = [];
  for (const item of items) {
    const meta = extractMetadata(item);
    const enriched = opts.skip ? item : await enrichItem({ ...item, meta });
    await updateRecord(enriched);
    await persist(enriched);
    audit.write(settings.dryRun ? "dry-run" : "processed", item.id);
    out.push(enriched); // a method of a lib type: external
  }
  legacySync(id);
  return out;
}

// Non-exported local function: calls to it are `local`.
async function loadBatch(id: number): Promise<Item[]> {
  return [{ id, name: ` item-${id} `, tags: ["target"] }];
}

// Shadowing: the parameter `enrichItem` shadows the default import, so the call
// resolves to the parameter (nested), NOT to ./enrich.
export async function previewItem(item: Item, enrichItem: (i: Item) => Promise<Item>): Promise<Item> {
  return enrichItem(item);
}

// Shadowing: a local const `updateRecord` shadows the import (nested), while the
// `persist` call in the same body still resolves through the aliased import.
export const dryRun = async (item: Item): Promise<Item> => {
  const updateRecord = (record: Item): Item => ({ ...record, name: record.name });
  const result = updateRecord(item);
  await persist(result);
  return result;
};

// Nested closures: calls inside callbacks belong to the enclosing function.
export async function processAll(ids: number[]): Promise<void> {
  await Promise.all(ids.map((id) => processItem(id, { skip: false })));
  ids.forEach(function each(id) {
    audit.write("queued", id);
  });
  function finish(): void {
    audit.flush();
  }
  finish(); // a function declared inside a function: nested
}
