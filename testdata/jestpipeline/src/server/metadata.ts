// Metadata extracted from a record. Stateless.
import type { RecordRow } from "./repo";
import { slugify } from "./text";

export interface Metadata {
  slug: string;
  tags: string[];
}

// A module-local helper: extractMetadata calls it through its LOCAL binding, so neither a
// module mock nor an export spy can intercept that call (PROJ-150 expects an error for it).
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t !== ""))].sort();
}

export function extractMetadata(
  record: Pick<RecordRow, "name" | "tags">,
  opts: { raw?: boolean } = {},
): Metadata {
  const slug = slugify(record.name);
  let tags = [...record.tags];
  if (!opts.raw) {
    tags = normalizeTags(tags);
  }
  return { slug, tags };
}
