// Package vitestloc finds the vitest a repository's tests run with: the one
// lookup that listing the tests (testsuite), running them (mutate/runner)
// and measuring them (audit) share, so that they never disagree about where
// vitest is; and jest's command, found the same way (FindJest).
//
// The decision: node_modules/vitest/vitest.mjs is looked for as node
// resolves a package, in the file's directory and each directory above it,
// above the repository root too (a package of a workspace finds the vitest
// hoisted to the workspace's node_modules; a sandbox finds it through the
// node_modules it links beside its copy), and no higher than the workspace
// root: the first directory that holds .git, pnpm-workspace.yaml, or a
// package.json declaring "workspaces".
package vitestloc

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Find returns the absolute path of the vitest.mjs node would run for a
// file in the directory from, or "" when there is none up to the workspace
// root.
func Find(from string) string { return FindPackageFile(from, "vitest/vitest.mjs") }

// FindJest returns the absolute path of jest's command (jest/bin/jest.js)
// node would run for a file in the directory from, found as vitest is
// (Find), or "".
func FindJest(from string) string { return FindPackageFile(from, "jest/bin/jest.js") }

// FindPackageFile returns the absolute path of node_modules/<rel> (a file
// of a package, rel slash-separated) as node would find it for a file in
// the directory from, no higher than the workspace root, or "".
func FindPackageFile(from, rel string) string {
	abs, err := filepath.Abs(from)
	if err != nil {
		return ""
	}
	for dir := abs; ; {
		p := filepath.Join(dir, "node_modules", filepath.FromSlash(rel))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if WorkspaceRoot(dir) {
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// WorkspaceRoot reports whether dir is where the search stops: it holds
// .git, pnpm-workspace.yaml, or a package.json that declares "workspaces".
func WorkspaceRoot(dir string) bool {
	for _, marker := range []string{".git", "pnpm-workspace.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return true
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	return json.Unmarshal(b, &pkg) == nil && len(pkg.Workspaces) > 0 && string(pkg.Workspaces) != "null"
}

// configNames are the files vitest looks for in a directory (and the
// workspace files of vitest 2 and 3).
var configNames = []string{"vitest.config", "vite.config", "vitest.workspace", "vitest.projects"}

// HasConfig reports whether dir holds a vitest or vite config file: where
// vitest's own search, from dir or below it, stops.
func HasConfig(dir string) bool { return ConfigFile(dir) != "" }

// ConfigFile is the name of the first vitest or vite config file in dir,
// in vitest's order, or "".
func ConfigFile(dir string) string {
	for _, n := range configNames {
		for _, ext := range []string{".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"} {
			if fi, err := os.Stat(filepath.Join(dir, n+ext)); err == nil && !fi.IsDir() {
				return n + ext
			}
		}
	}
	return ""
}
