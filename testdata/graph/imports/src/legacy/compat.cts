// A CommonJS module (.cts) using `import x = require()`.
import legacyRepo = require("./repo");

export function legacySync(id: number): boolean {
  // namespace-style call through the import-equals binding
  return legacyRepo.updateRecord(id, { synced: true }) && legacyRepo.deleteRecord(id);
}
