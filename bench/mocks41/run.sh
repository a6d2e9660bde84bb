#!/usr/bin/env bash
# Reproduces bench/mocks41.md: fetch-and-install the two trial packages,
# list their mocks with the TypeScript checker, log what their runs read of
# the exports factories leave out, and score oracle audit (main and this
# branch) against that ground truth.
# Usage: run.sh SHADCN_MIRROR_GIT GEMINI_MIRROR_GIT ORACLE_BEFORE ORACLE_AFTER [WORK]
# (the mirrors are git directories of shadcn-ui/ui and google-gemini/gemini-cli
# holding the commits the setup scripts name). One vitest run at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shadcn_git=$1 gemini_git=$2 before=$3 after=$4 work=${5:-/tmp/mocks41}
mkdir -p "$work" && cd "$work"
"$here/setup-shadcn.sh" "$shadcn_git" "$work/shadcn-pkg"
"$here/setup-gemini.sh" "$gemini_git" "$work/gemini-core"
for r in shadcn-pkg gemini-core; do "$here/patch-vitest.sh" "$work/$r"; done
node "$here/mocks.mjs" shadcn-pkg src > shadcn-rows.tsv
node --max-old-space-size=4096 "$here/mocks.mjs" gemini-core src > gemini-rows.tsv
for r in shadcn-pkg gemini-core; do
  (cd "$r" && "$before" audit --static --json > "$work/$r-before.json" || true)
  (cd "$r" && "$after" audit --static --json > "$work/$r-after.json" || true)
done
(cd shadcn-pkg && "$after" audit --json > "$work/shadcn-pkg-after-measured.json" || true)
# the runs' reads of omitted exports: shadcn's whole suite, gemini's test
# files with a missing-export finding before (resolver.test.ts of shadcn
# imports ../../../tests/src/utils/registry of the monorepo: without it, it
# does not load)
(cd shadcn-pkg && MISSING_LOG="$work/shadcn-missing.log" npx vitest run --pool=forks --poolOptions.forks.maxForks=1 > "$work/shadcn-run.txt" 2>&1 || true)
python3 -c "import json;print('\n'.join(sorted({f['file'] for f in json.load(open('$work/gemini-core-before.json'))['findings'] if f['rule']=='mock-drift/missing-export'})))" > gemini-files.txt
(cd gemini-core && MISSING_LOG="$work/gemini-missing.log" npx vitest run --coverage.enabled=false --poolOptions.forks.maxForks=1 $(cat "$work/gemini-files.txt") > "$work/gemini-run.txt" 2>&1 || true)
touch shadcn-missing.log gemini-missing.log
python3 "$here/score.py" shadcn-rows.tsv "$here/verdicts-shadcn.tsv" shadcn-missing.log shadcn-pkg-before.json shadcn-pkg-after.json shadcn-pkg-after-measured.json > shadcn-mocks.tsv
python3 "$here/score.py" gemini-rows.tsv "$here/verdicts-gemini.tsv" gemini-missing.log gemini-core-before.json gemini-core-after.json > gemini-mocks.tsv
