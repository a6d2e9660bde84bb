#!/usr/bin/env bash
# One commit of the trial (issues 26 and 27): check COMMIT out in a detached worktree of the clone
# CLONE, link the clone's node_modules (every node_modules directory of the clone, at the same
# relative path: pnpm workspaces have one per package), run `oracle gate --base HEAD~1 --json
# --no-cache`, keep the JSON and stderr under OUT, and remove the worktree.
#
#   bench/trial/run.sh NAME CLONE COMMIT OUT [extra gate flags...]
#
# Environment: ORACLE (default /tmp/oracle-trial), NODE_BIN (a directory put first on PATH),
# DEPS (a node_modules directory linked as the worktree's root node_modules when the clone has none).
set -u
TRIAL=${TRIAL:-/tmp/trial}  # the trial's scratch directory (worktrees, temp dirs)
name=$1 clone=$2 commit=$3 out=$4; shift 4
oracle=${ORACLE:-/tmp/oracle-trial}
[ -n "${NODE_BIN:-}" ] && export PATH=$NODE_BIN:$PATH
mkdir -p "$out"
short=$(git -C "$clone" rev-parse --short=9 "$commit")
wt=$TRIAL/wt/$name-$short
git -C "$clone" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
git -C "$clone" worktree add -q --detach "$wt" "$commit" || exit 3
# node_modules: the clone's own (root and workspace packages), else DEPS at the root.
if [ -d "$clone/node_modules" ]; then
  (cd "$clone" && find . -name node_modules -type d -prune -not -path './node_modules/*' -not -path '*/.tmp-*' 2>/dev/null) |
  while read -r d; do
    [ -d "$wt/$(dirname "$d")" ] && [ ! -e "$wt/$d" ] && ln -s "$clone/$d" "$wt/$d"
  done
elif [ -n "${DEPS:-}" ]; then
  ln -s "$DEPS" "$wt/node_modules"
fi
envf=$TRIAL/run-$name.env; [ -f "$envf" ] && . "$envf"  # per-repository settings
# a node_modules link does not match `node_modules/` in .gitignore (finding 1): EXCLUDE_LINKS=1 hides it                        
if [ -n "${EXCLUDE_LINKS:-}" ]; then
  printf 'node_modules\n' >"$TRIAL/gitexclude"
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.excludesFile GIT_CONFIG_VALUE_0=$TRIAL/gitexclude
fi
# a temporary directory of its own: what the gate leaves there is listed in .lefttmp
export TMPDIR=$TRIAL/tmp/$name-$short
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
start=$(date +%s) sha=$(sha1sum "$oracle" | cut -c1-10)  # which build ran (the binary may be replaced between runs)
(cd "$wt" && timeout "${GATE_TIMEOUT:-900}" "$oracle" gate --base HEAD~1 --json --no-cache --timings "$@" \
  >"$out/$name-$short.json" 2>"$out/$name-$short.err")
rc=$?
echo "$rc $(( $(date +%s) - start )) oracle-sha1=$sha $( [ -f "${envf:-}" ] && tr '\n' ' ' <"$envf")" >"$out/$name-$short.rc"
# what the gate left in the checkout (it must leave nothing)
(cd "$wt" && git status --porcelain --ignored | grep -v ' node_modules$' | grep -v '/node_modules$' >"$out/$name-$short.left")
(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 2 | head -20 >"$out/$name-$short.lefttmp"); rm -rf "$TMPDIR"
[ -n "${KEEP:-}" ] || { git -C "$clone" worktree remove --force "$wt"; rm -rf "$wt"; }
echo "$name $short rc=$rc $(jq -r '[.verdict, (.score|tostring), .reason // ""] | join(" | ")' "$out/$name-$short.json" 2>/dev/null)"
