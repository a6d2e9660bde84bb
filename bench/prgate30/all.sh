#!/usr/bin/env bash
# Every pull request of commits.txt (or those whose line matches $1) through run.sh, one after
# the other, into OUT (default /tmp/prgate30/out): bench/prgate30.md's table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/prgate30/out}
mkdir -p "$out"
grep -v '^#' "$here/commits.txt" | grep -- "${1:-.}" | while read -r name clone commit pkg _; do
  "$here/run.sh" "$name" "$clone" "$commit" "$pkg" "$out" </dev/null
done
