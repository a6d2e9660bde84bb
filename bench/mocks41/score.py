#!/usr/bin/env python3
"""Scores oracle's mock-drift findings against the ground truth of bench/mocks41.md.

usage: score.py ROWS.tsv VERDICTS.tsv MISSING.log BEFORE.json AFTER.json [AFTER_MEASURED.json] > table.tsv

ROWS.tsv      mocks.mjs's rows (every mock of a function of the repository,
              with the TypeScript checker's reading of both sides)
VERDICTS.tsv  the hand verdicts that override or add to the checker's:
              test<TAB>line<TAB>verdict (drift-async, drift-shape, ok)<TAB>note
MISSING.log   patch-vitest.sh's log: every read of an export a factory left out
BEFORE/AFTER  oracle audit --json documents (main, this branch)

Ground truth: an async or unknown-export row is a drift when the checker says
so (mock promise vs real plain or the reverse; a factory key the module does
not export) unless VERDICTS says otherwise; a missing-export finding is true
when the run logged that read (the test file read that export of that mock).
Prints the table (without the repositories' code) and, on stderr, precision and
recall per kind and per document.
"""
import json
import sys


def load_rows(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            rows.append(r)
    return rows


def main():
    rows_p, verdicts_p, missing_p, *docs = sys.argv[1:]
    rows = load_rows(rows_p)
    hand = {}
    with open(verdicts_p) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                t, ln, v, note = (line.rstrip("\n").split("\t") + [""])[:4]
                hand[(t, int(ln))] = (v, note)
    reads = set()
    try:
        with open(missing_p) as f:
            for line in f:
                e = json.loads(line)
                reads.add((e["file"].split("/src/", 1)[-1], e["mock"], e["prop"]))
    except FileNotFoundError:
        pass
    truth = {}  # (test, line) -> (kind, note)
    for r in rows:
        key = (r["test"], int(r["line"]))
        d = r["drift"]
        if d.startswith("async"):
            truth[key] = ("async", "checker: " + d)
        elif d == "unknown-export":
            truth[key] = ("unknown-export", "checker: no such export")
    for key, (v, note) in hand.items():
        if v == "ok":
            truth.pop(key, None)
        else:
            truth[key] = (v.replace("drift-", ""), "hand: " + note)
    names = ["before", "after", "after-measured"][: len(docs)]
    found = []
    for doc in docs:
        d = json.load(open(doc))
        fs = {}
        for f in d["findings"]:
            if f["rule"].startswith("mock-drift/"):
                fs.setdefault((f["file"], f["line"]), []).append(f)
        found.append(fs)
    print("\t".join(["test", "line", "kind", "mock", "checker (mock/real)", "truth"] + names))
    keys = set(truth) | {k for fs in found for k in fs} | {(r["test"], int(r["line"])) for r in rows}
    for key in sorted(keys):
        kinds = set()
        for fs in found:
            for f in fs.get(key, []):
                kinds.add(f["rule"].split("/", 1)[1])
        row = next((r for r in rows if (r["test"], int(r["line"])) == key), None)
        mock = row["real"] if row else ""
        checker = f'{row["kind"]}: {row["mock"]}/{row["realKind"]}' if row else ""
        cells = []
        for fs in found:
            got = []
            for f in fs.get(key, []):
                kind = f["rule"].split("/", 1)[1]
                if kind == "missing-export":
                    exp = f["message"].split(" leaves out ", 1)[1].split(",", 1)[0]
                    spec = f["message"].split('vi.mock("', 1)[1].split('"', 1)[0]
                    ok = (f["file"].split("src/", 1)[-1], spec, exp) in reads
                    got.append(f"missing-export {exp}: {'TRUE' if ok else 'FALSE (no run read it)'}")
                else:
                    ok = key in truth and truth[key][0] == kind
                    got.append(f"{kind}: {'TRUE' if ok else 'FALSE'}")
            cells.append("; ".join(got) or ("MISSED" if key in truth else "-"))
        t = truth.get(key)
        print("\t".join([key[0], str(key[1]), "/".join(sorted(kinds)) or (t[0] if t else ""), mock, checker,
                         (t[0] + " (" + t[1] + ")") if t else "no drift"] + cells))
    for name, fs in zip(names, found):
        tp = fp = 0
        per = {}
        for key, lst in fs.items():
            for f in lst:
                kind = f["rule"].split("/", 1)[1]
                if kind == "missing-export":
                    exp = f["message"].split(" leaves out ", 1)[1].split(",", 1)[0]
                    spec = f["message"].split('vi.mock("', 1)[1].split('"', 1)[0]
                    ok = (f["file"].split("src/", 1)[-1], spec, exp) in reads
                else:
                    ok = key in truth and truth[key][0] == kind
                p = per.setdefault(kind, [0, 0])
                p[0] += ok
                p[1] += 1
        recall = {}
        for key, (kind, _) in truth.items():
            r = recall.setdefault(kind, [0, 0])
            r[1] += 1
            r[0] += any(f["rule"] == "mock-drift/" + kind for f in fs.get(key, []))
        got_reads = set()
        for lst in fs.values():
            for f in lst:
                if f["rule"] == "mock-drift/missing-export":
                    exp = f["message"].split(" leaves out ", 1)[1].split(",", 1)[0]
                    spec = f["message"].split('vi.mock("', 1)[1].split('"', 1)[0]
                    got_reads.add((f["file"].split("src/", 1)[-1], spec, exp))
        recall["missing-export"] = [len(reads & got_reads), len(reads)]
        print(f"{name}: precision " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(per.items())) +
              "; recall " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(recall.items())), file=sys.stderr)


main()
