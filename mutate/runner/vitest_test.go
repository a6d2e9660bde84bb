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
