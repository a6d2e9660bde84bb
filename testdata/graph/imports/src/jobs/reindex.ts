export async function reindex(ids: number[]): Promise<number> {
  return ids.length;
}

export function compact(): void {}
