package prove

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGenRunsTheRepositoryFormatter: with prettier configured and installed,
// gen writes the oracle as prettier formats it (the repository's own
// `prettier --check` passes), says so in the header, a second gen changes no
// byte, and prove does not call the committed, formatted oracle stale (issue
// 8 item 19).
func TestGenRunsTheRepositoryFormatter(t *testing.T) {
	prettier := Sample(t, "formatters/node_modules/prettier")
	NeedFile(t, filepath.Join(prettier, "bin", "prettier.cjs"))
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	// node_modules: the sample's, plus prettier.
	nm := filepath.Join(dir, "node_modules")
	os.Remove(nm)
	os.Mkdir(nm, 0o755)
	entries, _ := os.ReadDir(V4(t).NodeModules)
	for _, e := range entries {
		os.Symlink(filepath.Join(V4(t).NodeModules, e.Name()), filepath.Join(nm, e.Name()))
	}
	os.Symlink(prettier, filepath.Join(nm, "prettier"))
	os.WriteFile(filepath.Join(dir, ".prettierrc.json"), []byte(`{"printWidth": 80, "singleQuote": true}`+"\n"), 0o644)

	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	if code, out, errs := Oracle(t, "gen", "--root", dir, manifest); code != 0 {
		t.Fatalf("gen: exit %d\n%s%s", code, out, errs)
	}
	got, _ := os.ReadFile(filepath.Join(dir, oracleFile))
	if !strings.Contains(string(got), "// format:   prettier 3.") || !strings.Contains(string(got), `from 'vitest'`) {
		t.Fatalf("not formatted by prettier:\n%.1500s", got)
	}
	check := exec.Command("node", filepath.Join(prettier, "bin", "prettier.cjs"), "--check", oracleFile)
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("prettier --check fails on the generated oracle: %v\n%s", err, out)
	}
	if code, out, _ := Oracle(t, "gen", "--root", dir, manifest); code != 0 || !strings.HasPrefix(out, "unchanged") {
		t.Errorf("second gen: exit %d\n%s", code, out)
	}
	code, r, errs := proveJSON(t, dir)
	if code != 0 || r.Verdict != "PASS" || r.Operations[0].Stale != "" {
		t.Errorf("prove: exit %d %s stale %q\n%s", code, r.Verdict, r.Operations[0].Stale, errs)
	}
}
