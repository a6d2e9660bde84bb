#!/usr/bin/env bash
# validator-gate.sh REPORT.md [--strict]: the gate that reads the report `oracle audit --tables`
# writes. Verdict cells are PASS, FAIL or UNKNOWN; only table rows (lines starting with "|") count.
# Exit 0: no FAIL (UNKNOWN cells are gaps a human reads: COMPLETE-WITH-GAPS; --strict fails on them).
# Exit 1: some FAIL (or, with --strict, some UNKNOWN). Exit 2: no report or no verdict in it.
set -euo pipefail
report=${1:?usage: validator-gate.sh REPORT.md [--strict]} strict=${2:-}
[ -r "$report" ] || { echo "validator-gate: cannot read $report" >&2; exit 2; }
pass=0 fail=0 unknown=0
while IFS= read -r line; do
  [[ $line == '|'* ]] || continue
  IFS='|' read -ra cells <<<"${line//\\|/ }"
  for c in "${cells[@]}"; do
    case "${c//[[:space:]]/}" in PASS) pass=$((pass + 1)) ;; FAIL) fail=$((fail + 1)) ;; UNKNOWN) unknown=$((unknown + 1)) ;; esac
  done
done <"$report"
echo "validator-gate: $pass PASS, $fail FAIL, $unknown UNKNOWN"
[ $((pass + fail + unknown)) -gt 0 ] || { echo "validator-gate: no verdict in $report" >&2; exit 2; }
[ "$fail" -eq 0 ] || { echo "INCOMPLETE: $fail FAIL cell(s)"; exit 1; }
if [ "$unknown" -gt 0 ] && [ "$strict" = --strict ]; then echo "INCOMPLETE: $unknown UNKNOWN cell(s) (--strict)"; exit 1; fi
if [ "$unknown" -eq 0 ]; then echo COMPLETE; else echo "COMPLETE-WITH-GAPS: $unknown UNKNOWN cell(s) for a human to read"; fi
