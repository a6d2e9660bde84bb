package lab

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWithoutRoot: the sandbox root, as given or as its links resolve, is
// written as the paths relative to it; other paths stay.
func TestWithoutRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "oracle-prove-1", "ohash")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(base, "oracle-prove-1"), link); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(link, "ohash")
	for _, tc := range []struct{ in, root, want string }{
		{"Cannot find package 'x' imported from " + root + "/src/hash.ts", root, "Cannot find package 'x' imported from src/hash.ts"},
		{"in " + root + ": failed", root, "in .: failed"},
		{"imported from " + root + "/src/a.ts", linked, "imported from src/a.ts"},
		{"/usr/lib/node/x.js: boom", root, "/usr/lib/node/x.js: boom"},
		{"no root", "", "no root"},
	} {
		if got := WithoutRoot(tc.in, tc.root); got != tc.want {
			t.Errorf("WithoutRoot(%q, %q) = %q, want %q", tc.in, tc.root, got, tc.want)
		}
	}
}
