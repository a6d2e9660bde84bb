#!/usr/bin/env bash
# The composite action's work (action.yml runs it; a Go test runs it with
# stand-in commands): in the repository's directory,
#
#  1. the package manager, from package.json's "packageManager" field, else
#     the lockfile (bun.lock/bun.lockb, pnpm-lock.yaml, yarn.lock,
#     package-lock.json/npm-shrinkwrap.json) in the directory or the nearest
#     one above it inside the checkout; npm when there is none;
#  2. unless ORACLE_INSTALL=false, the repository's dependencies with that
#     manager's frozen install (npm ci, pnpm install --frozen-lockfile, yarn
#     install --immutable or --frozen-lockfile for yarn 1, bun install
#     --frozen-lockfile), pnpm and yarn enabled with corepack and bun installed
#     from npm when the runner lacks them;
#  3. oracle: the repository's own (node_modules/.bin/oracle, its
#     devDependency), else the npm package @oracle-ts/cli when the registry
#     has the version, else the release's prebuilt binary for this platform,
#     else `go install github.com/oracle-ts/oracle/cmd/oracle@VERSION`; the log
#     says which;
#  4. oracle ORACLE_ARGS, its standard output to ORACLE_STDOUT when set, its
#     exit code as the step's output exit-code; the step passes on
#     ORACLE_OK_CODES.
#
# Environment: ORACLE_ARGS, ORACLE_CLI_VERSION (default latest),
# ORACLE_INSTALL (true), ORACLE_PACKAGE_MANAGER (detected), ORACLE_STDOUT,
# ORACLE_OK_CODES ("0"), and GitHub's GITHUB_OUTPUT, GITHUB_WORKSPACE,
# RUNNER_TEMP.
set -euo pipefail

log() { echo "oracle action: $*"; }
die() { echo "::error::oracle action: $*" >&2; exit 3; }

version=${ORACLE_CLI_VERSION:-latest}
version=${version#v}
repo_url=https://github.com/oracle-ts/oracle
module=github.com/oracle-ts/oracle/cmd/oracle
tools=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/oracle-action
top=$(cd "${GITHUB_WORKSPACE:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)}" && pwd)

# 1. The package manager, and the directory its lockfile is in (where it installs).
lockfile() {
  local d=$1
  for f in bun.lock bun.lockb pnpm-lock.yaml yarn.lock package-lock.json npm-shrinkwrap.json; do
    if [ -f "$d/$f" ]; then echo "$f"; return 0; fi
  done
  return 1
}
root=$(pwd) lock=
while :; do
  if lock=$(lockfile "$root"); then break; fi
  if [ "$root" = "$top" ] || [ "$root" = / ] || [[ "$root/" != "$top/"* ]]; then root=$(pwd) lock=; break; fi
  root=$(dirname "$root")
done
pm=${ORACLE_PACKAGE_MANAGER:-}
from="ORACLE_PACKAGE_MANAGER (the action's package-manager input)"
if [ -z "$pm" ] && [ -f "$root/package.json" ]; then
  field=$(grep -o '"packageManager"[[:space:]]*:[[:space:]]*"[a-z]*@' "$root/package.json" | head -1 | sed 's/.*"\([a-z]*\)@$/\1/' || true)
  if [ -n "$field" ]; then pm=$field from="package.json's packageManager"; fi
fi
if [ -z "$pm" ]; then
  case $lock in
    bun.lock|bun.lockb) pm=bun ;;
    pnpm-lock.yaml) pm=pnpm ;;
    yarn.lock) pm=yarn ;;
    *) pm=npm ;;
  esac
  from=${lock:-no lockfile}
  others=
  for f in bun.lock bun.lockb pnpm-lock.yaml yarn.lock package-lock.json; do
    [ "$f" != "$lock" ] && [ -f "$root/$f" ] && others+=" $f"
  done
  [ -n "$others" ] && echo "::warning::oracle action: $root has$others beside $lock: using $pm (set package-manager to choose)"
fi
case $pm in npm|pnpm|yarn|bun) ;; *) die "unknown package manager \"$pm\" (from $from): want npm, pnpm, yarn or bun" ;; esac
where=${root#"$top"}
log "package manager: $pm (from $from) in ${where#/}${where:+/}${where:-.}"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "package-manager=$pm" >>"$GITHUB_OUTPUT"

# 2. The repository's dependencies (vitest and the rest the tests import).
if [ "${ORACLE_INSTALL:-true}" != false ]; then
  export COREPACK_ENABLE_DOWNLOAD_PROMPT=0 # corepack fetches the pinned pnpm or yarn without asking
  if ! command -v "$pm" >/dev/null; then
    case $pm in
      pnpm|yarn)
        if command -v corepack >/dev/null; then log "$pm: corepack enable $pm"; corepack enable "$pm"
        else log "$pm: npm install --global $pm"; npm install --global --no-audit --no-fund "$pm"; fi ;;
      bun) log "bun: npm install --global bun"; npm install --global --no-audit --no-fund bun ;;
    esac
  fi
  install=()
  case $pm in
    npm) if [ -n "$lock" ]; then install=(npm ci); else install=(npm install); fi ;;
    pnpm) install=(pnpm install --frozen-lockfile) ;;
    yarn)
      # Yarn 1 has --frozen-lockfile; Yarn 2 and later --immutable.
      if [[ "$(cd "$root" && yarn --version)" == 1.* ]]; then install=(yarn install --frozen-lockfile)
      else install=(yarn install --immutable); fi ;;
    bun) install=(bun install --frozen-lockfile) ;;
  esac
  [ -z "$lock" ] && echo "::warning::oracle action: no lockfile in $root: $pm installs without one (not frozen)"
  log "dependencies: ${install[*]}"
  (cd "$root" && "${install[@]}")
