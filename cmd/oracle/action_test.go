package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// actionStubs are the commands the action's script may run, as stand-ins
// that log each call ("name args [in DIR]") to $CALLS and do what the test
// asks through FAKE_* variables: npm view answers FAKE_PUBLISHED (else 404),
// an install of the dependencies leaves node_modules/.bin/oracle when
// FAKE_DEVDEP is set, npm install --prefix and go install leave an oracle,
// curl downloads one when FAKE_RELEASE is set, corepack and npm install
// --global put the package manager on the PATH, ldd says musl when FAKE_MUSL
// is set. Every stand-in oracle prints where it came from and its arguments.
var actionStubs = map[string]string{
	"npm": `log npm "$@"
case $1 in
  view) [ -n "$FAKE_PUBLISHED" ] && { echo "$FAKE_PUBLISHED"; exit 0; }; echo "npm error 404 Not Found" >&2; exit 1 ;;
  ci) devdep ;;
  install)
    case " $* " in
      *" --global "*) for a in "$@"; do last=$a; done; cp "$STUBS/.pm" "$STUBS/$last"; chmod 755 "$STUBS/$last" ;;
      *" --prefix "*) while [ "$1" != --prefix ]; do shift; done; fake "$2/node_modules/.bin/oracle" "npm package" ;;
      *) devdep ;;
    esac ;;
esac`,
	".pm": `log "$(basename "$0")" "$@"
case $1 in
  --version) echo "${FAKE_YARN_VERSION:-1.22.22}" ;;
  install) devdep ;;
esac`,
	"corepack": `log corepack "$@"; cp "$STUBS/.pm" "$STUBS/$2"; chmod 755 "$STUBS/$2"`,
	"curl":     `log curl "$@"; [ -n "$FAKE_RELEASE" ] || exit 22; while [ "$1" != -o ]; do shift; done; fake "$2" release`,
	"go":       `log go "$@"; fake "$GOBIN/oracle" "go install"`,
	"ldd":      `[ -n "$FAKE_MUSL" ] && echo "musl libc (x86_64)" || echo "ldd (GNU libc) 2.36"`,
}

