#!/usr/bin/env bash
# The issue 29 trial (bench/audit-trial29.md): oracle audit --tables on real
# repositories, and the planted faults. Not in CI: it needs the copies below.
#
#   AI=/tmp/ai-tables     a copy of vercel/ai at c6d57f3902, pnpm-installed
#                         (ai, provider-utils, openai and their dependencies)
#   NUXT=/tmp/nuxt29      a copy of nuxt/cli at 41863327, pnpm-installed
#   ORACLE=oracle         the binary; OUT=/tmp/t29 where the reports go
#
#   bench/audit29/run.sh planted   # copy the planted tests in, audit them, score
#   bench/audit29/run.sh ai        # audit --tables on packages/ai
#   bench/audit29/run.sh nuxt      # audit --tables on nuxt/cli
#   bench/audit29/run.sh clean     # remove the planted files from the copy
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
AI=${AI:-/tmp/ai-tables} NUXT=${NUXT:-/tmp/nuxt29} ORACLE=${ORACLE:-oracle} OUT=${OUT:-/tmp/t29}
export PATH=${NODE_BIN:-/work/main/testdata/vitest5/node_modules/node/bin}:$PATH
mkdir -p "$OUT"
pkg=$AI/packages/ai
case ${1:-} in
  planted)
    cp -r "$here/planted/." "$pkg/"
    (cd "$pkg" && "$ORACLE" audit --root . --config vitest.planted.config.js --json --timings \
      --enable vacuous-test/no-assertion --tables "$OUT/planted-tables.md" src/planted >"$OUT/planted.json" 2>"$OUT/planted.err") || true
    python3 "$here/score.py" "$OUT/planted.json" ;;
  ai)
    (cd "$pkg" && "$ORACLE" audit --root . --config vitest.node.config.js --json --timings \
      --tables "$OUT/ai-tables.md" >"$OUT/ai.json" 2>"$OUT/ai.err") || true ;;
  nuxt)
    (cd "$NUXT" && "$ORACLE" audit --root . --json --timings --tables "$OUT/nuxt-tables.md" >"$OUT/nuxt.json" 2>"$OUT/nuxt.err") || true ;;
  clean)
    rm -rf "$pkg/src/planted" "$pkg/src/types/__mocks__" "$pkg/vitest.planted.config.js" ;;
  *) sed -n 2,15p "$0"; exit 2 ;;
esac
