#!/usr/bin/env bash
# Fetch-and-install for the gemini-cli trial of bench/mocks41.md:
# packages/core of google-gemini/gemini-cli at COMMIT as a standalone package
# (root tsconfig copied beside it; the workspace-only devDependency
# @google/gemini-cli-test-utils and chrome-devtools-mcp dropped, and the
# package's own optionalDependencies (node-pty, keytar)), npm install --ignore-scripts, in a git
# repository of its own. Usage: setup-gemini.sh MIRROR_GIT_DIR DEST
set -euo pipefail
COMMIT=5411f113cafae26161b4969b0237b8e1e024e2c2
mirror=$1 dest=$2
rm -rf "$dest" && mkdir -p "$dest"
# the mirror may lack its largest blobs: each file present is written, the rest listed in MISSING
git --git-dir "$mirror" ls-tree -r "$COMMIT" packages/core | while read -r mode type sha path; do
  if git --git-dir "$mirror" cat-file -e "$sha" 2>/dev/null; then
    mkdir -p "$dest/$(dirname "$path")" && git --git-dir "$mirror" cat-file blob "$sha" > "$dest/$path"
  else
    echo "$path" >> "$dest/MISSING"
  fi
done
cd "$dest"
mv packages/core/* packages/core/.[!.]* . 2>/dev/null || true
rm -rf packages
git --git-dir "$mirror" show "$COMMIT:tsconfig.json" > tsconfig.base.json
sed -i 's#"../../tsconfig.json"#"./tsconfig.base.json"#' tsconfig.json
node -e '
const p=require("./package.json");
delete p.devDependencies["@google/gemini-cli-test-utils"]; delete p.devDependencies["chrome-devtools-mcp"];
delete p.optionalDependencies; delete p.scripts.posttest;
require("fs").writeFileSync("package.json",JSON.stringify(p,null,2)+"\n");'
npm install --ignore-scripts --no-audit --no-fund --loglevel=error
# what the build generates (scripts/generate-git-commit-info.js): the tests import it
mkdir -p src/generated
printf "export const GIT_COMMIT_INFO = 'trial';\nexport const CLI_VERSION = '0.0.0-trial';\n" > src/generated/git-commit.ts
printf 'node_modules\n' > .gitignore
git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm "gemini-cli $COMMIT packages/core"
