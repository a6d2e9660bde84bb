#!/usr/bin/env bash
# The Node.js version the repository asks for, as actions/setup-node's
# node-version input takes it (the composite action's first step runs this;
# a Go test runs it on sample repositories). In the repository's directory
# (the working directory), the first of:
#
#  1. ORACLE_NODE_VERSION (the action's node-version input);
#  2. .nvmrc, else .node-version, the nearest from the directory up to the
#     checkout's top (its first line: "22", "v22.13.1", "lts/jod", "lts/*");
#  3. package.json's engines.node (the nearest package.json that has it): the
#     active LTS (lts/*) when the range allows it, else the range itself
#     (setup-node takes the highest version in it);
#  4. the active LTS, lts/* (Node 24 when this was written).
#
# The package manager's own need (package.json's packageManager: pnpm 11
# runs on Node >= 22.13 only, pnpm 9-10, yarn 4 on >= 18.12, npm 11 on
# >= 20.17) is checked against a version from 2-3: one it rules out is
# replaced by the active LTS, with a warning, since the install could not
# run on it (pnpm 11 on Node 20: "No such built-in module:
# node:sqlite").
#
# Prints "version=V" and "from=WHY" (the step appends them to
# GITHUB_OUTPUT); warnings go to stderr as ::warning:: lines.
set -euo pipefail

lts_major=24 # the active LTS's major, to check a range against: keep it current
top=$(cd "${GITHUB_WORKSPACE:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}" && pwd)

# up NAME [PATTERN]: the nearest file NAME (holding PATTERN when given) from
# the working directory up to the checkout's top.
up() {
  local d
  d=$(pwd)
  while :; do
    if [ -f "$d/$1" ] && { [ -z "${2:-}" ] || grep -q "$2" "$d/$1"; }; then echo "$d/$1"; return 0; fi
    if [ "$d" = "$top" ] || [ "$d" = / ] || [[ "$d/" != "$top/"* ]]; then return 1; fi
    d=$(dirname "$d")
  done
}

# json_string FILE OBJECT KEY: the string KEY of the object OBJECT ("" for
# the top level) of a package.json, read without a JSON parser (no Node yet).
json_string() {
  local flat
  flat=$(tr -d '\n\r' <"$1")
  if [ -n "$2" ]; then
    flat=$(echo "$flat" | grep -o "\"$2\"[[:space:]]*:[[:space:]]*{[^}]*}" | head -1 || true)
  fi
  echo "$flat" | grep -o "\"$3\"[[:space:]]*:[[:space:]]*\"[^\"]*\"" | head -1 | sed 's/.*:[[:space:]]*"\(.*\)"$/\1/' || true
}

# parts V: "MAJOR MINOR PATCH" of a version ("22", "v22.13", "22.x"), a
# missing or wild part 999 (the highest: setup-node takes the latest of
# "22"); lts/NAME is its major; nothing for what is no version (lts/*,
# node, a range).
parts() {
  local v=${1#v} a b c
  case $v in
    lts/hydrogen) v=18 ;; lts/iron) v=20 ;; lts/jod) v=22 ;; lts/krypton) v=24 ;;
    lts/\* | lts/latest | node | latest | current) return 1 ;;
  esac
  [[ $v =~ ^[0-9]+(\.([0-9]+|x|\*))?(\.([0-9]+|x|\*))?$ ]] || return 1
  IFS=. read -r a b c <<<"$v"
  [[ ${b:-x} =~ ^[0-9]+$ ]] || b=999
  [[ ${c:-x} =~ ^[0-9]+$ ]] || c=999
  echo "$a $b $c"
}

# cmp A B: -1, 0 or 1 as the versions A and B ("MAJOR MINOR PATCH") compare.
cmp() {
  local a b i
  read -ra a <<<"$1"
  read -ra b <<<"$2"
  for i in 0 1 2; do
    if ((a[i] < b[i])); then echo -1; return; fi
    if ((a[i] > b[i])); then echo 1; return; fi
  done
  echo 0
}

