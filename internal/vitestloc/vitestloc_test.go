package vitestloc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A vitest above every workspace root: never reached from inside one.
	write("node_modules/vitest/vitest.mjs", "")
	write("git/.git/HEAD", "")
	hoisted := write("git/node_modules/vitest/vitest.mjs", "")
	own := write("git/packages/a/node_modules/vitest/vitest.mjs", "")
	write("git/packages/b/src/x.ts", "")
	write("npm/package.json", `{"workspaces":["packages/*"]}`)
	write("npm/packages/c/src/x.ts", "")
	write("pnpm/pnpm-workspace.yaml", "packages: []\n")
	write("pnpm/packages/d/src/x.ts", "")
	sandboxHoisted := write("sandbox/node_modules/vitest/vitest.mjs", "")
	write("sandbox/repo/src/x.ts", "")
	for _, tc := range []struct{ from, want string }{
		{"git/packages/a/src", own},           // the package's own first
		{"git/packages/b/src", hoisted},       // then the workspace's, above the package
		{"npm/packages/c/src", ""},            // "workspaces" in package.json: no higher
		{"pnpm/packages/d/src", ""},           // pnpm-workspace.yaml: no higher
		{"sandbox/repo/src", sandboxHoisted},  // a sandbox's link beside its copy
		{"git/packages/missing/src", hoisted}, // a directory that does not exist yet
	} {
		if got := Find(filepath.Join(top, filepath.FromSlash(tc.from))); got != tc.want {
			t.Errorf("Find(%s) = %q, want %q", tc.from, got, tc.want)
		}
	}
}
