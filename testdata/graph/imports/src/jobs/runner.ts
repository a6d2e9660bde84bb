// Dynamic imports, three shapes.
export async function runNightly(ids: number[]): Promise<void> {
  const { reindex } = await import("./reindex"); // destructured binding
  await reindex(ids);
  (await import("./reindex")).compact(); // member of the awaited module
  const audit = await import("../server/audit.js"); // module object bound to a local
  audit.flush();
}

// Dynamic import through a barrel, destructured with a rename.
export const warmCache = async (): Promise<string> => {
  const { slugify: toSlug } = await import("../lib");
  return toSlug("Warm Cache");
};
