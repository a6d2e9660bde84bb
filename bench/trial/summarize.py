#!/usr/bin/env python3
"""The trial's table: the gate's JSON (run.sh) against the coverage truth (truth.py), per commit.

    bench/trial/summarize.py GATE_OUT TRUTH_OUT [--survivors]

Per commit: verdict, score, SKIP reason, the related test files the gate measured against the
truth's (the test files whose V8 coverage shows a changed line executed), and flags:
  WRONG-SKIP  a target skipped (or a SKIP verdict) while some test file executes a changed line
  PASS-NO-OWN a PASS with no killed mutant whose whole span lies on changed lines
  ENCLOSING   counted mutants whose span reaches past the changed lines (enclosing constructs)
--survivors prints every surviving and no-coverage mutant with its diff, for the checks by hand.
"""
import json, os, sys, glob

gdir, tdir = sys.argv[1], sys.argv[2]
show_surv = "--survivors" in sys.argv
commits = [l.split(None, 4) for l in open(os.environ.get("COMMITS") or os.path.join(os.path.dirname(__file__), "commits.txt")) if l.strip() and not l.startswith("#")]

def within(changed, f, a, b):
    return any(lo <= a and b <= hi for lo, hi in changed.get(f, []))

rows = []
for name, clone, commit, shape, *desc in commits:
    gj = glob.glob(os.path.join(gdir, f"{name}-{commit}*.json"))
    tj = glob.glob(os.path.join(tdir, f"{name}-{commit}*.truth.json"))
    def load(p):
        try: return json.load(open(p))
        except (OSError, ValueError): return None
    g = load(gj[0]) if gj else None
    t = load(tj[0]) if tj else None
    truth = sorted(f for f, r in (t or {}).get("tests", {}).items() if r["hit"]) if t else None
    any_hit = bool(t and (t.get("any", {}).get("hit") or truth))
    row = {"repo": name, "commit": commit, "shape": shape, "desc": desc[0].strip() if desc else ""}
    flags = []
    if g is None:
        rc = open(glob.glob(os.path.join(gdir, f"{name}-{commit}*.rc"))[0]).read().split()[0] if glob.glob(os.path.join(gdir, f"{name}-{commit}*.rc")) else "?"
        row.update(verdict=f"no JSON (rc {rc})", score="", reason="")
    else:
        ch = g.get("changed") or {}
        ms = g.get("mutants") or []
        counted = [m for m in ms if m["outcome"] in ("killed", "timeout", "survived", "no-coverage")]
        killed = [m for m in ms if m["outcome"] in ("killed", "timeout")]
        own_killed = [m for m in killed if within(ch, m["file"], m["line"], m["endLine"])]
        encl = [m for m in counted if not within(ch, m["file"], m["line"], m["endLine"])]
        related = sorted({x for tg in g.get("targets") or [] for x in tg.get("tests") or []})
        skipped = [(tg["id"], tg.get("skipped")) for tg in g.get("targets") or [] if tg.get("skipped")]
        row.update(verdict=g.get("verdict") or "ERROR " + json.dumps(g)[:200], score=f'{g.get("score", 0):.0f}% ({g.get("detected")}/{g.get("total")})',
                   reason=(g.get("reason") or "")[:160], related=related, skipped=skipped,
                   survivors=[m for m in ms if m["outcome"] in ("survived", "no-coverage")],
                   targets=[tg["id"] for tg in g.get("targets") or []], notes=g.get("notes") or [],
                   errors=[m for m in ms if m["outcome"] == "error"])
        if any_hit and (g.get("verdict") == "SKIP" or skipped):
            flags.append("WRONG-SKIP?")
        if g.get("verdict") == "PASS" and not own_killed:
            flags.append("PASS-NO-OWN")
        if encl:
            flags.append(f"ENCLOSING {len(encl)}")
    row["truth"] = truth
    row["any_hit"] = any_hit
    row["cands"] = (t or {}).get("candidates")
    row["lines"] = (t or {}).get("lines")
    row["truth_failed"] = sorted(f for f, r in (t or {}).get("tests", {}).items() if r["rc"]) if t else None
    row["flags"] = flags
    rows.append(row)