// TestActionScript runs docs/github/actions/oracle/oracle.sh on sample
// repositories with each lockfile (npm, pnpm, yarn 1 and 4, bun), with
// stand-ins for the package managers, curl and go: the package manager it
// picks, the frozen install it runs (and where), and where oracle comes from
// (the repository's devDependency, the published npm package, the release's
// binary for this platform, go install), each said in the log.
func TestActionScript(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the release binary's name is checked for linux-x64")
	}
	script, err := filepath.Abs("../../docs/github/actions/oracle/oracle.sh")
	if err != nil {
		t.Fatal(err)
	}
	// A PATH with the stand-ins and the few real tools the script uses, and
	// no real npm, pnpm, yarn, bun, corepack, curl or go.
	tools := func(t *testing.T, stubs string, with ...string) {
		for _, name := range []string{"bash", "sh", "sed", "head", "tail", "tr", "cat", "cp", "dirname", "basename", "mkdir", "rm", "chmod", "uname", "grep"} {
			p, err := exec.LookPath(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p, filepath.Join(stubs, name)); err != nil {
				t.Fatal(err)
			}
		}
		lib := `#!/bin/bash
log() { n=$1; shift; d=${PWD#"$SAMPLE"}; echo "$n $*${d:+ [in ${d#/}]}" >>"$CALLS"; }
fake() { mkdir -p "$(dirname "$1")"; printf '#!/bin/sh\necho "oracle (%s): $*"\nexit ${FAKE_EXIT:-0}\n' "$2" >"$1"; chmod 755 "$1"; }
devdep() { [ -n "$FAKE_DEVDEP" ] && fake node_modules/.bin/oracle devDependency; true; }
`
		for name, body := range actionStubs {
			keep := name == ".pm" || name == "ldd"
			for _, w := range with {
				keep = keep || w == name
			}
			if keep {
				os.WriteFile(filepath.Join(stubs, name), []byte(lib+body+"\n"), 0o755)
			}
		}
		for _, w := range with { // a package manager on the runner already
			if w == "pnpm" || w == "yarn" || w == "bun" {
				os.WriteFile(filepath.Join(stubs, w), []byte(lib+actionStubs[".pm"]+"\n"), 0o755)
			}
		}
	}
	lock := map[string]string{"npm": "package-lock.json", "pnpm": "pnpm-lock.yaml", "yarn": "yarn.lock", "bun": "bun.lockb"}
	type tc struct {
		name    string
		files   map[string]string // the sample repository
		dir     string            // working-directory
		path    []string          // stand-ins on the PATH
		env     []string
		code    int
		calls   []string // exactly these calls, in order
		logs    []string // these in the log
		outputs string   // GITHUB_OUTPUT
	}
	pkg := `{"name":"app","private":true}`
	cases := []tc{
		{name: "npm, oracle a devDependency",
			files: map[string]string{"package.json": pkg, lock["npm"]: "{}"},
			path:  []string{"npm", "curl", "go"}, env: []string{"FAKE_DEVDEP=1"},
			calls:   []string{"npm ci"},
			logs:    []string{"oracle action: package manager: npm (from package-lock.json)", "oracle action: dependencies: npm ci", "oracle action: oracle: the repository's own @oracle-ts/cli", "oracle (devDependency): gate --base origin/main"},
			outputs: "package-manager=npm\nexit-code=0\n"},
		{name: "pnpm enabled with corepack, oracle from the npm registry",
			files: map[string]string{"package.json": pkg, lock["pnpm"]: "lockfileVersion: '9.0'\n"},
			path:  []string{"npm", "corepack", "curl", "go"}, env: []string{"FAKE_PUBLISHED=0.6.0"},
			calls: []string{"corepack enable pnpm", "pnpm install --frozen-lockfile", "npm view @oracle-ts/cli@latest version",
				"npm install --prefix TOOLS/npm --no-save --no-audit --no-fund --loglevel=error @oracle-ts/cli@0.6.0"},
			logs:    []string{"package manager: pnpm (from pnpm-lock.yaml)", "oracle action: pnpm: corepack enable pnpm", "dependencies: pnpm install --frozen-lockfile", "oracle action: oracle: the npm package @oracle-ts/cli@0.6.0\n", "oracle (npm package): gate --base origin/main"},
			outputs: "package-manager=pnpm\nexit-code=0\n"},
		{name: "yarn 1, not published: the latest release's binary",
			files: map[string]string{"package.json": pkg, lock["yarn"]: "# yarn lockfile v1\n"},
			path:  []string{"npm", "yarn", "curl", "go"}, env: []string{"FAKE_RELEASE=1"},
			calls: []string{"yarn --version", "yarn install --frozen-lockfile", "npm view @oracle-ts/cli@latest version",
				"curl -fsSL --retry 3 -o TOOLS/bin/oracle https://github.com/oracle-ts/oracle/releases/latest/download/oracle-linux-x64"},
			logs: []string{"package manager: yarn (from yarn.lock)", "dependencies: yarn install --frozen-lockfile",
				"oracle action: oracle: the release's prebuilt binary https://github.com/oracle-ts/oracle/releases/latest/download/oracle-linux-x64\n", "oracle (release): gate --base origin/main"}},
		{name: "yarn 4 from packageManager, no package nor release: go install of the version",
			files: map[string]string{"package.json": `{"name":"app","packageManager": "yarn@4.1.0"}`, lock["yarn"]: "__metadata:\n", lock["npm"]: "{}"},
			path:  []string{"npm", "yarn", "curl", "go"}, env: []string{"FAKE_YARN_VERSION=4.1.0", "ORACLE_CLI_VERSION=v0.6.0"},
			calls: []string{"yarn --version", "yarn install --immutable", "npm view @oracle-ts/cli@0.6.0 version",
				"curl -fsSL --retry 3 -o TOOLS/bin/oracle https://github.com/oracle-ts/oracle/releases/download/v0.6.0/oracle-linux-x64",
				"go install github.com/oracle-ts/oracle/cmd/oracle@v0.6.0"},
			logs: []string{"package manager: yarn (from package.json's packageManager)", "dependencies: yarn install --immutable",
				"oracle action: oracle: go install github.com/oracle-ts/oracle/cmd/oracle@v0.6.0\n", "oracle (go install): gate --base origin/main"}},
		{name: "bun installed from npm, on musl: the release's musl binary",
			files: map[string]string{"package.json": pkg, lock["bun"]: "bin"},
			path:  []string{"npm", "curl", "go"}, env: []string{"FAKE_RELEASE=1", "FAKE_MUSL=1", "ORACLE_CLI_VERSION=0.6.0"},
			calls: []string{"npm install --global --no-audit --no-fund bun", "bun install --frozen-lockfile", "npm view @oracle-ts/cli@0.6.0 version",
				"curl -fsSL --retry 3 -o TOOLS/bin/oracle https://github.com/oracle-ts/oracle/releases/download/v0.6.0/oracle-linux-x64-musl"},
			logs: []string{"package manager: bun (from bun.lockb)", "oracle action: bun: npm install --global bun", "dependencies: bun install --frozen-lockfile", "oracle (release): gate --base origin/main"}},
		{name: "a workspace package: the lockfile and the install at the root",
			files: map[string]string{"package.json": `{"name":"root","private":true,"workspaces":["packages/*"]}`, lock["pnpm"]: "x", "packages/a/package.json": pkg},
			dir:   "packages/a", path: []string{"npm", "pnpm", "curl", "go"}, env: []string{"FAKE_DEVDEP=1"},
			calls: []string{"pnpm install --frozen-lockfile"},
			logs:  []string{"package manager: pnpm (from pnpm-lock.yaml) in ", "oracle action: oracle: the repository's own @oracle-ts/cli (", "oracle (devDependency): gate --base origin/main"}},
		{name: "install-dependencies false, package-manager given",
			files: map[string]string{"package.json": pkg, lock["npm"]: "{}"},
			path:  []string{"npm", "curl", "go"}, env: []string{"ORACLE_INSTALL=false", "ORACLE_PACKAGE_MANAGER=bun", "FAKE_PUBLISHED=0.6.0"},
			calls: []string{"npm view @oracle-ts/cli@latest version", "npm install --prefix TOOLS/npm --no-save --no-audit --no-fund --loglevel=error @oracle-ts/cli@0.6.0"},
			logs:  []string{"package manager: bun (from ORACLE_PACKAGE_MANAGER", "dependencies: not installed (install-dependencies: false)", "oracle (npm package): gate --base origin/main"}},
		{name: "no lockfile: npm install, said",
			files: map[string]string{"package.json": pkg},
			path:  []string{"npm", "curl", "go"}, env: []string{"FAKE_DEVDEP=1"},
			calls: []string{"npm install"},
			logs:  []string{"package manager: npm (from no lockfile)", "::warning::oracle action: no lockfile in ", "oracle (devDependency): gate --base origin/main"}},
		{name: "nowhere to get oracle from: exit 3 naming what was tried",
			files: map[string]string{"package.json": pkg, lock["npm"]: "{}"},
			path:  []string{"npm", "curl"}, code: 3,
			calls: []string{"npm ci", "npm view @oracle-ts/cli@latest version", "curl -fsSL --retry 3 -o TOOLS/bin/oracle https://github.com/oracle-ts/oracle/releases/latest/download/oracle-linux-x64"},
			logs:  []string{"::error::oracle action: cannot install oracle latest: the npm registry has no @oracle-ts/cli@latest; no release binary at https://github.com/oracle-ts/oracle/releases/latest/download/oracle-linux-x64; no go on the PATH for go install github.com/oracle-ts/oracle/cmd/oracle@latest. Add @oracle-ts/cli"},
		},
		{name: "an unknown packageManager",
			files: map[string]string{"package.json": `{"packageManager": "deno@2.0.0"}`},
			path:  []string{"npm"}, code: 3,
			logs: []string{`::error::oracle action: unknown package manager "deno" (from package.json's packageManager): want npm, pnpm, yarn or bun`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sample, stubs, temp := t.TempDir(), t.TempDir(), t.TempDir()
			writeFiles(t, sample, c.files)
			tools(t, stubs, c.path...)
			calls, out := filepath.Join(temp, "calls"), filepath.Join(temp, "github_output")
			cmd := exec.Command("bash", script)
			cmd.Dir = filepath.Join(sample, c.dir)
			cmd.Env = append([]string{"PATH=" + stubs, "HOME=" + temp, "STUBS=" + stubs, "SAMPLE=" + sample, "CALLS=" + calls,
				"GITHUB_OUTPUT=" + out, "GITHUB_WORKSPACE=" + sample, "RUNNER_TEMP=" + temp, "GOBIN=" + temp + "/gobin",
				"ORACLE_ARGS=gate --base origin/main", "ORACLE_OK_CODES=0"}, c.env...)
			b, err := cmd.CombinedOutput()
			log := string(b)
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, log)
			}
			cb, _ := os.ReadFile(calls)
			got := strings.ReplaceAll(strings.TrimSpace(string(cb)), filepath.Join(temp, "oracle-action"), "TOOLS")
			var gotCalls []string
			if got != "" {
				gotCalls = strings.Split(got, "\n")
			}
			if strings.Join(gotCalls, "\n") != strings.Join(c.calls, "\n") {
				t.Errorf("calls:\n%s\nwant:\n%s\nlog:\n%s", strings.Join(gotCalls, "\n"), strings.Join(c.calls, "\n"), log)
			}
			for _, l := range c.logs {
				if !strings.Contains(log, l) {
					t.Errorf("the log has no %q:\n%s", l, log)
				}
			}
			if c.outputs != "" {
				if gh, _ := os.ReadFile(out); string(gh) != c.outputs {
					t.Errorf("GITHUB_OUTPUT %q, want %q", gh, c.outputs)
				}
			}
		})
	}
}

