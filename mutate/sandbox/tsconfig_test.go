//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths relative to root).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

// TestWorkspacePackageSeesItsTsconfigs: a workspace package whose tsconfig
// extends a base file of the workspace (itself extending another, named
// without .json) and references sibling packages (a directory, a tsconfig
// file) is copied at the same place below the workspace's name: the base
// files are copied there, the siblings linked to the originals, so that
// the relative paths of the copy's tsconfig files resolve; a package name
// in extends is not followed, a relative path into node_modules links that
// node_modules; nothing else of the workspace is copied, and
// closing the sandbox leaves the workspace as it was.
func TestWorkspacePackageSeesItsTsconfigs(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	writeTree(t, ws, map[string]string{
		"tsconfig.base.json":                          "{\n  // shared options\n  \"extends\": \"./tsconfig.shared\",\n  \"compilerOptions\": { \"strict\": true, }, /* trailing */\n}\n",
		"tsconfig.shared.json":                        `{"compilerOptions": {"target": "ES2022"}}`,
		"packages/lib/tsconfig.json":                  `{"extends": "../../tsconfig.base.json"}`,
		"packages/lib/src/index.ts":                   "export const one = 1;\n",
		"packages/util/tsconfig.build.json":           `{"compilerOptions": {}}`,
		"packages/other/src/x.ts":                     "export const x = 1;\n",
		"node_modules/@tsconfig/node20/tsconfig.json": `{"compilerOptions": {"target": "ES2022"}}`,
		"packages/app/package.json":                   `{"name":"app"}`,
		"packages/app/tsconfig.json": `{
  "extends": ["../../tsconfig.base.json", "@tsconfig/strictest/tsconfig.json", "../../node_modules/@tsconfig/node20/tsconfig.json"],
  "references": [{ "path": "../lib" }, { "path": "../util/tsconfig.build.json" }, { "path": "./test" }],
  "include": ["src", "test"], // and the tests
}`,
		"packages/app/test/tsconfig.json": `{"extends": "../tsconfig.json", "compilerOptions": {"types": ["vitest/globals"]}}`,
		"packages/app/src/a.ts":           "export const a = 1;\n",
	})
	before := hashTree(t, ws)
	s, err := New(filepath.Join(ws, "packages", "app"), Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(s.Dir(), "ws", "packages", "app"); s.Root != want {
		t.Errorf("root %s, want %s", s.Root, want)
	}
	mirror := filepath.Join(s.Dir(), "ws")
	for _, tc := range []struct {
		rel  string
		link string // "": a regular file copied from the workspace
	}{
		{"tsconfig.base.json", ""},
		{"tsconfig.shared.json", ""},
		{"packages/lib", filepath.Join(ws, "packages", "lib")},
		{"packages/util", filepath.Join(ws, "packages", "util")},
		{"node_modules", filepath.Join(ws, "node_modules")},
	} {
		p := filepath.Join(mirror, filepath.FromSlash(tc.rel))
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.rel, err)
		case tc.link != "":
			if target, _ := os.Readlink(p); fi.Mode()&os.ModeSymlink == 0 || target != tc.link {
				t.Errorf("%s: not a link to %s (%v %s)", tc.rel, tc.link, fi.Mode(), target)
			}
		case !fi.Mode().IsRegular() || readFile(t, p) != readFile(t, filepath.Join(ws, filepath.FromSlash(tc.rel))):
			t.Errorf("%s: not a copy of the workspace's file", tc.rel)
		}
	}
	if _, err := os.Lstat(filepath.Join(mirror, "packages", "other")); err == nil {
		t.Error("a package the tsconfig files do not name was placed in the sandbox")
	}
	if got := readFile(t, filepath.Join(s.Root, "test", "tsconfig.json")); !strings.Contains(got, "vitest/globals") {
		t.Errorf("the package's own files are not copied: %q", got)
	}
	must(t, s.Close())
	if hashTree(t, ws) != before {
		t.Error("the sandbox changed the workspace")
	}
}

