#!/usr/bin/env bash
# Per-test selection before/after (bench/prgate30.md, "Per-test selection"): the gate of
# two oracle binaries on the same commits, interleaved (before, after) ROUNDS times, through
# run.sh with one plain vitest run after each gate.
#
#   BEFORE=bin AFTER=bin bench/prgate30/pertest.sh ROUNDS OUT [PATTERN]
#
# Each round runs every line of commits.txt that matches PATTERN with BEFORE, then with AFTER
# (names pt30b-ROUND and pt30a-ROUND: their JSON documents are OUT/pt30{b,a}-ROUND-COMMIT.json).
# A round waits until the 1-minute load average is under MAXLOAD (default 6).
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=$1 out=$2 pat=${3:-.}
mkdir -p "$out"
waitload() {
  while awk -v m="${MAXLOAD:-6}" '{ exit !($1 >= m) }' /proc/loadavg; do sleep 20; done
}
for r in $(seq 1 "$rounds"); do
  grep -v '^#' "$here/commits.txt" | grep -- "$pat" | while read -r name clone commit pkg _; do
    for side in b a; do
      bin=$BEFORE; [ $side = a ] && bin=$AFTER
      waitload
      echo "== round $r $side $commit $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >&2
      ORACLE=$bin PLAIN=1 "$here/run.sh" "pt30$side-$r" "$clone" "$commit" "$pkg" "$out" </dev/null
    done
  done
done
