#!/usr/bin/env python3
"""Summarises the cross-component and integrity tables of an `oracle audit
--json --tables` run: cells counted, UNKNOWN reasons counted by kind, every
FAIL row and every vacuous-test finding printed in full (to be read by hand).
Usage: tables.py AUDIT.json"""
import collections, json, re, sys

doc = json.load(open(sys.argv[1]))
t = doc["tables"]
kinds = [
    ("interaction test", r"^interaction test"),
    ("staged scenario (same shapes)", r"^the mock stages a scenario"),
    ("needs something outside the repository", r"^cannot run with the real module for want"),
    ("the file cannot run with the real module", r"^the test file cannot run with the real module"),
    ("fails with its mocks too", r"^the tests that fail with the real module fail with the mock too"),
    ("no value to compare (a class, non-functions)", r"no function of the mock returned a value on both sides"),
    ("another mock of the file differs", r"but this mock's values have the real module's shapes"),
    ("a function returning its type parameter (its data's shape)", r"is declared to return its type parameter"),
    ("left out of vitest's report", r"did not run unmocked"),
    ("static audit", r"^static audit"),
]
cells = collections.Counter((r["withReal"]["cell"], r["shape"]["cell"]) for r in t["crossComponent"])
print("cross-component rows:", len(t["crossComponent"]), "(with the real module, shape):", dict(cells))
why = collections.Counter()
for r in t["crossComponent"]:
    v = r["withReal"]
    if v["cell"] == "UNKNOWN":
        k = next((k for k, pat in kinds if re.search(pat, v["evidence"])), "other: " + v["evidence"][:80])
        why[k] += 1
for k, n in why.most_common():
    print("  UNKNOWN %3d  %s" % (n, k))
print("\nFAIL rows:")
for r in t["crossComponent"]:
    for col in ("withReal", "shape"):
        v = r[col]
        if v["cell"] == "FAIL":
            print("- %s mocks %s (line %d), %s: %s" % (r["test"], r["module"], r["line"], col, v["evidence"]))
print("\nintegrity:", dict(collections.Counter(r["integrity"]["cell"] for r in t["integrity"])))
print("\nvacuous-test and mock-drift findings:")
for f in doc["findings"]:
    if f["rule"].startswith(("vacuous-test", "mock-drift")):
        print("- %s %s %s:%d %s" % (f["rule"], f["severity"], f["file"], f["line"], f["message"]))
