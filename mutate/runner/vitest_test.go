package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingVitestNamesTheFix: the error says what to do, and a Yarn
// Plug'n'Play repository is told to switch its linker.
func TestMissingVitestNamesTheFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"declared, not installed", map[string]string{"package.json": `{"devDependencies":{"vitest":"4.1.0"}}`},
			"package.json declares vitest 4.1.0 but there is no node_modules/vitest"},
		{"not declared", map[string]string{"package.json": `{}`}, "npm install --save-dev vitest"},
		{"yarn plug'n'play", map[string]string{"package.json": `{"devDependencies":{"vitest":"4.1.0"}}`, ".pnp.cjs": "// pnp"},
			"Yarn Plug'n'Play repository (.pnp.cjs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, body := range tc.files {
				if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := missingVitest(root, root)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want it to contain %q", err, tc.want)
			}
			if strings.Contains(tc.want, "Plug'n'Play") && !strings.Contains(err.Error(), "nodeLinker: node-modules") {
				t.Errorf("the fix is not named: %v", err)
			}
		})
	}
}

// TestWorkDir: vitest runs a test file where its config is found, so that
// its root is the one the listing had: a workspace's one config at its
// root (no config in the package), a package's own config, the repository
// root when a config is given, the package when there is no config.
func TestWorkDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"ws/vitest.config.ts", "ws/package.json", "ws/packages/a/package.json", "ws/packages/a/test/x",
		"ws/packages/b/package.json", "ws/packages/b/vite.config.mts", "ws/packages/b/test/x",
		"plain/package.json", "plain/packages/c/package.json", "plain/packages/c/test/x"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if filepath.Base(p) != "x" {
			os.WriteFile(p, []byte("{}"), 0o644)
		}
	}
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		repo, from string
		config     bool
		want       string
	}{
		{"ws", "ws/packages/a/test", false, "ws"},                     // the workspace's config, above the package
		{"ws", "ws/packages/b/test", false, "ws/packages/b"},          // the package's own
		{"ws", "ws/packages/b/test", true, "ws"},                      // -c: where the tests were listed
		{"plain", "plain/packages/c/test", false, "plain/packages/c"}, // no config: the package
	} {
		if got := workDir(at(tc.repo), at(tc.from), tc.config); got != at(tc.want) {
			t.Errorf("workDir(%s, %s, %v) = %s, want %s", tc.repo, tc.from, tc.config, got, at(tc.want))
		}
	}
}

// TestVitestDir: a config above the repository (a workspace's, given as
// "../../vitest.config.ts") runs vitest from its directory, and is accepted
// as the run's config; one inside the repository runs from the root; a path
// that leaves the repository sideways is refused.
func TestVitestDir(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "ws", "packages", "b")
	for _, tc := range []struct {
		config, dir string
		ok          bool
	}{
		{"", ".", false},
		{"vitest.config.ts", ".", true},
		{"config/vitest.unit.ts", ".", true},
		{"../../vitest.config.ts", "../..", true},
		{"../vitest.config.ts", "..", true},
		{"../a/vitest.config.ts", ".", false},
	} {
		if got := VitestDir(root, tc.config); got != filepath.Join(root, tc.dir) {
			t.Errorf("VitestDir(%q) = %s, want %s", tc.config, got, filepath.Join(root, tc.dir))
		}
		if _, err := configFile(root, tc.config); (err == nil) != tc.ok {
			t.Errorf("configFile(%q): %v, want ok %v", tc.config, err, tc.ok)
		}
	}
}
