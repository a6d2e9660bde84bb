#!/usr/bin/env python3
"""The gate's mutants against StrykerJS's on the same commit (trial-2).

    bench/trial/strykcmp.py GATE_JSON STRYKER_JSON

A pair is the same program: the file with the mutant applied, compared without whitespace and with
one kind of quote (trial-3: whichever span each tool reports); failing that, both start at the same
line and column and their replacements are equal once quotes and spaces are normalised (`""` and `''`), or, failing that, when they have the same
mutatorName at the same place and StrykerJS's replacement is not itself matched. Prints every pair with
both outcomes (killed/timeout = detected; survived/no-coverage = undetected), then each mutant only one
tool made.
"""
import json, re, sys
g, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
norm = lambda r: re.sub(r"\s+", "", (r or "").replace("'", '"'))
det = lambda o: o.lower() in ("killed", "timeout")
gm = [m for m in g.get("mutants") or [] if m["outcome"] in ("killed", "timeout", "survived", "no-coverage")]
sm = [(f, m) for f, fd in s["files"].items() for m in fd["mutants"] if m["status"] not in ("Ignored", "CompileError", "RuntimeError")]
# The program each mutant makes (StrykerJS's report holds each file's source; both tools give
# 1-based lines and columns, the end exclusive), compared without whitespace and with one kind of
# quote: `a && b` -> `a || b` is one program whether a tool reports the operator or the expression.
def program(src, l1, c1, l2, c2, text):
    lines = src.split("\n")
    off = lambda l, c: sum(len(x) + 1 for x in lines[:l - 1]) + c - 1
    return norm(src[:off(l1, c1)] + (text or "") + src[off(l2, c2):])
srcs = {f: fd.get("source", "") for f, fd in s["files"].items()}
gprog = [program(srcs.get(x["file"], ""), x["line"], x["column"], x.get("endLine", x["line"]), x.get("endColumn", x["column"]), x["replacement"]) if srcs.get(x["file"]) else None for x in gm]
used, pairs = set(), []
for f, m in sm:
    st, en = m["location"]["start"], m["location"]["end"]
    best = None
    sp = program(srcs[f], st["line"], st["column"], en["line"], en["column"], m.get("replacement")) if srcs.get(f) else None
    for i, x in enumerate(gm):
        if i in used or x["file"] != f: continue
        if sp is not None and gprog[i] == sp: best = i; break
    for i, x in enumerate(gm):
        if best is not None: break
        if i in used or x["file"] != f or x["line"] != st["line"] or x["column"] != st["column"]: continue
        if norm(x["replacement"]) == norm(m.get("replacement")): best = i; break
        if best is None and x["mutatorName"] == m["mutatorName"]: best = i
    if best is not None:
        used.add(best); pairs.append((gm[best], (f, m)))
agree = sum(det(x["outcome"]) == det(m["status"]) for x, (_, m) in pairs)
print(f"gate {len(gm)} mutants, StrykerJS {len(sm)}; both make {len(pairs)}, same outcome {agree}")
for x, (f, m) in pairs:
    flag = "" if det(x["outcome"]) == det(m["status"]) else "   <-- DISAGREE"
    print(f"  both {f}:{x['line']}:{x['column']} {x['mutatorName']} {x['replacement'][:40]!r}: gate {x['outcome']}, StrykerJS {m['status']}{flag}")
for i, x in enumerate(gm):
    if i not in used: print(f"  gate only {x['file']}:{x['line']}:{x['column']} {x['mutatorName']} {x['replacement'][:50]!r}: {x['outcome']}")
paired = {id(m) for _, (_, m) in pairs}
for f, m in sm:
    if id(m) not in paired:
        st = m["location"]["start"]
        print(f"  StrykerJS only {f}:{st['line']}:{st['column']} {m['mutatorName']} {(m.get('replacement') or '')[:50]!r}: {m['status']}")
