#!/usr/bin/env bash
# StrykerJS side by side for trial-3: for each COMMIT of NAME, StrykerJS (stryk3.sh) on the commit's
# changed line ranges of production TypeScript, with the gate's related test files (its JSON in
# GATE) as its only tests.
#
#   bench/trial/strykall3.sh NAME CLONE GATE TOOLS BASE_CONFIG COMMIT...
here=$(cd "$(dirname "$0")" && pwd)
name=$1 clone=$2 gate=$3 tools=$4 base=$5; shift 5
for c in "$@"; do
  j=$(ls "$gate"/$name-$c*.json | head -1)
  tests=$(jq -r '[.targets[]?.tests[]?]|unique|join(" ")' "$j")
  mut=$(git -C "$clone" diff -U0 "$c~1" "$c" -- '*.ts' '*.tsx' '*.mts' ':!*.test.ts' ':!*.spec.ts' ':!*.test.tsx' ':!*.d.ts' ':!**/__tests__/**' ':!**/test/**' ':!**/tests/**' |
    awk '/^\+\+\+ b\//{f=substr($2,3)} /^@@/{split($3,a,","); s=substr(a[1],2); n=(a[2]==""?1:a[2]); if(n>0) printf "%s:%d-%d ", f, s, s+n-1}')
  echo "$name $c mutate=[$mut] tests=$(echo $tests | wc -w)"
  [ -n "$tests" ] && [ -n "$mut" ] && bash "$here/stryk3.sh" "$name" "$clone" "$c" "$tools" "$mut" "$tests" "$base"
done
