#!/usr/bin/env bash
# A hand-rolled `oracle prove` for this sample: runs one test file against the unmodified
# code (baseline) and against every mutant in scripts/mutants.py, each in a throwaway copy
# under $TMPDIR (node_modules linked, not copied). The sample itself is never modified.
#
#   scripts/prove-reference.sh [TEST_FILE] [VITEST_CONFIG]
#   defaults: reference/processItem.hoisted.oracle.test.ts vitest.reference.config.ts
#   VITEST="npx vitest" (override to use another runner binary)
#
# Exit 0 when the baseline passes and every mutant is killed, else 1. (For the route test,
# `scripts/prove-reference.sh test/routes.test.ts vitest.config.ts` shows every mutant
# SURVIVING: the route layer is blind to the guard.)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
FILE=${1:-reference/processItem.hoisted.oracle.test.ts}
CFG=${2:-vitest.reference.config.ts}
VITEST=${VITEST:-npx vitest}
[ -d "$HERE/node_modules" ] || { echo "run npm ci in $HERE first" >&2; exit 3; }
NAMES=$(cd "$HERE/scripts" && PYTHONDONTWRITEBYTECODE=1 python3 -c 'import mutants; print("\n".join(mutants.M))')
status=0
for m in $NAMES; do
  D=$(mktemp -d "${TMPDIR:-/tmp}/oracle-prove.XXXXXX")
  (cd "$HERE" && tar --exclude=./node_modules -cf - .) | (cd "$D" && tar xf -)
  ln -s "$HERE/node_modules" "$D/node_modules"
  python3 "$HERE/scripts/mutants.py" "$m" "$D/src/server/index.ts"
  OUT=$(cd "$D" && $VITEST run -c "$CFG" "$FILE" 2>&1)
  RC=$?
  rm -rf "$D"
  FIRST=$(printf '%s\n' "$OUT" | sed 's/\x1b\[[0-9;]*m//g' | grep -m1 -E "AssertionError|Error:" | sed 's/^ *//')
  if [ "$m" = baseline ]; then
    if [ $RC -eq 0 ]; then verdict=passed; else verdict=failed; status=1; fi
  else
    if [ $RC -ne 0 ]; then verdict=killed; else verdict=SURVIVED; status=1; fi
  fi
  printf '%-44s %-9s %s\n' "$m" "$verdict" "$FIRST"
done
exit $status
