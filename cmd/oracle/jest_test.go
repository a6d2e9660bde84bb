package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJestInsteadFindsVitestAsTheRunnerDoes: whether a repository has
// vitest is the one lookup (internal/vitestloc) listing and running use:
// a package of a workspace whose vitest is hoisted to the workspace's
// node_modules has vitest, so its jest config does not stop the gate;
// with no vitest up to the workspace root it does; a vitest above the
// workspace root is not the repository's.
func TestJestInsteadFindsVitestAsTheRunnerDoes(t *testing.T) {
	vitest := map[string]string{"node_modules/vitest/vitest.mjs": "", "node_modules/vitest/package.json": `{"name":"vitest","version":"4.0.0"}`}
	for _, tc := range []struct {
		name  string
		files map[string]string
		pkg   string // the repository, under the temp dir
		want  string
	}{
		{"vitest hoisted to the workspace", mergeFiles(vitest, map[string]string{
			"package.json":                `{"private":true,"workspaces":["packages/*"]}`,
			"packages/app/package.json":   `{"name":"app"}`,
			"packages/app/jest.config.js": "module.exports = {};\n",
			"packages/app/src/index.ts":   "export const a = 1;\n",
		}), "packages/app", ""},
		{"no vitest up to the workspace root", map[string]string{
			"package.json":                `{"private":true,"workspaces":["packages/*"]}`,
			"packages/app/package.json":   `{"name":"app"}`,
			"packages/app/jest.config.js": "module.exports = {};\n",
		}, "packages/app", "jest.config.js"},
		{"vitest above the workspace root", mergeFiles(vitest, map[string]string{
			"ws/package.json":              `{"private":true,"workspaces":["packages/*"]}`,
			"ws/packages/app/package.json": `{"name":"app","devDependencies":{"jest":"^29"}}`,
		}), "ws/packages/app", "the jest dependency in package.json"},
		{"the package's own vitest", mergeFiles(map[string]string{
			"app/package.json":   `{"name":"app","devDependencies":{"jest":"^29"}}`,
			"app/jest.config.ts": "export default {};\n",
		}, prefixed("app/", vitest)), "app", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := jestInstead(filepath.Join(dir, filepath.FromSlash(tc.pkg))); got != tc.want {
				t.Errorf("jestInstead = %q, want %q", got, tc.want)
			}
		})
	}
}

func prefixed(p string, m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[p+k] = v
	}
	return out
}

// TestJestVerbsWithoutJest: gen and prove on a repository whose tests run on jest ask
// jest which paths it runs (the oracle must be one of its test files): with jest declared
// and not installed they say so and what to do (an error of the environment, exit 3), never
// a stack trace nor vitest's missing install; nothing is written.
func TestJestVerbsWithoutJest(t *testing.T) {
	dir := t.TempDir()
	for rel, body := range map[string]string{
		"package.json":     `{"name":"j","devDependencies":{"jest":"^29.0.0"},"jest":{"preset":"ts-jest"}}`,
		"src/a.ts":         "export function a(opts: { skip: boolean }) {\n  b();\n}\nexport function b() {}\n",
		"src/b.ts":         "export function b() {}\n",
		"src/c.ts":         "import { b } from \"./b\";\nexport function c(opts: { skip: boolean }) {\n  b();\n}\n",
		"tickets/T-1.yaml": "ticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/c.ts#c, flag: opts.skip, wrap: b, args: [{}]}\n",
		"test/a.test.ts":   "import { a } from \"../src/a\";\nit(\"a\", () => { a({ skip: false }); });\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := treeHash(t, dir)
	for _, args := range [][]string{{"gen", "--root", dir, filepath.Join(dir, "tickets/T-1.yaml")}, {"prove", "--root", dir, filepath.Join(dir, "tickets/T-1.yaml")}} {
		code, _, errs := oracle(t, args...)
		if code != exitError || !strings.Contains(errs, "environment: jest is not installed") || !strings.Contains(errs, "npm ci") || strings.Contains(errs, "vitest") || strings.Contains(errs, "goroutine") {
			t.Errorf("%s: exit %d: %s", args[0], code, errs)
		}
	}
	if treeHash(t, dir) != before {
		t.Error("something was written in the repository")
	}
}
