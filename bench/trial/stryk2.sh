#!/usr/bin/env bash
# StrykerJS side by side (trial-2): StrykerJS on the changed lines of one commit, with the gate's related
# test files as its only tests, in a fresh worktree of COMMIT.
#
#   bench/trial/stryk2.sh NAME CLONE COMMIT NODE_MODULES "file:lines ..." "test ..." [TEST_OPTIONS_JSON]
#
# NODE_MODULES holds the repository's dependencies and @stryker-mutator/{core,vitest-runner} (one vitest
# for both); TEST_OPTIONS_JSON is merged into the vitest `test` options of the config StrykerJS uses
# (hono: {"globals": true}). Writes $TRIAL/stryker-NAME-COMMIT.json (mutation-testing-report-schema).
set -u
TRIAL=${TRIAL:-/tmp/trial2}
name=$1 clone=$2 commit=$3 deps=$4 mutate=$5 tests=$6 extra=${7:-'{}'}
wt=$TRIAL/wt/stryker-$name-$commit
git -C "$clone" worktree add -q --detach "$wt" "$commit" || exit 3
cd "$wt" && ln -s "$deps" node_modules
python3 - "$mutate" "$tests" "$TRIAL/stryker-$name-$commit.json" "$extra" <<'PY'
import json, sys
m, t, out, extra = sys.argv[1].split(), sys.argv[2].split(), sys.argv[3], json.loads(sys.argv[4])
opts = {"include": t, **extra}
open("stryker.vitest.config.mjs", "w").write('import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: %s });\n' % json.dumps(opts))
json.dump({"testRunner": "vitest", "vitest": {"configFile": "stryker.vitest.config.mjs", "related": False},
           "coverageAnalysis": "perTest", "mutate": m, "reporters": ["json"], "jsonReporter": {"fileName": out},
           "concurrency": 2, "cleanTempDir": "always", "timeoutMS": 60000,
           "ignorePatterns": ["coverage"]}, open("stryker.config.json", "w"))
PY
PATH=${NODE_BIN:-/work/main/testdata/vitest5/node_modules/node/bin}:$PATH timeout 1200 node_modules/.bin/stryker run >"$TRIAL/stryker-$name-$commit.log" 2>&1
echo "$name $commit stryker rc=$?"
cd /; git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt"
