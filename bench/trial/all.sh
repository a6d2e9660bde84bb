#!/usr/bin/env bash
# Every commit of commits.txt: `all.sh truth OUT` (coverage truth) or `all.sh gate OUT` (the gate).
# FILTER (a regex on the line) limits the commits.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
what=$1 out=$2
mkdir -p "$out"
grep -v '^#' "${COMMITS:-$here/commits.txt}" | grep -E "${FILTER:-.}" | while read -r name clone commit _; do
  repo_env "$name"
  case $what in
    truth) PATH=$NODE_BIN:$PATH python3 "$here/truth.py" "$name" "$clone" "$commit" "$out" "${TRUTH_OPTS[@]}" >>"$out/truth.log" 2>&1
           echo "truth $name $commit rc=$?" ;;
    gate) "$here/run.sh" "$name" "$clone" "$commit" "$out" ;;
  esac
done
