#!/usr/bin/env python3
"""Scores an `oracle audit --json --tables` run on the planted faults (faults.tsv).

A drift fault is found when a mock-drift finding lies in its test file, or
the cross-component table has a FAIL row for it (the mock-swap run); a
vacuous fault when a vacuous-test finding (not info) lies on its lines. A
control is clean when no finding (not info) lies on its lines and none of
its cross rows is FAIL. Usage: score.py AUDIT.json [faults.tsv]
"""
import json, os, sys

doc = json.load(open(sys.argv[1]))
tsv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "faults.tsv")
findings = [f for f in doc["findings"] if f["severity"] != "info" and not f.get("ignored")]
cross = (doc.get("tables") or {}).get("crossComponent") or []
rows, tally = [], {}
for line in open(tsv):
    if line.startswith("#") or not line.strip():
        continue
    fid, kind, form, file, a, b = line.rstrip("\n").split("\t")
    a, b = int(a), int(b)
    prefix = {"drift": "mock-drift", "vacuous": "vacuous-test"}.get(kind, "")
    hits = [f for f in findings if f["file"] == file and a <= f["line"] <= b and f["rule"].startswith(prefix)]
    fails = [r for r in cross if r["test"] == file and r["withReal"]["cell"] == "FAIL"] if kind != "vacuous" else []
    how = sorted({f["rule"] for f in hits} | ({"cross-component FAIL"} if fails else set()))
    if kind == "control":
        ok = not hits and not fails
        verdict = "clean" if ok else "FALSE FINDING"
    else:
        ok = bool(how)
        verdict = "found" if ok else "MISSED"
    t = tally.setdefault(kind, [0, 0])
    t[0] += ok
    t[1] += 1
    rows.append((fid, form, verdict, ", ".join(how)))
print("| id | form | verdict | by |\n| --- | --- | --- | --- |")
for r in rows:
    print("| %s | %s | %s | %s |" % r)
print()
for k, (ok, n) in sorted(tally.items()):
    print("%s: %d of %d %s" % (k, ok, n, "clean" if k == "control" else "found"))
