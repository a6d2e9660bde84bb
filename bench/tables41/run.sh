#!/usr/bin/env bash
# Issue 41 acceptance trial (bench/tables41.md): oracle audit --tables on unjs/changelogen
# at 1721588 with one ticket per commit (tickets/ here).
#
#   REPO=/work/tablestrial/changelogen  where the clone goes (made when missing: cloned,
#                                       checked out at 1721588, npm-installed)
#   ORACLE=oracle                       the binary;  OUT=/tmp/tables41 where the reports go
#
#   bench/tables41/run.sh            # audit --tables, text to $OUT/audit.txt, JSON to $OUT/audit.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-/work/tablestrial/changelogen} ORACLE=${ORACLE:-oracle} OUT=${OUT:-/tmp/tables41}
COMMIT=1721588
if [ ! -d "$REPO" ]; then
  git clone -q https://github.com/unjs/changelogen "$REPO"
  (cd "$REPO" && git checkout -q "$COMMIT" && npm install --no-audit --no-fund --ignore-scripts)
fi
[ "$(git -C "$REPO" rev-parse --short=7 HEAD)" = "$COMMIT" ] || { echo "$REPO is not at $COMMIT" >&2; exit 2; }
mkdir -p "$OUT" "$REPO/tickets"
cp "$here"/tickets/*.yaml "$REPO/tickets/"   # --tickets must be a directory of the repository
cd "$REPO"
set +e
"$ORACLE" audit --tables "$OUT/tables.md" --tickets tickets >"$OUT/audit.txt" 2>"$OUT/audit.err"
echo "audit exit $?" >>"$OUT/audit.txt"
"$ORACLE" audit --json --tables "$OUT/tables-json.md" --tickets tickets >"$OUT/audit.json" 2>>"$OUT/audit.err"
echo "audit --json exit $?" >>"$OUT/audit.err"
git status --porcelain --ignored >"$OUT/left-behind.txt"   # expected: package-lock.json (npm), tickets/ (ours)
