// Package samplecopy copies a sample repository of testdata for a test or a
// benchmark to change freely: its files without node_modules and generated
// oracles, with node_modules linked to an installed one.
package samplecopy

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Copy copies src to dst (which may exist), leaving out node_modules and
// __oracles__ directories (or links to them), and links dst/node_modules to
// nodeModules.
func Copy(src, dst, nodeModules string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if p != src && (d.Name() == "node_modules" || d.Name() == "__oracles__") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // a link to one (a worktree's node_modules): left out as the directory is
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		return err
	}
	return os.Symlink(nodeModules, filepath.Join(dst, "node_modules"))
}
