// The producer: an action whose payload nests the verdict under details.
export interface CountResult {
  success: boolean;
  details: { passed: boolean; count: number };
}

export async function countRows(rows: number[]): Promise<CountResult> {
  const count = rows.filter((r) => r > 0).length;
  return { success: true, details: { passed: count === rows.length, count } };
}
