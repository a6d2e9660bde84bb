package testsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVitestTooOld: a repository on vitest 1 (no `vitest list`) gets an
// error that names the version and what to do, not vitest's own "Unknown
// option `--json`" stack; vitest 2 and a version that cannot be read go on
// to vitest.
func TestVitestTooOld(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"1.5.3", "vitest 1.5.3 is installed (node_modules/vitest): oracle needs vitest 2 or later"},
		{"0.34.6", "vitest 0.34.6 is installed"},
		{"2.0.0", ""},
		{"4.1.2", ""},
		{"next", ""},
	} {
		root := t.TempDir()
		dir := filepath.Join(root, "node_modules", "vitest")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "vitest.mjs"), nil, 0o644)
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"vitest","version":"`+c.version+`"}`), 0o644)
		_, err := findVitest(root)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.version, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.version, err, c.want)
		}
	}
}
