#!/usr/bin/env bash
# The gate's result cache on a series of real commits (bench/cache27.md, issue 27 item 6).
#
#   bench/cache27/run.sh NAME CLONE TIP N OUT
#
# One detached worktree of CLONE (never CLONE itself) is the working copy of a CI runner whose
# .oracle/ cache is restored between runs: the N first-parent commits ending at TIP are checked
# out in it in turn, oldest first, and at each `oracle gate --base HEAD~1 --json --timings` runs
# (with the cache). Then, on the newest of them with mutants (else TIP): the same run again; the run after a change to an environment
# variable (ORACLE27_PROBE, named in a test file the change's tests load: see probe_env) and after a
# change to a data file (a JSON file a related test reads, written untracked: probe_data); and a
# `--no-cache` run of every commit whose cached run had mutants, compared mutant by mutant
# (bench/cache27/compare.sh). PROBES_ONLY=1 runs the probes alone on TIP.
# OUT gets NAME-STEP-SHORT.{json,err} per run and results.tsv:
#   name step commit verdict score mutants cached wall_s rc
# Environment: ORACLE (the binary), NODE_BIN (put first on PATH), DEPS (node_modules linked at
# the root when the clone has none), NOCACHE_ALL=0 to skip the --no-cache comparison.
set -u
name=$1 clone=$2 tip=$3 n=$4 out=$5
oracle=${ORACLE:?ORACLE: the oracle binary}
[ -n "${NODE_BIN:-}" ] && export PATH=$NODE_BIN:$PATH
mkdir -p "$out"
wt=/tmp/cache27/wt/$name
git -C "$clone" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"; mkdir -p "$(dirname "$wt")"
git -C "$clone" worktree add -q --detach "$wt" "$tip" || exit 3
if [ -d "$clone/node_modules" ]; then ln -s "$clone/node_modules" "$wt/node_modules"
elif [ -n "${DEPS:-}" ]; then ln -s "$DEPS" "$wt/node_modules"; fi
export TMPDIR=/tmp/cache27/tmp/$name
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
mapfile -t commits < <(git -C "$clone" rev-list --first-parent --reverse -n "$n" "$tip")
# PROBES_ONLY=1: the probes alone, on TIP (no series, no --no-cache comparison)
[ -n "${PROBES_ONLY:-}" ] && commits=("$(git -C "$clone" rev-parse "$tip")") NOCACHE_ALL=0
gate() { # step commit [flags...]: one gate run in the worktree, one line of results.tsv
  local step=$1 c=$2; shift 2
  local short; short=$(git -C "$wt" rev-parse --short=9 "$c")
  local f=$out/$name-$step-$short s rc
  s=$(date +%s.%N)
  (cd "$wt" && timeout "${GATE_TIMEOUT:-1200}" "$oracle" gate --base HEAD~1 --json --timings "$@" >"$f.json" 2>"$f.err")
  rc=$?
  local wall; wall=$(echo "$(date +%s.%N) $s" | awk '{printf "%.1f", $1-$2}')
  jq -r --arg n "$name" --arg s "$step" --arg c "$short" --arg w "$wall" --arg rc "$rc" '
    [$n, $s, $c, (.verdict // "-"), ((.score // 0) | floor | tostring), ((.mutants // []) | length | tostring),
     ((.cached // 0) | tostring), $w, $rc] | @tsv' "$f.json" | tee -a "$out/results.tsv"
}
for c in "${commits[@]}"; do
  git -C "$wt" checkout -q --detach "$c" || exit 3
  gate series "$c"
done
# the probes run on the newest commit of the series that has mutants (else the tip)
last=${commits[-1]}
for c in "${commits[@]}"; do
  [ "$(jq '(.mutants // []) | length' "$out/$name-series-$(git -C "$wt" rev-parse --short=9 "$c").json")" -gt 0 ] && last=$c
done
git -C "$wt" checkout -q --detach "$last" || exit 3
gate rerun "$last"
# An environment variable a related test reads: a line naming it in a test file the gate ran
# (untracked change of the checkout, undone after), first with the variable unset, then set.
probe_file=$(jq -r '.tests // {} | keys[0] // ""' "$out/$name-rerun-$(git -C "$wt" rev-parse --short=9 "$last").json")
if [ -n "$probe_file" ]; then
  cp "$wt/$probe_file" "$TMPDIR/probe.bak"
  printf '\nconst __probe27 = process.env.ORACLE27_PROBE;\nvoid __probe27;\n' >>"$wt/$probe_file"
  gate env-edit "$last"
  gate env-same "$last"
  ORACLE27_PROBE=1 gate env-set "$last"
  # A data file the test reads: the tests get fs.readFileSync of a JSON file beside it.
  dir=$(dirname "$probe_file")
  echo '{"v": 1}' >"$wt/$dir/probe27.json"
  printf '\nimport { readFileSync as __rf27 } from "node:fs";\nvoid __rf27(new URL("./probe27.json", import.meta.url), "utf8");\n' >>"$wt/$probe_file"
  ORACLE27_PROBE=1 gate data-new "$last"
  ORACLE27_PROBE=1 gate data-same "$last"
  echo '{"v": 2}' >"$wt/$dir/probe27.json"
  ORACLE27_PROBE=1 gate data-edit "$last"
  # A data file no test reads (a new untracked text file at the root): the key's data digest
  # covers every data file git knows
  echo "probe" >"$wt/notes27.txt"
  ORACLE27_PROBE=1 gate notes-new "$last"
  rm -f "$wt/notes27.txt"
  rm -f "$wt/$dir/probe27.json"; cp "$TMPDIR/probe.bak" "$wt/$probe_file"
  # A test that reads the whole environment ({ ...process.env }), run as two CI runs would be:
  # a run id, the commit and a token differ, nothing else
  printf '\nconst __env27 = { ...process.env };\nvoid __env27;\n' >>"$wt/$probe_file"
  GITHUB_RUN_ID=101 GITHUB_SHA=aaa ACTIONS_RUNTIME_TOKEN=t1 gate ci-run1 "$last"
  GITHUB_RUN_ID=102 GITHUB_SHA=bbb ACTIONS_RUNTIME_TOKEN=t2 gate ci-run2 "$last"
  cp "$TMPDIR/probe.bak" "$wt/$probe_file"
fi
if [ "${NOCACHE_ALL:-1}" != 0 ]; then
  for c in "${commits[@]}"; do
    short=$(git -C "$wt" rev-parse --short=9 "$c")
    [ "$(jq '(.mutants // []) | length' "$out/$name-series-$short.json")" -gt 0 ] || continue
    git -C "$wt" checkout -q --detach "$c"
    gate nocache "$c" --no-cache
  done
fi
(cd "$wt" && git status --porcelain --ignored | grep -v ' node_modules$' >"$out/$name.left")
(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 2 ! -name probe.bak | head -20 >"$out/$name.lefttmp")
cp "$wt/.oracle/cache/gate.json" "$out/$name-cache.json" 2>/dev/null
rm -rf "$TMPDIR"
[ -n "${KEEP:-}" ] || { git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt"; }
