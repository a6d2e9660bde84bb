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

// TestFindJest: jest's command is found as vitest is, the package's own first, then the
// workspace's, no higher than the workspace root.
func TestFindJest(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	for _, rel := range []string{"node_modules/jest/bin/jest.js", "ws/.git/HEAD", "ws/node_modules/jest/bin/jest.js", "ws/packages/a/src/x.ts", "other/.git/HEAD", "other/src/x.ts"} {
		p := filepath.Join(top, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	if got, want := FindJest(filepath.Join(top, "ws/packages/a/src")), filepath.Join(top, "ws/node_modules/jest/bin/jest.js"); got != want {
		t.Errorf("FindJest = %q, want %q", got, want)
	}
	if got := FindJest(filepath.Join(top, "other/src")); got != "" {
		t.Errorf("a jest above the workspace root was found: %q", got)
	}
}