// TestTsconfigLinks: the relative extends (string or list, ".json" added)
// and references of a tsconfig file in JSON with comments; package names
// and what does not parse are not followed.
func TestTsconfigLinks(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, body    string
		extends, refs string // relative to dir, space-separated
	}{
		{"string", `{"extends": "../base.json"}`, "../base.json", ""},
		{"without .json", `{"extends": "./base"}`, "base.json", ""},
		{"list and a package", `{"extends": ["./a.json", "@tsconfig/node20/tsconfig.json", "../b.json"]}`, "a.json ../b.json", ""},
		{"references", `{"references": [{"path": "../lib"}, {"path": "../util/tsconfig.build.json"}, {"path": "pkg"}]}`, "", "../lib ../util/tsconfig.build.json pkg"},
		{"comments and trailing commas", "{\n // a \"quoted\" comment, with a comma,\n \"extends\": \"./a.json\", /* b */\n \"references\": [{\"path\": \"../x\",},],\n \"x\": \"http://y/*z*/\",\n}", "a.json", "../x"},
		{"not JSON", `{"extends": `, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "tsconfig.json")
			must(t, os.WriteFile(file, []byte(tc.body), 0o644))
			ext, refs := tsconfigLinks(file)
			rel := func(ps []string) string {
				var out []string
				for _, p := range ps {
					r, _ := filepath.Rel(dir, p)
					out = append(out, filepath.ToSlash(r))
				}
				return strings.Join(out, " ")
			}
			if got := rel(ext); got != tc.extends {
				t.Errorf("extends %q, want %q", got, tc.extends)
			}
			if got := rel(refs); got != tc.refs {
				t.Errorf("references %q, want %q", got, tc.refs)
			}
		})
	}
}

// TestWorkspaceConfigAbove: a package whose runs use the workspace's vitest
// config above it (Options.Config "../../vitest.config.ts") is copied at its
// place below the workspace's name, with the config, the package.json beside
// it and what the config imports by relative paths (transitively) copied to
// their places, and the workspace's node_modules a real directory of links
// (its caches left out); nothing else of the workspace; nothing of it
// without the option.
func TestWorkspaceConfigAbove(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	writeTree(t, ws, map[string]string{
		"package.json":                     `{"name":"ws","private":true,"type":"module","workspaces":["packages/*"]}`,
		"vitest.config.ts":                 "import { defineConfig } from \"vitest/config\";\nimport { shared } from \"./config/shared\";\nexport default defineConfig({ test: shared });\n",
		"config/shared.ts":                 "import base from \"../base.json\";\nexport const shared = { ...base };\n",
		"base.json":                        `{"include": ["packages/*/test/**/*.test.ts"]}`,
		"config/unused.ts":                 "export const unused = 1;\n",
		"node_modules/vitest/package.json": `{"name":"vitest"}`,
		"node_modules/.vite/results.json":  `{}`,
		"packages/b/package.json":          `{"name":"@ws/b","type":"module"}`,
		"packages/b/src/money.ts":          "export const m = 1;\n",
		"packages/other/src/x.ts":          "export const x = 1;\n",
		"packages/other/vitest.config.ts":  "export default {};\n",
		"packages/b/test/money.test.ts":    "import { m } from \"../src/money\";\n",
		"packages/b/node_modules/own/x.js": "module.exports = 1;\n",
		"unrelated.txt":                    "",
	})
	before := hashTree(t, ws)
	pkg := filepath.Join(ws, "packages", "b")
	s, err := New(pkg, Options{TempDir: t.TempDir(), Config: "../../vitest.config.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(s.Dir(), "ws", "packages", "b"); s.Root != want {
		t.Errorf("root %s, want %s", s.Root, want)
	}
	mirror := filepath.Join(s.Dir(), "ws")
	for _, rel := range []string{"vitest.config.ts", "package.json", "config/shared.ts", "base.json"} {
		p := filepath.Join(mirror, filepath.FromSlash(rel))
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || readFile(t, p) != readFile(t, filepath.Join(ws, filepath.FromSlash(rel))) {
			t.Errorf("%s: not a copy of the workspace's file (%v)", rel, err)
		}
	}
	for _, rel := range []string{"config/unused.ts", "packages/other", "node_modules/.vite", "unrelated.txt"} {
		if _, err := os.Lstat(filepath.Join(mirror, filepath.FromSlash(rel))); err == nil {
			t.Errorf("%s was placed in the sandbox", rel)
		}
	}
	nm := filepath.Join(mirror, "node_modules")
	if fi, err := os.Lstat(nm); err != nil || !fi.IsDir() {
		t.Errorf("the workspace's node_modules is not a real directory in the sandbox: %v", err)
	} else if target, _ := os.Readlink(filepath.Join(nm, "vitest")); target != filepath.Join(ws, "node_modules", "vitest") {
		t.Errorf("node_modules/vitest links to %q", target)
	}
	if got := readFile(t, filepath.Join(s.Root, "test", "money.test.ts")); !strings.Contains(got, "../src/money") {
		t.Errorf("the package's own files are not copied: %q", got)
	}
	must(t, s.Close())
	if hashTree(t, ws) != before {
		t.Error("the sandbox changed the workspace")
	}

	// Without the option (vitest 5, or a package with its own config):
	// the copy is the package's alone.
	s, err = New(pkg, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(filepath.Dir(s.Root)), "vitest.config.ts")); err == nil || s.Root != filepath.Join(s.Dir(), "b") {
		t.Errorf("without Config: root %s, config placed: %v", s.Root, err == nil)
	}
	must(t, s.Close())
}
