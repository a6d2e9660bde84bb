// `outer` calls `helper` through its LOCAL binding (same module), like extractMetadata calls
// normalizeTags in src/server/metadata.ts.
export function helper(x: number): number {
  return x + 1;
}

export function outer(x: number): number {
  return helper(x) * 2;
}
