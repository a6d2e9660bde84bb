// A log shared by every module instance of a test file: it lives on globalThis, so
// vi.resetModules() does not reset it.
type G = typeof globalThis & { __factsLog?: string[] };

export function factsLog(): string[] {
  const g = globalThis as G;
  g.__factsLog ??= [];
  return g.__factsLog;
}

export function record(event: string): void {
  factsLog().push(event);
}
