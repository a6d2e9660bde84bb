#!/bin/bash
out=/work/revtrial/iso; mkdir -p $out
for n in "$@"; do r=${n%-*}; c=${n##*-}; t=/work/trial2; [ -d $t/$r/.git ] || t=/work/trial
  cd $t/$r && git checkout -q -f $c || continue
  for m in batched isolate; do x=""; [ $m = isolate ] && x=--isolate
    timeout 900 /work/revtrial/oracle gate --base $c~1 --no-cache --json $x > $out/$n.$m.json 2>/dev/null; done
  echo "$n done" >> $out/progress; done
echo alldone >> $out/progress
