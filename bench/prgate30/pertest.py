#!/usr/bin/env python3
"""The per-test selection table of bench/prgate30.md from pertest.sh's OUT directory.

    python3 bench/prgate30/pertest.py OUT

Per commit and side (b: before, a: after): the gate's wall time, its batches' and alone
phases (min / median / max over the rounds), the plain vitest run, the load at each start;
then, per round, the mutants whose outcome differs between the two sides' --json documents.
"""
import json, os, statistics, sys
from collections import defaultdict

out = sys.argv[1]
rows = defaultdict(list)  # (commit, side) -> rows
for line in open(os.path.join(out, "results.tsv")):
    f = line.rstrip("\n").split("\t")
    name, commit = f[0], f[1]
    side, rnd = name[4], name.split("-")[1]
    rows[(commit, side)].append({"round": rnd, "verdict": f[2], "score": f[3], "mutants": f[4], "gate": float(f[5]),
                                 "plain": f[6], "setup": f[9], "baseline": f[10], "batches": float(f[11]),
                                 "alone": float(f[12]), "ranAlone": f[13], "load": f[14], "why": f[15] if len(f) > 15 else ""})

def mmm(xs):
    return "%.0f / %.0f / %.0f" % (min(xs), statistics.median(xs), max(xs))

print("| commit | side | rounds | gate s (min / median / max) | batches s | alone s | ran alone | plain s | verdict, score, mutants | load at start |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (commit, side) in sorted(rows, key=lambda k: (k[0], k[1] != "b")):
    rs = rows[(commit, side)]
    print("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
        commit, "before" if side == "b" else "after", len(rs), mmm([r["gate"] for r in rs]), mmm([r["batches"] for r in rs]),
        mmm([r["alone"] for r in rs]), ", ".join(r["ranAlone"] for r in rs), ", ".join(r["plain"] for r in rs),
        ", ".join(sorted({"%s %s%% %s" % (r["verdict"], r["score"], r["mutants"]) for r in rs})), ", ".join(r["load"] for r in rs)))

def outcomes(path):
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        return None
    return {m["id"]: m["outcome"] for m in d.get("mutants") or []}

print()
for (commit, side) in sorted(rows):
    if side != "a":
        continue
    for r in rows[(commit, "a")]:
        a = outcomes(os.path.join(out, "pt30a-%s-%s.json" % (r["round"], commit)))
        for rb in rows.get((commit, "b"), []):
            b = outcomes(os.path.join(out, "pt30b-%s-%s.json" % (rb["round"], commit)))
            if a is None or b is None:
                continue
            diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            print("%s after round %s vs before round %s: %d mutants, %d differ%s" % (
                commit, r["round"], rb["round"], len(a), len(diff),
                "".join("\n  %s: before %s, after %s" % (k, b.get(k), a.get(k)) for k in diff)))
