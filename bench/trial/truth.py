#!/usr/bin/env python3
"""The truth of one commit of the trial: which test files execute the code the commit changed.

    bench/trial/truth.py NAME CLONE COMMIT OUT [--deps NODE_MODULES] [--exclude REGEX] [--max N]

Checks COMMIT out in a detached worktree (node_modules linked as bench/trial/run.sh does), takes the
lines the commit added or modified in production TypeScript files (blank and comment-only lines left
out; a pure deletion counts the line after it), finds the candidate test files by a crude static
import closure (relative imports, tsconfig-free; bare specifiers of the repository's own packages
through --alias NAME=PATH), runs them all once under vitest with V8 coverage (@vitest/coverage-v8,
the repository's own vitest; "any" in the output), and when that run executes a changed line, each of
the --max nearest candidates (import hops) ALONE the same way. A changed line is executed by a test file when
the innermost statement (istanbul's statementMap) that contains it ran at least once. Writes
OUT/NAME-COMMIT.truth.json: {"lines": {file: [lines]}, "tests": {test: {"rc", "hit": {file: [lines]}}}}.
"""
import argparse, json, os, re, subprocess, shutil, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("name"); ap.add_argument("clone"); ap.add_argument("commit"); ap.add_argument("out")
ap.add_argument("--deps"); ap.add_argument("--exclude", default=r"(^|/)(node_modules|fixtures|e2e|dist)/")
ap.add_argument("--max", type=int, default=10)
ap.add_argument("--alias", action="append", default=[])
ap.add_argument("--varg", action="append", default=[], help="one more vitest argument (vueuse: --varg=--project=unit)")
ap.add_argument("--anymax", type=int, default=300, help="the all-candidates run takes the N nearest only")
ap.add_argument("--all", action="store_true", help="every test file is a candidate (no import closure)")
a = ap.parse_args()

def sh(*args, cwd=None, check=True):
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if check and r.returncode != 0:
        sys.exit(f"{' '.join(args)}: {r.stderr}")
    return r.stdout

short = sh("git", "-C", a.clone, "rev-parse", "--short=9", a.commit).strip()
TRIAL = os.environ.get("TRIAL", "/tmp/trial")
wt = f"{TRIAL}/wt/truth-{a.name}-{short}"
subprocess.run(["git", "-C", a.clone, "worktree", "remove", "--force", wt], capture_output=True)
shutil.rmtree(wt, ignore_errors=True)
sh("git", "-C", a.clone, "worktree", "add", "-q", "--detach", wt, a.commit)
if os.path.isdir(os.path.join(a.clone, "node_modules")):
    for root, dirs, _ in os.walk(a.clone):
        if ".git" in dirs: dirs.remove(".git")
        if "node_modules" in dirs:
            rel = os.path.relpath(os.path.join(root, "node_modules"), a.clone)
            if os.path.isdir(os.path.join(wt, os.path.dirname(rel))) and not os.path.exists(os.path.join(wt, rel)):
                os.symlink(os.path.join(a.clone, rel), os.path.join(wt, rel))
            dirs.remove("node_modules")
        dirs[:] = [d for d in dirs if not d.startswith(".tmp-")]
elif a.deps:
    os.symlink(a.deps, os.path.join(wt, "node_modules"))

TS = re.compile(r"\.(m|c)?tsx?$")
def is_test(p): return bool(re.search(r"\.(test|spec)\.(m|c)?[jt]sx?$", p)) or bool(re.search(r"(^|/)(test|tests|__tests__)/", p))
# changed lines (new side)
lines = {}
diff = sh("git", "-C", wt, "diff", "-U0", "--no-color", "-M", f"{a.commit}~1", a.commit)
cur = None
for l in diff.splitlines():
    if l.startswith("+++ "):
        p = l[6:] if l.startswith("+++ b/") else None
        cur = p if p and TS.search(p) and not p.endswith(".d.ts") and not is_test(p) else None
    elif l.startswith("@@") and cur:
        m = re.match(r"@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", l)
        start, n = int(m.group(2)), int(m.group(3) if m.group(3) is not None else 1)
        src = open(os.path.join(wt, cur)).read().splitlines()
        rng = range(start, start + n) if n > 0 else range(start + 1, start + 2)
        for ln in rng:
            t = src[ln - 1].strip() if ln - 1 < len(src) else ""
            if not t or re.match(r"^(//|/\*|\*)", t): continue
            lines.setdefault(cur, []).append(ln)

