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
