// Counting helpers for reports. Stateless.
import type { RecordRow } from "../server/repo";

export function countByStatus(records: readonly Pick<RecordRow, "status">[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
