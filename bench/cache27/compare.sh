#!/usr/bin/env bash
# Cached against --no-cache (bench/cache27.md): for each commit of OUT with both runs, the
# verdicts and every mutant's outcome (by id) of NAME-series-SHORT.json and NAME-nocache-SHORT.json.
#   bench/cache27/compare.sh OUT NAME
# Prints one line per commit: short verdicts mutants same-outcomes differing (ids).
set -u
out=$1 name=$2
for nc in "$out/$name"-nocache-*.json; do
  [ -e "$nc" ] || continue
  short=${nc##*-nocache-}; short=${short%.json}
  for step in series rerun; do
    c=$out/$name-$step-$short.json
    [ -e "$c" ] || continue
    jq -r -n --slurpfile a "$c" --slurpfile b "$nc" --arg s "$short" --arg step "$step" '
      def outs(d): (d.mutants // []) | map({key: .id, value: .outcome}) | from_entries;
      (outs($a[0])) as $x | (outs($b[0])) as $y
      | ([$x | keys[] | select($x[.] == $y[.])] | length) as $same
      | ([($x + $y) | keys[] | select($x[.] != $y[.])]) as $diff
      | [$s, $step, "\($a[0].verdict)/\($b[0].verdict)", "cached \($a[0].cached // 0)", "mutants \($x | length)/\($y | length)",
         "same \($same)", "differ \($diff | length)", ($diff | join(","))] | @tsv'
  done
done