else
  log "dependencies: not installed (install-dependencies: false)"
fi

# 3. oracle.
platform() {
  local os arch
  case $(uname -s) in
    Linux) os=linux ;; Darwin) os=darwin ;; MINGW*|MSYS*|CYGWIN*|Windows_NT) os=win32 ;;
    *) return 1 ;;
  esac
  case $(uname -m) in
    x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) return 1 ;;
  esac
  if [ "$os" = linux ] && ldd --version 2>&1 | grep -qi musl; then arch+=-musl; fi
  echo "$os-$arch"
}
ext=
case $(uname -s) in MINGW*|MSYS*|CYGWIN*|Windows_NT) ext=.exe ;; esac
oracle=
for d in "$(pwd)" "$root"; do
  if [ -x "$d/node_modules/.bin/oracle" ]; then
    oracle=$d/node_modules/.bin/oracle
    log "oracle: the repository's own @oracle-ts/cli ($oracle)"
    break
  fi
done
if [ -z "$oracle" ] && [ "$(cat "$tools/version" 2>/dev/null)" = "$version" ] && [ -x "$(cat "$tools/path")" ]; then
  oracle=$(cat "$tools/path")
  log "oracle: $(cat "$tools/source") (installed by an earlier step: $oracle)"
fi
if [ -z "$oracle" ]; then
  rm -rf "$tools" && mkdir -p "$tools/bin"
  tried=()
  if published=$(npm view "@oracle-ts/cli@$version" version 2>/dev/null) && [ -n "$published" ]; then
    published=$(echo "$published" | tail -1 | tr -d "'\" ")
    npm install --prefix "$tools/npm" --no-save --no-audit --no-fund --loglevel=error "@oracle-ts/cli@$published" >/dev/null
    bin=$tools/npm/node_modules/.bin/oracle
    source="the npm package @oracle-ts/cli@$published"
  else
    tried+=("the npm registry has no @oracle-ts/cli@$version")
  fi
  if [ -z "${source:-}" ]; then
    if p=$(platform); then
      exe=oracle-$p
      [[ $p == win32-* ]] && exe+=.exe
      if [ "$version" = latest ]; then url=$repo_url/releases/latest/download; else url=$repo_url/releases/download/v$version; fi
      if curl -fsSL --retry 3 -o "$tools/bin/oracle$ext" "$url/$exe" 2>/dev/null; then
        chmod 755 "$tools/bin/oracle$ext"
        bin=$tools/bin/oracle$ext
        source="the release's prebuilt binary $url/$exe"
      else
        rm -f "$tools/bin/oracle$ext"
        tried+=("no release binary at $url/$exe")
      fi
    else
      tried+=("no release binary for $(uname -s)-$(uname -m)")
    fi
  fi
  if [ -z "${source:-}" ]; then
    at=$version
    [ "$at" = latest ] || at=v$at
    if command -v go >/dev/null; then
      log "oracle: go install $module@$at (builds tree-sitter's C parser: minutes)"
      if GOBIN=$tools/bin CGO_ENABLED=1 go install "$module@$at"; then
        bin=$tools/bin/oracle$ext
        source="go install $module@$at"
      else
        tried+=("go install $module@$at failed")
      fi
    else
      tried+=("no go on the PATH for go install $module@$at")
    fi
  fi
  if [ -z "${source:-}" ]; then
    why=$(printf '%s; ' "${tried[@]}")
    die "cannot install oracle $version: ${why%; }. Add @oracle-ts/cli to the repository's devDependencies, or set up Go (actions/setup-go) before this step"
  fi
  echo "$version" >"$tools/version"
  echo "$source" >"$tools/source"
  echo "$bin" >"$tools/path"
  oracle=$bin
  log "oracle: $source"
fi

# 4. The run.
# The arguments are split on spaces and globbed (shards/*.json), as a shell would.
# shellcheck disable=SC2206
args=(${ORACLE_ARGS:-})
[ ${#args[@]} -gt 0 ] || die "no arguments: set the action's args input (e.g. gate --base origin/main)"
set +e
if [ -n "${ORACLE_STDOUT:-}" ]; then
  "$oracle" "${args[@]}" >"$ORACLE_STDOUT"
else
  "$oracle" "${args[@]}"
fi
code=$?
set -e
[ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$code" >>"$GITHUB_OUTPUT"
for ok in ${ORACLE_OK_CODES:-0}; do
  if [ "$code" = "$ok" ]; then exit 0; fi
done
echo "oracle ${args[0]} exited $code (0 PASS/SKIP, 1 FAIL, 2 usage or input, 3 environment)" >&2
exit "$code"
