// Enrichment: the EXPENSIVE call (simulated by a deterministic hash loop, no network).
import type { RecordRow } from "./repo";
import type { Settings } from "./settings";

export interface Enrichment {
  score: number;
  rounds: number;
}

export async function enrichItem(
  record: Pick<RecordRow, "id" | "name" | "tags">,
  settings: Settings,
): Promise<Enrichment> {
  // FNV-1a over the record, `settings.rounds` times: stands in for a slow remote model call.
  let h = 0x811c9dc5;
  const input = `${record.id}:${record.name}:${record.tags.join(",")}`;
  for (let r = 0; r < settings.rounds; r++) {
    for (let i = 0; i < input.length; i++) {
      h ^= input.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  await Promise.resolve();
  return { score: (h % 1000) / 1000, rounds: settings.rounds };
}