def t_lines(r):
    return "; ".join(f"{f}:{','.join(map(str, ls[:12]))}" for f, ls in (r["lines"] or {}).items()) or "no code line changed"

for r in rows:
    print(f'## {r["repo"]} {r["commit"]} [{r["shape"]}] {r["desc"]}')
    print(f'   gate: {r["verdict"]} {r.get("score","")} {r.get("reason","")}')
    if r.get("targets") is not None: print(f'   targets: {", ".join(r["targets"])}')
    for i, why in r.get("skipped", []): print(f'   skipped {i}: {why}')
    for n in r.get("notes", []): print(f'   note: {n[:200]}')
    rel, tr = set(r.get("related") or []), set(r["truth"] or [])
    if r["truth"] is None: print("   truth: (not measured)")
    else:
        print(f'   truth: {t_lines(r)}; any test executes them: {r["any_hit"]} ({r["cands"]} candidates)')
        print(f'   related: gate {len(rel)}, truth {len(tr)}, both {len(rel & tr)}' + (f'; truth runs failing: {r["truth_failed"]}' if r["truth_failed"] else ""))
        for f in sorted(tr - rel): print(f'     truth-only {f}')
        for f in sorted(rel - tr): print(f'     gate-only  {f}')
    if r["flags"]: print(f'   FLAGS: {" ".join(r["flags"])}')
    for m in r.get("errors", []): print(f'   error {m["id"]} {m["file"]}:{m["line"]} {m["mutatorName"]} {(m.get("detail") or "")[:120]}')
    for m in r.get("survivors", []):
        print(f'   {m["outcome"]} {m["id"]} {m["file"]}:{m["line"]}:{m["column"]} {m["mutatorName"]} -> {m["replacement"][:60]}')
        if show_surv: print("      " + (m.get("diff") or "").replace("\n", "\n      "))

# --hand FILE...: the output of handcheck.sh/handall.sh (one line per mutant: NAME SHORT ID: ... -> VERDICT)
import re
hand = {}
if "--hand" in sys.argv:
    for f in sys.argv[sys.argv.index("--hand") + 1:]:
        for l in open(f):
            m = re.match(r"(\S+) (\S+) (\S+): baseline rc=(\S+) mutant rc=(\S+) -> (\S+)( \(tests:.*--testTimeout)?", l)
            if m:
                hand.setdefault((m.group(1), m.group(2)[:7]), {})[m.group(3)] = m.group(6) + (" (60 s time-out)" if m.group(7) else "")

if "--md" in sys.argv:
    print("\n| repository | commit | what it changes | verdict | score | SKIP reason / note | related tests: gate / truth (both) | survivors | checked by hand |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rel, tr = set(r.get("related") or []), set(r["truth"] or [])
        why = (r.get("reason") or "").replace("|", "/")[:90]
        if r.get("skipped"): why = (why + " " + "; ".join(f"{i.split('#',1)[1]}: {w[:60]}" for i, w in r["skipped"])).strip()
        truth = "not measured" if r["truth"] is None else f"{len(rel)} / {len(tr)} ({len(rel & tr)})" + ("" if r["any_hit"] or not r["lines"] else ", no changed line runs")
        surv = len(r.get("survivors") or [])
        desc = r["desc"][:70].replace("|", "\\|")
        h = hand.get((r["repo"], r["commit"][:7]), {})
        final = {}
        for i, v in h.items():  # a clean re-run (60 s time-out) wins over a red baseline
            if i not in final or final[i].startswith("RED"): final[i] = v
        hs = "; ".join(f"#{i.rsplit('#', 1)[1]} {v}" for i, v in sorted(final.items())) or "-"
        print(f'| {r["repo"]} | {r["commit"]} | {desc} | {r["verdict"][:12]} | {r.get("score","")} | {why} | {truth} | {surv} | {hs} |')
