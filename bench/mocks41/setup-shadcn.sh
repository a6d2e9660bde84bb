#!/usr/bin/env bash
# Fetch-and-install for the shadcn trial of bench/mocks41.md: packages/shadcn of
# shadcn-ui/ui at COMMIT, as a standalone package (the monorepo root's tsconfig
# copied beside it, the root's vitest/vite/vite-tsconfig-paths added), npm
# install --ignore-scripts, committed into a git repository of its own.
# Usage: setup-shadcn.sh MIRROR_GIT_DIR DEST
set -euo pipefail
COMMIT=1773ecfeeb4a04366978d353e69b5c7ded78dcb2
mirror=$1 dest=$2
rm -rf "$dest" && mkdir -p "$dest"
git --git-dir "$mirror" archive "$COMMIT" packages/shadcn tsconfig.json | tar -x -C "$dest"
cd "$dest"
mv packages/shadcn/* packages/shadcn/.[!.]* . 2>/dev/null || true
rm -rf packages
mv tsconfig.json tsconfig.json.pkg 2>/dev/null || true
git --git-dir "$mirror" show "$COMMIT:tsconfig.json" > tsconfig.base.json
sed 's#"../../tsconfig.json"#"./tsconfig.base.json"#' tsconfig.json.pkg > tsconfig.json && rm tsconfig.json.pkg
node -e '
const p=require("./package.json");
Object.assign(p.devDependencies,{vitest:"^3.2.6",vite:"^7.3.2","vite-tsconfig-paths":"^4.2.0"});
require("fs").writeFileSync("package.json",JSON.stringify(p,null,2)+"\n");'
npm install --ignore-scripts --no-audit --no-fund --loglevel=error
printf 'node_modules\n' > .gitignore
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm "shadcn $COMMIT packages/shadcn"
