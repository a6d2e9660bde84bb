#!/usr/bin/env bash
# One pull request of bench/prgate30.md: the gate on a real commit of a monorepo against one
# plain `vitest run` of its related test files, interleaved (plain, gate, plain).
#
#   bench/prgate30/run.sh NAME CLONE COMMIT PKG OUT [extra gate flags...]
#
# COMMIT is checked out in a detached worktree of CLONE (never CLONE itself), every
# node_modules directory of CLONE is linked at the same relative path (pnpm workspaces have one
# per package), and in PKG (a directory of the worktree: the package whose tests run, "." for
# the root) `oracle gate --root . --base HEAD~1 --json --timings --no-cache` runs. The related
# test files are the ones the gate ran baselines of (the JSON's tests); the plain run is
# `vitest run [--config C] FILE...` with the config the gate used (its note), timed before and
# after the gate. OUT gets NAME-SHORT.{json,err} and one line appended to OUT/results.tsv:
#   name commit verdict score mutants gate_s plain1_s plain2_s ratio setup baseline batches alone ranAlone load1 aloneWhy
# Environment: ORACLE (the binary), NODE_BIN (put first on PATH), KEEP=1 keeps the worktree,
# PLAIN=N plain runs after the gate (2, the default; 1; 0: none, no ratio).
set -u
name=$1 clone=$2 commit=$3 pkg=$4 out=$5; shift 5
oracle=${ORACLE:?ORACLE: the oracle binary}
[ -n "${NODE_BIN:-}" ] && export PATH=$NODE_BIN:$PATH
mkdir -p "$out"
short=$(git -C "$clone" rev-parse --short=10 "$commit")
wt=/tmp/prgate30/wt/$name-$short
git -C "$clone" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
mkdir -p "$(dirname "$wt")"
# A mirror may lack some large blobs (fixtures): the checkout then leaves out the files it
# could not read (a sparse checkout without them), which no gate here reads.
git -C "$clone" worktree add -q --no-checkout --detach "$wt" "$commit" 2>"$out/$name-$short.checkout" || exit 3
if ! git -C "$wt" checkout -q --detach "$commit" 2>>"$out/$name-$short.checkout"; then
  missing=$(sed -n 's/^error: unable to read sha1 file of \(.*\) ([0-9a-f]*)$/\1/p' "$out/$name-$short.checkout")
  [ -n "$missing" ] || exit 3
  git -C "$wt" sparse-checkout set --no-cone '/*' $(printf '!/%s ' $missing) 2>>"$out/$name-$short.checkout"
  git -C "$wt" checkout -q --detach "$commit" 2>>"$out/$name-$short.checkout"
fi
[ -d "$wt/$pkg" ] || exit 3
(cd "$clone" && find . -name node_modules -type d -prune -not -path './node_modules/*' 2>/dev/null) |
  while read -r d; do
    [ -d "$wt/$(dirname "$d")" ] && [ ! -e "$wt/$d" ] && ln -s "$clone/$d" "$wt/$d"
  done
dir=$wt/$pkg
export TMPDIR=/tmp/prgate30/tmp/$name-$short
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
now() { date +%s.%N; }
vitest=$(cd "$dir" && d=$PWD; while [ "$d" != / ]; do [ -f "$d/node_modules/vitest/vitest.mjs" ] && { echo "$d/node_modules/vitest/vitest.mjs"; break; }; d=$(dirname "$d"); done)
plain() { # the related files in one plain vitest run; prints its seconds
  local s; s=$(now)
  (cd "$dir" && node "$vitest" run ${config:+--config "$config"} "${files[@]}" >"$out/$name-$short.plain$1" 2>&1)
  echo "$(now) $s" | awk '{printf "%.2f", $1-$2}'
}
# The gate first decides the related files; the plain runs go around a second gate run only
# when GATE_TWICE is set (the first one is then the warm-up of vitest's and the OS's caches).
config=
files=()
load1=$(cut -d' ' -f1 /proc/loadavg)
s=$(now)
(cd "$dir" && "$oracle" gate --root . --base HEAD~1 --json --timings --no-cache "$@" >"$out/$name-$short.json" 2>"$out/$name-$short.err")
rc=$?
gate_s=$(echo "$(now) $s" | awk '{printf "%.2f", $1-$2}')
json=$out/$name-$short.json
config=$(jq -r '.notes // [] | map(select(startswith("using "))) | .[0] // "" | sub("^using ";"") | sub(", named by.*$";"")' "$json")
mapfile -t files < <(jq -r '.tests // {} | keys[]' "$json")
p1=- p2=-
if [ ${#files[@]} -gt 0 ] && [ "${PLAIN:-2}" -ge 1 ]; then
  p1=$(plain 1)
  p2=$p1
  [ "${PLAIN:-2}" -ge 2 ] && p2=$(plain 2)
fi
ratio=$(awk -v g="$gate_s" -v a="$p1" -v b="$p2" 'BEGIN { if (a == "-") { print "-"; exit } m = (a < b ? a : b); printf "%.1f", g / m }')
line=$(jq -r --arg n "$name" --arg c "$short" --arg g "$gate_s" --arg p1 "$p1" --arg p2 "$p2" --arg r "$ratio" --arg l "$load1" --arg rc "$rc" '
  [$n, $c, (.verdict // ("rc" + $rc)), ((.score // 0) | floor | tostring), ((.mutants // []) | length | tostring), $g, $p1, $p2, $r,
   ((.timings.setup // 0) * 10 | round / 10 | tostring), ((.timings.baseline // 0) | round | tostring),
   ((.timings.batches // 0) | round | tostring), ((.timings.alone // 0) | round | tostring), ((.timings.ranAlone // 0) | tostring), $l,
   ((.timings.aloneWhy // {}) | to_entries | map("\(.value) \(.key)") | join("; "))] | @tsv' "$json")
echo "$line" | tee -a "$out/results.tsv"
(cd "$wt" && git status --porcelain --ignored | grep -v 'node_modules$' >"$out/$name-$short.left")
(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 2 | head -20 >"$out/$name-$short.lefttmp"); rm -rf "$TMPDIR"
[ -n "${KEEP:-}" ] || { git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt"; }
