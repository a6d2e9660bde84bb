// A second `updateRecord` with the same name as server/repo.ts#updateRecord.
// server/index.ts does not import this one; only legacy/compat.cts does.
export function updateRecord(id: number, fields: Record<string, unknown>): boolean {
  return id > 0 && Object.keys(fields).length > 0;
}

export function deleteRecord(id: number): boolean {
  return updateRecord(id, { deleted: true });
}
