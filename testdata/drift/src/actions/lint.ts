// lintRows checks the rows: its verdict is under report.
export function lintRows(rows: number[]): { report: { ok: boolean }; count: number } {
  return { report: { ok: rows.every((r) => Number.isInteger(r)) }, count: rows.length };
}
