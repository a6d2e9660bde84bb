#!/usr/bin/env bash
# Ground truth for missing-export (trial copies only): make vitest 3's module
# mock proxy append {file, mock, prop} to $MISSING_LOG each time code reads an
# export the vi.mock factory did not return, before it throws as it always does.
# Usage: patch-vitest.sh REPO_WITH_NODE_MODULES
set -euo pipefail
f=$(grep -l 'export is defined on the "${mock.raw}" mock' "$1"/node_modules/vitest/dist/chunks/*.js)
grep -q MISSING_LOG "$f" && exit 0
perl -0pi -e 's/(if \(this\.filterPublicKeys\.includes\(prop\)\) return void 0;\n)/$1\t\t\t\tif (process.env.MISSING_LOG) process.getBuiltinModule("fs").appendFileSync(process.env.MISSING_LOG, JSON.stringify({ file: globalThis.__vitest_worker__?.filepath, mock: mock.raw, prop: String(prop) }) + "\\n");\n/' "$f"
grep -q MISSING_LOG "$f"
