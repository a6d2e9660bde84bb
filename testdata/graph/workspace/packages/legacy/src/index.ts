// @acme/legacy has no `exports`: resolved through package.json `types` (./src/index.ts).
// It defines another `updateRecord`; @acme/app imports only `migrate` from here.
export function updateRecord(id: number, name: string): string {
  return `${id}:${name}`;
}

export function migrate(id: number): string {
  return updateRecord(id, "migrated");
}
