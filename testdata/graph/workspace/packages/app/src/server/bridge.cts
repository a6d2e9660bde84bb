// A CommonJS file in an ESM package: `import x = require()` of a workspace package
// resolves in CJS mode, through the "require" branch of @acme/core's exports.
import core = require("@acme/core");

export function touch(id: number): Promise<unknown> {
  return core.createRecord(String(id));
}

// `import()` in the same CommonJS file resolves in ESM mode (the "import" branch).
export async function touchLater(id: number): Promise<unknown> {
  const mod = await import("@acme/core");
  return mod.createRecord(`later-${id}`);
}
