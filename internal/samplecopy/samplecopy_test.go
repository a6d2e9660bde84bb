package samplecopy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCopyLeavesNodeModulesOut: a sample's node_modules and __oracles__ are
// left out, directories or links to one (a git worktree's samples link
// node_modules), and the copy's node_modules links to the one given.
func TestCopyLeavesNodeModulesOut(t *testing.T) {
	for _, linked := range []bool{false, true} {
		src, dst, nm := t.TempDir(), t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(src, "src"), 0o755)
		os.WriteFile(filepath.Join(src, "src", "a.ts"), []byte("export const a = 1;\n"), 0o644)
		os.MkdirAll(filepath.Join(src, "__oracles__"), 0o755)
		os.WriteFile(filepath.Join(src, "__oracles__", "o.test.ts"), []byte("x"), 0o644)
		if linked {
			if err := os.Symlink(nm, filepath.Join(src, "node_modules")); err != nil {
				t.Fatal(err)
			}
		} else {
			os.MkdirAll(filepath.Join(src, "node_modules", "x"), 0o755)
		}
		if err := Copy(src, dst, nm); err != nil {
			t.Fatalf("linked %v: %v", linked, err)
		}
		if b, err := os.ReadFile(filepath.Join(dst, "src", "a.ts")); err != nil || string(b) != "export const a = 1;\n" {
			t.Errorf("linked %v: src/a.ts %q %v", linked, b, err)
		}
		if _, err := os.Stat(filepath.Join(dst, "__oracles__")); !os.IsNotExist(err) {
			t.Errorf("linked %v: __oracles__ copied (%v)", linked, err)
		}
		if to, err := os.Readlink(filepath.Join(dst, "node_modules")); err != nil || to != nm {
			t.Errorf("linked %v: node_modules -> %q %v, want %q", linked, to, err, nm)
		}
	}
}