# candidate test files
allfiles = sh("git", "-C", wt, "ls-files").splitlines()
tests = [f for f in allfiles if re.search(r"\.(test|spec)\.(m|c)?[jt]sx?$", f) and not re.search(a.exclude, f)]
aliases = dict(x.split("=", 1) for x in a.alias)
IMP = re.compile(r"""(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]|vi\.mock\(\s*['"]([^'"]+)['"]""")
def resolve(frm, spec):
    if spec.startswith("."):
        base = os.path.normpath(os.path.join(os.path.dirname(frm), spec))
    else:
        best = max((k for k in aliases if spec == k or spec.startswith(k + "/")), key=len, default=None)
        if best is None: return None
        base = os.path.normpath(aliases[best] + spec[len(best):])
    base = re.sub(r"\.(m|c)?js$", "", base)
    for c in (base, base + ".ts", base + ".tsx", base + ".mts", base + "/index.ts", base + "/index.tsx", base + ".js", base + "/index.js"):
        if os.path.isfile(os.path.join(wt, c)): return c
    return None
graph = {}
def deps(f):
    if f not in graph:
        try: txt = open(os.path.join(wt, f), errors="replace").read()
        except OSError: txt = ""
        graph[f] = [r for m in IMP.finditer(txt) for r in [resolve(f, next(g for g in m.groups() if g))] if r]
    return graph[f]
def depth(t, targets):
    """import hops from test file t to a changed file (breadth first), None when it reaches none"""
    seen, level, d = {t}, [t], 0
    while level:
        if any(f in targets for f in level): return d
        nxt = []
        for f in level:
            for g in deps(f):
                if g not in seen: seen.add(g); nxt.append(g)
        level, d = nxt, d + 1
    return None
targets = set(lines)
# nearest first (import hops), so that --max keeps the test files most likely to run the change
cands = sorted(tests) if a.all else [t for _, t in sorted((d, t) for t in tests for d in [depth(t, targets)] if d is not None)]
allcands = cands[: a.anymax]
truncated = len(cands) > a.max
cands = cands[: a.max]

vitest = os.path.join(wt, "node_modules/.bin/vitest")
res = {"commit": short, "lines": lines, "candidates": len(allcands), "truncated": truncated, "tests": {}}

def cover(files):
    """one vitest run of files with V8 coverage of the changed files: (rc, {file: [executed lines]}, tail)"""
    d = tempfile.mkdtemp(prefix="cov-", dir=TRIAL)
    cmd = [vitest, "run", *files, "--coverage.enabled", "--coverage.provider=v8", "--coverage.reporter=json",
           f"--coverage.reportsDirectory={d}", "--coverage.reportOnFailure", "--coverage.thresholds.lines=0", *a.varg]
    for f in lines: cmd.append(f"--coverage.include={f}")
    try:
        r = subprocess.run(cmd, cwd=wt, capture_output=True, text=True, env=dict(os.environ, CI="1"), timeout=900)
        rc, out = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        rc, out = "timeout", ""
    hit = {}
    try:
        cov = json.load(open(os.path.join(d, "coverage-final.json")))
    except Exception:
        cov = {}
    for path, fc in cov.items():
        rel = os.path.relpath(path, wt)
        if rel not in lines: continue
        sm, cnt = fc["statementMap"], fc["s"]
        for ln in lines[rel]:
            inner = None
            for k, loc in sm.items():
                if loc["start"]["line"] <= ln <= loc["end"]["line"]:
                    span = (loc["end"]["line"] - loc["start"]["line"], (loc["end"]["column"] or 10**6) - (loc["start"]["column"] or 0))
                    if inner is None or span < inner[0]: inner = (span, k)
            if inner and cnt[inner[1]] > 0: hit.setdefault(rel, []).append(ln)
    shutil.rmtree(d, ignore_errors=True)
    return rc, hit, out[-400:]

# first every candidate in one run: does any test execute a changed line at all?
if allcands and lines:
    rc, hit, tail = cover(allcands)
    res["any"] = {"rc": rc, "hit": hit, **({"tail": tail} if rc else {})}
    print(f"{a.name} {short} ALL({len(allcands)}) rc={rc} hit={sum(len(v) for v in hit.values())}", flush=True)
    if not hit: cands = []
for t in cands:
    rc, hit, tail = cover([t])
    res["tests"][t] = {"rc": rc, "hit": hit, **({"tail": tail} if rc else {})}
    print(f"{a.name} {short} {t} rc={rc} hit={sum(len(v) for v in hit.values())}", flush=True)
os.makedirs(a.out, exist_ok=True)
json.dump(res, open(os.path.join(a.out, f"{a.name}-{short}.truth.json"), "w"), indent=1, sort_keys=True)
subprocess.run(["git", "-C", a.clone, "worktree", "remove", "--force", wt], capture_output=True)
shutil.rmtree(wt, ignore_errors=True)
