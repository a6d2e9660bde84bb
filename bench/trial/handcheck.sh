#!/usr/bin/env bash
# The check by hand of one mutant of the trial: apply its diff (from the gate's JSON) to a fresh
# worktree of COMMIT, run its target's related test files with the repository's vitest, and say
# whether the suite stays green (the mutant survives) or goes red (killed). Also runs the same test
# files unmutated first, so a red baseline is not taken for a kill.
#
#   bench/trial/handcheck.sh NAME CLONE COMMIT GATE_JSON MUTANT_ID [TEST_FILE...]
set -u
TRIAL=${TRIAL:-/tmp/trial}  # the trial's scratch directory (worktrees, temp dirs)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
name=$1 clone=$2 commit=$3 json=$4 id=$5; shift 5
repo_env "$name"
export PATH=$NODE_BIN:$PATH CI=1
short=$(git -C "$clone" rev-parse --short=9 "$commit")
wt=$TRIAL/wt/hand-$name-$short-$$
git -C "$clone" worktree add -q --detach "$wt" "$commit" || exit 3
if [ -d "$clone/node_modules" ]; then
  (cd "$clone" && find . -name node_modules -type d -prune -not -path './node_modules/*' -not -path '*/.tmp-*' 2>/dev/null) |
  while read -r d; do [ -d "$wt/$(dirname "$d")" ] && [ ! -e "$wt/$d" ] && ln -s "$clone/$d" "$wt/$d"; done
else ln -s "$DEPS" "$wt/node_modules"; fi
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  mapfile -t tests < <(jq -r --arg id "$id" '.mutants[] | select(.id == $id) | .target as $t | $t' "$json" |
    xargs -I{} jq -r --arg t {} '.targets[] | select(.id == $t) | .tests[]' "$json")
fi
jq -r --arg id "$id" '.mutants[] | select(.id == $id) | .diff' "$json" >"$wt/.mutant.diff"
cd "$wt"
# VITEST_EXTRA: more vitest flags (handall.sh gives a `timeout` mutant --testTimeout=60000)
read -r -a extra <<<"${VITEST_EXTRA:-}"
tests+=("${extra[@]}")
base=$(timeout 600 node_modules/.bin/vitest run "${tests[@]}" >$TRIAL/hand-base-$$.log 2>&1; echo $?)
git apply --unidiff-zero .mutant.diff || { echo "$name $short $id: the diff does not apply"; exit 3; }
mut=$(timeout 600 node_modules/.bin/vitest run "${tests[@]}" >$TRIAL/hand-mut-$$.log 2>&1; echo $?)
verdict=$([ "$base" = 0 ] && { [ "$mut" = 0 ] && echo SURVIVES || echo KILLED; } || echo "RED-BASELINE")
echo "$name $short $id: baseline rc=$base mutant rc=$mut -> $verdict (tests: ${tests[*]})"
[ "$mut" = 0 ] || grep -m3 -E "FAIL|AssertionError|Error:" $TRIAL/hand-mut-$$.log | sed 's/^/    /'
cd /; git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt" $TRIAL/hand-*-$$.log
