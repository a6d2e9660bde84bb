#!/usr/bin/env bash
# StrykerJS side by side (trial-3): StrykerJS on the changed lines of one commit, with the gate's
# related test files as its only tests, in a fresh worktree of COMMIT whose node_modules are the
# clone's own (every node_modules directory linked at its place, as run.sh does), StrykerJS from
# TOOLS (a directory with @stryker-mutator/{core,vitest-runner} and the repository's vitest version).
#
#   bench/trial/stryk3.sh NAME CLONE COMMIT TOOLS "file:lines ..." "test ..." [BASE_CONFIG]
#
# BASE_CONFIG: the repository's vitest config, merged under StrykerJS's (its aliases, define,
# setupFiles), with its projects dropped and `include` the given tests (vuejs/core: the aliases
# computed in scripts/aliases.js). STRYK_PROJECTS (JSON: project name -> path regex, first match
# wins) keeps the base config's projects of those names instead, each with its share of the tests
# (vuejs/core: jsdom for runtime-dom and vue, --expose-gc for two ssr files); STRYK_DROP (a regex)
# leaves tests out (a project that needs a browser); STRYK_TEST (JSON) adds vitest test options
# (jotai: a testTimeout its deep-graph test needs under perTest coverage on a loaded machine). StrykerJS mutates the worktree in place (its
# sandbox links only the root node_modules; a pnpm workspace's packages keep their own). Writes
# $TRIAL/stryker-NAME-COMMIT.json.
set -u
TRIAL=${TRIAL:-/tmp/trial3}
name=$1 clone=$2 commit=$3 tools=$4 mutate=$5 tests=$6 base=${7:-}
wt=$TRIAL/wt/stryker-$name-$commit
git -C "$clone" worktree remove --force "$wt" 2>/dev/null; rm -rf "$wt"
git -C "$clone" worktree add -q --detach "$wt" "$commit" || exit 3
(cd "$clone" && find . -name node_modules -type d -prune -not -path './node_modules/*' 2>/dev/null) |
  while read -r d; do [ -d "$wt/$(dirname "$d")" ] && [ ! -e "$wt/$d" ] && ln -s "$clone/$d" "$wt/$d"; done
cd "$wt"
python3 - "$mutate" "$tests" "$TRIAL/stryker-$name-$commit.json" "$base" "$tools" <<'PY'
import json, sys
m, t, out, base, tools = sys.argv[1].split(), sys.argv[2].split(), sys.argv[3], sys.argv[4], sys.argv[5]
import os, re
projects = json.loads(os.environ.get("STRYK_PROJECTS") or "null")  # {"project name": "path regex", ...}, first match wins
drop = os.environ.get("STRYK_DROP")  # tests left out (a browser or e2e project's, red here)
if drop:
    t = [x for x in t if not re.search(drop, x)]
if base and projects:
    per = {n: [] for n in projects}
    for x in t:
        n = next((n for n, r in projects.items() if re.search(r, x)), None)
        if n:
            per[n].append(x)
    per = {n: xs for n, xs in per.items() if xs}
    cfg = ('import { defineConfig } from "vitest/config";\nimport base from "./%s";\n'
           'const per = %s;\n'
           'const projects = base.test.projects.filter((p) => per[p.test?.name]).map((p) => ({ ...p, test: { ...p.test, include: per[p.test.name], exclude: [] } }));\n'
           'export default defineConfig({ ...base, test: { ...base.test, projects } });\n' % (base, json.dumps(per)))
elif base:
    extra = json.loads(os.environ.get("STRYK_TEST") or "{}")  # more vitest test options (jotai: testTimeout under load)
    cfg = ('import { defineConfig } from "vitest/config";\nimport base from "./%s";\n'
           'const { projects, ...test } = base.test ?? {};\n'
           'export default defineConfig({ ...base, test: { ...test, include: %s, ...%s } });\n' % (base, json.dumps(t), json.dumps(extra)))
else:
    cfg = 'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { include: %s } });\n' % json.dumps(t)
open("stryker.vitest.config.mjs", "w").write(cfg)
json.dump({"testRunner": "vitest", "vitest": {"configFile": "stryker.vitest.config.mjs", "related": False},
           "plugins": [tools + "/node_modules/@stryker-mutator/vitest-runner/dist/src/index.js"], "tsconfigFile": "stryker-no-tsconfig.json",
           "coverageAnalysis": "perTest", "mutate": m, "reporters": ["json"], "jsonReporter": {"fileName": out},
           "concurrency": 2, "cleanTempDir": "always", "timeoutMS": 60000, "dryRunTimeoutMinutes": 20, "inPlace": True,
           "ignorePatterns": ["coverage"]}, open("stryker.config.json", "w"))
PY
PATH=${NODE_BIN:-/work/main/testdata/vitest5/node_modules/node/bin}:$PATH timeout 1500 node "$tools/node_modules/@stryker-mutator/core/bin/stryker.js" run >"$TRIAL/stryker-$name-$commit.log" 2>&1
echo "$name $commit stryker rc=$?"
cd /; git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt"
