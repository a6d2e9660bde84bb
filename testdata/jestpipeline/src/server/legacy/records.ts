// The legacy record cache the v1 API still reads. Its `updateRecord` has NOTHING to do with
// the repository write of the same name in ../repo.ts: it only patches an in-memory entry.
// A resolver that matches calls by name finds two `updateRecord`s; the one processItem calls
// is the one it imports (../repo.ts).

export interface LegacyEntry {
  id: number;
  label: string;
  dirty: boolean;
}

const cache = new Map<number, LegacyEntry>();

export function updateRecord(id: number, patch: Partial<Omit<LegacyEntry, "id">>): LegacyEntry {
  const next: LegacyEntry = { id, label: "", dirty: false, ...cache.get(id), ...patch };
  cache.set(id, next);
  return next;
}

export function readLegacy(id: number): LegacyEntry | undefined {
  return cache.get(id);
}

export function clearLegacy(): void {
  cache.clear();
}
