package sandbox

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// relativeImport matches the relative module specifiers of a config file
// (import ... from "./x", import("./x"), require("./x"), export ... from).
var relativeImport = regexp.MustCompile(`(?:\bfrom|\bimport|\brequire)\s*\(?\s*["'](\.{1,2}/[^"']+)["']`)

// configAbove is what a run with the vitest config rel (Options.Config,
// relative to the repository given) needs out of the repository when that
// config lies above it, in its workspace (a package of a workspace with one
// vitest.config.ts at the workspace's root): the config file, the
// package.json beside it (its "type" decides how the config is loaded), and
// the files the config imports by relative paths, transitively. Absolute,
// symlink-free paths; none for a config inside the repository.
func configAbove(source, given, rel string) []string {
	if rel == "" || filepath.IsAbs(rel) {
		return nil
	}
	file := realPath(filepath.Join(given, rel))
	if file == "" {
		return nil
	}
	dir := filepath.Dir(file)
	if _, in := within(dir, source); !in || dir == source {
		return nil
	}
	var out []string
	isOut := func(p string) bool { _, in := within(source, p); return !in }
	if pkg := realPath(filepath.Join(dir, "package.json")); pkg != "" && isOut(pkg) {
		out = append(out, pkg)
	}
	queue := []string{file}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if slices.Contains(out, f) || !isOut(f) {
			continue
		}
		out = append(out, f)
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range relativeImport.FindAllStringSubmatch(string(b), -1) {
			if p := moduleFile(filepath.Join(filepath.Dir(f), m[1])); p != "" {
				queue = append(queue, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// moduleFile is the file an import of p names: p itself, p with a module
// extension, or p's index file; "" when none exists.
func moduleFile(p string) string {
	exts := []string{".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"}
	cands := []string{p}
	for _, e := range exts {
		cands = append(cands, p+e)
	}
	for _, e := range exts {
		cands = append(cands, filepath.Join(p, "index"+e))
	}
	for _, c := range cands {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return realPath(c)
		}
	}
	return ""
}
