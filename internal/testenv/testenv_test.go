package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteTreeAndGit: a tree written, committed, and git's answer read.
func TestWriteTreeAndGit(t *testing.T) {
	root := WriteTree(t, "", map[string]string{"src/a b.ts": "export const a = 1;\n", "README.md": "x\n"})
	if b, err := os.ReadFile(filepath.Join(root, "src", "a b.ts")); err != nil || string(b) != "export const a = 1;\n" {
		t.Fatalf("%q %v", b, err)
	}
	Git(t, root, "init", "-q")
	Git(t, root, "add", "-A")
	Git(t, root, "commit", "-qm", "first")
	if out := Git(t, root, "ls-files"); !strings.Contains(out, "src/a b.ts") {
		t.Errorf("ls-files: %q", out)
	}
	if _, err := os.Stat(Testdata("pipeline")); err != nil {
		t.Errorf("Testdata: %v", err)
	}
}
