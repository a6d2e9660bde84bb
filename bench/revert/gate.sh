#!/bin/bash
# the new binary's gate on each commit whose Revert mutants changed
out=/work/revtrial/gates; mkdir -p $out
for n in "$@"; do
  r=${n%-*}; c=${n##*-}
  t=/work/trial2; [ -d $t/$r/.git ] || t=/work/trial
  cd $t/$r && git checkout -q -f $c || continue
  s=$(date +%s)
  timeout 900 nice -n 5 /work/revtrial/oracle gate --base $c~1 --no-cache --json > $out/$n.json 2> $out/$n.err
  echo "$n rc=$? $(( $(date +%s) - s ))s" >> $out/progress
  git status --short > $out/$n.status
done
echo done >> $out/progress
