"""Mutants of src/server/index.ts#processItem (PROJ-142), applied by prove-reference.sh to a COPY.

The names follow the SPEC's prove runs: red-first, flag-inverted, flag-always-set, and per
preserved call "preserve-removed:<call>" and "preserve-moved-under-guard:<call>".
"""
GUARD = """  if (!opts.skip) {
    patch.score = (await enrichItem(record, settings)).score;
  }
"""
UNGUARDED = """  patch.score = (await enrichItem(record, settings)).score;
"""
UPD = "  const saved = await updateRecord(id, patch);\n"

def must(s, old, new):
    assert old in s, old
    return s.replace(old, new, 1)

M = {}
M["baseline"] = lambda s: s
M["red-first:guard-deleted"] = lambda s: must(s, GUARD, UNGUARDED)
M["flag-inverted"] = lambda s: must(s, "if (!opts.skip) {", "if (opts.skip) {")
M["flag-always-set"] = lambda s: must(s, "if (!opts.skip) {", "if (false) {")
M["preserve-moved-under-guard:updateRecord"] = lambda s: must(must(s, UPD, ""), GUARD,
    GUARD.replace("  }\n", "    void (await updateRecord(id, patch));\n  }\n") + "  const saved = (await getRecord(id))!;\n")
M["preserve-removed:updateRecord"] = lambda s: must(s, UPD, "  const saved = { ...record, ...patch } as RecordRow;\n")
M["preserve-moved-under-guard:selectTargets"] = lambda s: must(s, "  const targets = selectTargets(record);\n",
    "  let targets: string[] = [];\n  if (!opts.skip) {\n    targets = selectTargets(record);\n  }\n")
M["preserve-removed:selectTargets"] = lambda s: must(s, "  const targets = selectTargets(record);\n", "  const targets: string[] = [];\n")
M["preserve-moved-under-guard:resolveSettings"] = lambda s: must(s, "  const settings = resolveSettings(targets);\n",
    "  let settings = { profile: \"standard\" as const, rounds: 1 };\n  if (!opts.skip) {\n    settings = resolveSettings(targets);\n  }\n")
M["preserve-moved-under-guard:extractMetadata"] = lambda s: must(s, "  const metadata = extractMetadata(record);\n",
    "  let metadata = { slug: \"\", tags: [] as string[] };\n  if (!opts.skip) {\n    metadata = extractMetadata(record);\n  }\n")
M["preserve-removed:resolveSettings"] = lambda s: must(s, "  const settings = resolveSettings(targets);\n",
    "  const settings = { profile: \"standard\" as const, rounds: 1 };\n")
M["preserve-removed:extractMetadata"] = lambda s: must(s, "  const metadata = extractMetadata(record);\n",
    "  const metadata = { slug: \"\", tags: [] as string[] };\n")

if __name__ == "__main__":
    import sys
    name, path = sys.argv[1], sys.argv[2]
    s = open(path).read()
    open(path, "w").write(M[name](s))
