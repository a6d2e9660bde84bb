package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageManagerEnv: under pnpm, vitest runs with the NODE_PATH pnpm's
// own shim exports (the workspace's .pnpm/node_modules, found walking up);
// elsewhere nothing is added.
func TestPackageManagerEnv(t *testing.T) {
	t.Setenv("NODE_PATH", "")
	ws := t.TempDir()
	hoisted := filepath.Join(ws, "node_modules", ".pnpm", "node_modules")
	pkg := filepath.Join(ws, "packages", "a")
	os.MkdirAll(hoisted, 0o755)
	os.MkdirAll(pkg, 0o755)
	if got := PackageManagerEnv(pkg); len(got) != 1 || got[0] != "NODE_PATH="+hoisted {
		t.Errorf("pnpm workspace: %v", got)
	}
	t.Setenv("NODE_PATH", "/custom")
	if got := PackageManagerEnv(pkg); len(got) != 1 || !strings.HasPrefix(got[0], "NODE_PATH=/custom"+string(os.PathListSeparator)) {
		t.Errorf("an existing NODE_PATH is kept first: %v", got)
	}
	if got := PackageManagerEnv(t.TempDir()); got != nil {
		t.Errorf("no pnpm: %v", got)
	}
}
