// The pipeline module.
import { selectTargets } from "@server/targets";
import * as legacyCache from "./legacy/records";
import { notify } from "./notify";
import { getRecord, listRecords, updateRecord, type RecordPatch, type RecordRow } from "./repo.js";
import { enrichItem, extractMetadata, resolveSettings } from "./services";

export interface ProcessResult {
  ok: true;
  id: number;
  enriched: boolean;
  record: RecordRow;
}

export interface PipelineStats {
  processed: number;
  enriched: number;
}

export const stats: PipelineStats = { processed: 0, enriched: 0 };

export function resetStats(): void {
  stats.processed = 0;
  stats.enriched = 0;
}

/**
 * Processes one record: fans it out, enriches it (expensive) unless `opts.skip` is set, and
 * persists the result. PROJ-142: with `skip`, ONLY the enrichment is skipped; targets,
 * settings, metadata and the write still happen.
 */
export async function processItem(id: number, opts: { skip?: boolean } = {}): Promise<ProcessResult> {
  const record = await getRecord(id);
  if (!record) throw new Error(`record ${id} not found`);
  const targets = selectTargets(record);
  const settings = resolveSettings(targets);
  const metadata = extractMetadata(record);
  const patch: RecordPatch = {
    status: "processed",
    score: null,
    payload: { targets, profile: settings.profile, metadata },
  };
  if (!opts.skip) {
    patch.score = (await enrichItem(record, settings)).score;
  }
  const saved = await updateRecord(id, patch);
  stats.processed++;
  if (saved.score !== null) stats.enriched++;
  return { ok: true, id, enriched: saved.score !== null, record: saved };
}

/** Processes every queued record and refreshes the legacy cache. */
export async function runPipeline(opts: { quiet?: boolean } = {}): Promise<PipelineStats> {
  const queued = await listRecords("queued");
  for (const record of queued) {
    const result = await processItem(record.id);
    legacyCache.updateRecord(record.id, { label: result.record.name, dirty: false });
  }
  if (!opts.quiet) {
    notify(`pipeline: ${queued.length} processed`);
  }
  return { ...stats };
}
