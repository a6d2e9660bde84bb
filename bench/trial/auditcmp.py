#!/usr/bin/env python3
"""audit's blind-function findings against V8 coverage of the whole suite (the truth).

    bench/trial/auditcmp.py AUDIT_JSON COVERAGE_FINAL_JSON ROOT

Truth: a function of the coverage's fnMap whose count is 0 is run by no test (un-stubbed: a mocked
module is not executed); so is every function of a file no test loads (no statement executed). Precision: the blind-function findings whose file:line is the declaration
of such a function (a line within the function's declaration or its first line). Recall: the
exported top-level functions with count 0 (`export [default] [async] function`, `export const f =
... =>`/`function`) that audit reports. Prints both lists and every miss.
"""
import json, os, re, sys
audit, cov, root = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
zero, covered = {}, {}
for p, fc in cov.items():
    rel = os.path.relpath(p, root)
    src = open(p, errors="replace").read().splitlines()
    for k, fn in fc["fnMap"].items():
        line = fn["decl"]["start"]["line"]
        rec = (rel, line, fn["name"], src[line - 1].strip() if line - 1 < len(src) else "", fn["loc"]["start"]["line"], fn["loc"]["end"]["line"])
        (zero if fc["f"][k] == 0 else covered)[(rel, line)] = rec
EXP = re.compile(r"^export\s+(default\s+)?(async\s+)?function\b|^export\s+const\s+\w+\s*(:[^=]+)?=\s*(async\s+)?(\(|function|\w+\s*=>)")
exported_zero = {k: v for k, v in zero.items() if EXP.search(v[3])}
finds = [f for f in audit.get("findings", []) if f["rule"] == "blind-function"]
def match(f, table):
    for (rel, line), rec in table.items():
        if rel == f["file"] and (line == f["line"] or rec[4] == f["line"]):
            return rec
    return None
# A file no test loads (no statement of it executed, or not in the coverage at all: vitest's
# coverage of unloaded files keeps no function of some .tsx files) runs none of its functions.
loaded = {os.path.relpath(p, root) for p, fc in cov.items() if any(n > 0 for n in fc["s"].values())}
unloaded = lambda f: f["file"] not in loaded and os.path.exists(os.path.join(root, f["file"]))
tp = [f for f in finds if match(f, zero) or (not match(f, covered) and unloaded(f))]
fp = [f for f in finds if f not in tp]
found = {(f["file"], f["line"]) for f in finds}
missed = [v for k, v in exported_zero.items() if not any(fl == (k[0], l) for fl in found for l in (k[1], v[4]))]
print(f"findings {len(finds)}: true {len(tp)}, false {len(fp)}; precision {100*len(tp)/max(len(finds),1):.1f}%")
print(f"exported functions no test runs: {len(exported_zero)}; reported {len(exported_zero)-len(missed)}; recall {100*(len(exported_zero)-len(missed))/max(len(exported_zero),1):.1f}%")
print(f"functions in coverage: {len(zero)+len(covered)}, run by no test: {len(zero)}")
for f in fp:
    rec = match(f, covered)
    print(f"  FALSE {f['file']}:{f['line']} {f['message'][:120]}" + (f"  (coverage: {rec[2]} runs)" if rec else "  (no function of the coverage there)"))
for v in missed: print(f"  MISSED {v[0]}:{v[1]} {v[2]} | {v[3][:80]}")
for c in [f for f in audit.get("findings", []) if f["rule"] == "cannot-measure"][:20]:
    print(f"  cannot-measure {c['file']}:{c['line']} {c['message'][:140]}")