# allows RANGE V: whether the latest release of V ("MAJOR 999 999" for a
# major) is in the semver RANGE (||, space-separated comparators >= > <= <
# = ^ ~, X, X.x, *); a form it does not know allows nothing.
allows() {
  local range=$1 v=$2 alt c op ver p lo hi ok
  IFS='|' read -ra alts <<<"${range//||/|}"
  for alt in "${alts[@]}"; do
    ok=1
    # "a - b" (a hyphen range): >=a <=b.
    alt=$(echo "$alt" | sed -E 's/([0-9x*.]+)[[:space:]]+-[[:space:]]+([0-9x*.]+)/>=\1 <=\2/')
    # ">= 18" with a space: one comparator.
    alt=$(echo "$alt" | sed -E 's/(>=|<=|>|<|=|\^|~)[[:space:]]+/\1/g')
    for c in $alt; do
      op=$(echo "$c" | sed -E 's/^(>=|<=|>|<|=|\^|~)?.*/\1/')
      ver=${c#"$op"}
      if [ "$ver" = "*" ] || [ "$ver" = x ]; then continue; fi
      p=$(parts "$ver") || { ok=0; break; }
      read -r lo _ _ <<<"$p"
      case $op in
        ">=") [ "$(cmp "$v" "$(echo "$p" | sed 's/999/0/g')")" -ge 0 ] || ok=0 ;;
        ">") [ "$(cmp "$v" "$p")" -gt 0 ] || ok=0 ;;
        "<=") [ "$(cmp "$v" "$p")" -le 0 ] || ok=0 ;;
        "<") hi=$(echo "$p" | sed 's/999/0/g'); [ "$(cmp "$v" "$hi")" -lt 0 ] || ok=0 ;;
        "^" | "~" | "=" | "")
          read -r maj _ _ <<<"$v"
          { [ "$maj" = "$lo" ] && [ "$(cmp "$v" "$(echo "$p" | sed 's/999/0/g')")" -ge 0 ]; } || ok=0 ;;
      esac
      [ "$ok" = 1 ] || break
    done
    if [ "$ok" = 1 ]; then return 0; fi
  done
  return 1
}

# The package manager's need: the lowest Node it runs on, "" when none is known.
need= pm_name=
if pj=$(up package.json '"packageManager"'); then
  pm_spec=$(json_string "$pj" "" packageManager)
  pm_spec=${pm_spec%%+*} # without its hash
  pm_name=${pm_spec%%@*}
  pm_major=$(echo "${pm_spec#*@}" | sed -E 's/^[^0-9]*([0-9]+).*/\1/')
  case $pm_name@$pm_major in
    pnpm@1[1-9]) need=22.13 ;;
    pnpm@9 | pnpm@10 | yarn@4) need=18.12 ;;
    npm@11) need=20.17 ;;
    npm@10) need=18.17 ;;
  esac
fi

version= from=
if [ -n "${ORACLE_NODE_VERSION:-}" ]; then
  version=$ORACLE_NODE_VERSION from="ORACLE_NODE_VERSION (the action's node-version input)"
elif f=$(up .nvmrc) || f=$(up .node-version); then
  version=$(head -1 "$f" | tr -d '[:space:]')
  from=${f#"$top/"}
elif pj=$(up package.json '"engines"'); then
  range=$(json_string "$pj" engines node)
  if [ -n "$range" ]; then
    if allows "$range" "$lts_major 999 999"; then
      version="lts/*" from="the active LTS, which ${pj#"$top/"}'s engines.node \"$range\" allows"
    else
      version=$range from="${pj#"$top/"}'s engines.node"
    fi
  fi
fi
if [ -z "$version" ]; then
  version="lts/*" from="the active LTS (the repository names no Node version)"
fi

# The package manager's need, against a version the repository named: one
# older is replaced by the active LTS (by the range of the need when the LTS
# is older still).
if [ -n "$need" ] && [ -z "${ORACLE_NODE_VERSION:-}" ] && p=$(parts "$version") &&
  [ "$(cmp "$p" "$(parts "$need" | sed 's/999/0/g')")" -lt 0 ]; then
  use="lts/*"
  if ! allows ">=$need" "$lts_major 999 999"; then use=">=$need"; fi
  echo "::warning::oracle action: Node $version (from $from) is older than $pm_spec runs on (Node >= $need): using $use" >&2
  from="$pm_spec's need, Node >= $need ($from says $version)" version=$use
fi
echo "version=$version"
echo "from=$from"