// TestActionNodeVersion runs docs/github/actions/oracle/node-version.sh on
// sample repositories: the Node version the action sets up is the
// repository's (.nvmrc, .node-version, engines.node; the nearest from the
// working directory up), the active LTS when the repository names none or
// its range allows it, and the active LTS in place of a version older than
// the package manager runs on (pnpm 11 on Node 20 cannot install:
// unjs/ohash). The workflow pins no Node version: the action sets it up.
func TestActionNodeVersion(t *testing.T) {
	script, err := filepath.Abs("../../docs/github/actions/oracle/node-version.sh")
	if err != nil {
		t.Fatal(err)
	}
	pnpm11 := `"packageManager": "pnpm@11.1.0+sha512.0123"`
	for _, c := range []struct {
		name    string
		files   map[string]string
		dir     string
		env     []string
		version string
		from    string
		warn    string
	}{
		{"nothing named: the active LTS", map[string]string{"package.json": `{"name":"a"}`}, "", nil, "lts/*", "the active LTS (the repository names no Node version)", ""},
		{".nvmrc", map[string]string{".nvmrc": "v20.11.0\n", ".node-version": "18", "package.json": `{"engines":{"node":">=22"}}`}, "", nil, "v20.11.0", ".nvmrc", ""},
		{".node-version", map[string]string{".node-version": "22\n", "package.json": `{"engines":{"node":">=18"}}`}, "", nil, "22", ".node-version", ""},
		{".nvmrc at the root of a workspace", map[string]string{".nvmrc": "lts/jod", "packages/a/package.json": `{"name":"a"}`}, "packages/a", nil, "lts/jod", ".nvmrc", ""},
		{"engines allowing the LTS", map[string]string{"package.json": "{\n  \"engines\": {\n    \"node\": \">= 18.12\"\n  }\n}"}, "", nil, "lts/*", `the active LTS, which package.json's engines.node ">= 18.12" allows`, ""},
		{"engines with alternatives", map[string]string{"package.json": `{"engines":{"node":"^18.18.0 || ^20.9.0 || >=21.1.0"}}`}, "", nil, "lts/*", "", ""},
		{"engines ruling the LTS out: the range", map[string]string{"package.json": `{"engines":{"node":"^20 || ^22"}}`}, "", nil, "^20 || ^22", "package.json's engines.node", ""},
		{"engines below 24", map[string]string{"package.json": `{"engines":{"node":">=18 <23"}}`}, "", nil, ">=18 <23", "package.json's engines.node", ""},
		{"pnpm 11, nothing named: the active LTS", map[string]string{"package.json": "{" + pnpm11 + "}"}, "", nil, "lts/*", "the active LTS (the repository names no Node version)", ""},
		{"pnpm 11 and .nvmrc 20: the LTS, warned", map[string]string{"package.json": "{" + pnpm11 + "}", ".nvmrc": "20"}, "", nil, "lts/*", "pnpm@11.1.0's need, Node >= 22.13 (.nvmrc says 20)",
			"::warning::oracle action: Node 20 (from .nvmrc) is older than pnpm@11.1.0 runs on (Node >= 22.13): using lts/*"},
		{"pnpm 11 and lts/iron (20)", map[string]string{"package.json": "{" + pnpm11 + "}", ".nvmrc": "lts/iron"}, "", nil, "lts/*", "", "older than pnpm@11.1.0"},
		{"pnpm 11 and 22.12.0", map[string]string{"package.json": "{" + pnpm11 + "}", ".node-version": "22.12.0"}, "", nil, "lts/*", "", "older than pnpm@11.1.0"},
		{"pnpm 11 and 22.13.0: enough", map[string]string{"package.json": "{" + pnpm11 + "}", ".node-version": "22.13.0"}, "", nil, "22.13.0", ".node-version", ""},
		{"pnpm 11 and 22: its latest is enough", map[string]string{"package.json": "{" + pnpm11 + "}", ".nvmrc": "22"}, "", nil, "22", ".nvmrc", ""},
		{"the input wins", map[string]string{".nvmrc": "20"}, "", []string{"ORACLE_NODE_VERSION=23"}, "23", "ORACLE_NODE_VERSION (the action's node-version input)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sample, bin := t.TempDir(), t.TempDir()
			writeFiles(t, sample, c.files)
			for _, name := range []string{"bash", "sed", "head", "tr", "grep", "dirname"} {
				p, err := exec.LookPath(name)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", script)
			cmd.Dir = filepath.Join(sample, c.dir)
			cmd.Env = append([]string{"PATH=" + bin, "GITHUB_WORKSPACE=" + sample}, c.env...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			out := stdout.String()
			if !strings.HasPrefix(out, "version="+c.version+"\nfrom=") || (c.from != "" && !strings.Contains(out, "\nfrom="+c.from+"\n")) {
				t.Errorf("printed\n%s\nwant version=%s from=%s", out, c.version, c.from)
			}
			if (c.warn == "") != (stderr.Len() == 0) || !strings.Contains(stderr.String(), c.warn) {
				t.Errorf("stderr %q, want %q", stderr.String(), c.warn)
			}
		})
	}
	// The action sets Node up from the script; the workflow pins none.
	action, _ := os.ReadFile("../../docs/github/actions/oracle/action.yml")
	for _, want := range []string{`run: bash "$GITHUB_ACTION_PATH/node-version.sh" | tee -a "$GITHUB_OUTPUT"`, "uses: actions/setup-node@v4", "node-version: ${{ steps.node.outputs.version }}"} {
		if !strings.Contains(string(action), want) {
			t.Errorf("action.yml has no %q", want)
		}
	}
	if strings.Index(string(action), "uses: actions/setup-node@v4") > strings.Index(string(action), "- id: oracle") {
		t.Error("action.yml sets up Node after it runs oracle.sh")
	}
	workflow, _ := os.ReadFile("../../docs/github/workflows/oracle.yml")
	if strings.Contains(string(workflow), "node-version:") || strings.Contains(string(workflow), "setup-node") {
		t.Errorf("the workflow pins a Node version of its own:\n%s", workflow)
	}
}
