// The daily summary report. No test fixture stands this module up (PROJ-150: SKIP).
import type { RecordRow } from "../server/repo";
import { renderChart } from "./chart";
import { countByStatus } from "./stats";

export interface Summary {
  total: number;
  counts: Record<string, number>;
  chart: string | null;
}

export function buildSummary(
  records: readonly Pick<RecordRow, "status">[],
  opts: { compact?: boolean } = {},
): Summary {
  const counts = countByStatus(records);
  const summary: Summary = { total: records.length, counts, chart: null };
  if (!opts.compact) {
    summary.chart = renderChart(counts);
  }
  return summary;
}
