// Imported as a namespace: `import * as audit from "./audit"` then `audit.write(...)`.
const entries: string[] = [];

export function write(event: string, id: number): void {
  entries.push(`${event}:${id}`);
}

export function flush(): string[] {
  return entries.splice(0, entries.length);
}
