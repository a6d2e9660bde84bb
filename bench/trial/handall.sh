#!/usr/bin/env bash
# The checks by hand of the trial: up to N (default 4) surviving mutants per commit, and every
# mutant counted `timeout` (a time-out under load is the suspicion), applied and run by handcheck.sh.
#   bench/trial/handall.sh GATE_OUT [N]   (FILTER limits the commits, as in all.sh)
here=$(cd "$(dirname "$0")" && pwd)
out=$1 n=${2:-4}
grep -v '^#' "${COMMITS:-$here/commits.txt}" | grep -E "${FILTER:-.}" | while read -r name clone commit _; do
  j=$(ls "$out/$name-$commit"*.json 2>/dev/null | head -1)
  [ -s "$j" ] || continue
  jq -r '[.mutants[] | select(.outcome == "survived")] | .[:'"$n"'] | .[].id' "$j" | while read -r id; do
    "$here/handcheck.sh" "$name" "$clone" "$commit" "$j" "$id" </dev/null
  done
  jq -r '.mutants[] | select(.outcome == "timeout") | .id' "$j" | head -3 | while read -r id; do
    VITEST_EXTRA=--testTimeout=60000 "$here/handcheck.sh" "$name" "$clone" "$commit" "$j" "$id" </dev/null
  done
done
