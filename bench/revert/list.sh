#!/bin/bash
# for each trial commit: the Revert mutants the old and the new rule plan
out=/work/revtrial/out; mkdir -p $out
for d in /work/trial2/out/* /work/trial/out/*; do
  [ -d "$d" ] || continue
  n=$(basename $d); r=${n%-*}; c=${n##*-}
  t=$(dirname $(dirname $d))
  [ -d $t/$r/.git ] || continue
  [ -f $out/$n.new ] && continue
  cd $t/$r && git checkout -q -f $c || continue
  for v in new; do
    b=/tmp/oracle-list; [ $v = old ] && b=/tmp/oracle-list-old
    ORACLE_TRIAL_LIST=1 timeout 300 nice -n 5 $b gate --base $c~1 --no-cache > /dev/null 2> $out/$n.$v.err
    grep -E "^LIST" $out/$n.$v.err > $out/$n.$v
  done
  echo "$n old=$(grep -c "^LIST " $out/$n.old) new=$(grep -c "^LIST " $out/$n.new)" >> $out/summary
done
echo done >> $out/summary
