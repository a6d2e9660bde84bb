package audit

// vitest 3.1 (testdata/vitest3: the version unjs/h3's lockfile pinned) loads
// a reporter through vite 6, which refuses a file outside the root's
// workspace: oracle's phases reporter, written to the run's temp directory,
// made every run fail with no report (bench/trial26-27.md finding 1). It is
// written inside vitest's root in the sandbox now.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// v3 is the vitest 3.1 install (Node 20, the default node).
func v3(t *testing.T) string {
	t.Helper()
	nm := Sample(t, "vitest3/node_modules")
	if _, err := os.Stat(filepath.Join(nm, "vitest", "package.json")); err != nil {
		testenv.Missing(t, fmt.Sprintf("%s has no vitest: scripts/deps installs it", nm))
	}
	return nm
}

// TestGateVitest31: gate gives each mutant the outcome vitest 3.1.1 gives
// it by hand (the mutant applied, the test file run: grade's three killed,
// cents' two surviving under a test of cents(0) only), so FAIL on money.ts,
// where it said ERROR "wrote no report"; audit measures the same sample
// (euros, which no test calls, is its one blind function); nothing is left
// in the checkout or in $TMPDIR.
func TestGateVitest31(t *testing.T) {
	nm := v3(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	g := Repo{T: t, Dir: t.TempDir()}
	if err := os.Symlink(nm, filepath.Join(g.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	money := "export function cents(n: number): number {\n  return n * 10;\n}\n\nexport function euros(n: number): number {\n  return n / 100;\n}\n"
	g.Git("init", "-q")
	g.Commit("base", map[string]string{
		".gitignore":         "node_modules\n",
		"package.json":       `{"name":"v3","private":true,"type":"module"}`,
		"src/grade.ts":       gradeBase,
		"src/money.ts":       money,
		"test/grade.test.ts": importing(gradeTest, "../src/grade"),
		"test/money.test.ts": "import { expect, it } from \"vitest\";\nimport { cents } from \"../src/money\";\nit(\"cents\", () => {\n  expect(cents(0)).toBe(0);\n});\n",
	})
	g.Commit("change", map[string]string{"src/grade.ts": gradeNew, "src/money.ts": strings.Replace(money, "n * 10", "n * 100", 1)})

	code, r, errs := GateJSON(t, g.Dir, "--no-cache")
	if code != 1 || r.Verdict != "FAIL" || !strings.Contains(r.Reason, "src/money.ts scores 0% (0/3)") {
		t.Errorf("gate: exit %d %s %q, want FAIL: src/money.ts scores 0%% (0/3)\n%s", code, r.Verdict, r.Reason, errs)
	}
	// By hand with vitest 3.1.1, each mutant applied and its file's test
	// run: >= → > and <, 50 → 51 and the revert 50 → 40 killed (grade(49));
	// * → /, 100 → 101 and the revert 100 → 10 survive (cents(0)).
	want := map[string]int{
		"src/grade.ts:2 EqualityOperator killed": 2, "src/grade.ts:2 InlineConstant killed": 1, "src/grade.ts:2 Revert killed": 1,
		"src/money.ts:2 ArithmeticOperator survived": 1, "src/money.ts:2 InlineConstant survived": 1, "src/money.ts:2 Revert survived": 1,
	}
	got := map[string]int{}
	for _, m := range r.Mutants {
		got[fmt.Sprintf("%s:%d %s %s", m.File, m.Line, m.MutatorName, m.Outcome)]++
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mutants (file:line mutator outcome: count):\n got %v\nwant %v", got, want)
	}

	a := auditJSON(t, g.Dir)
	var blind []string
	for _, f := range a.Findings {
		if f.Rule == "blind-function" {
			blind = append(blind, fmt.Sprintf("%s:%d", f.File, f.Line))
		}
	}
	if strings.Join(blind, " ") != "src/money.ts:5" {
		t.Errorf("audit: blind functions %v, want [src/money.ts:5] (euros)\n%+v", blind, a.Findings)
	}

	out, err := exec.Command("git", "-C", g.Dir, "status", "--porcelain", "--ignored").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "!! node_modules" && l != "!! .oracle/" && l != "" {
			t.Errorf("left in the checkout: %q", l)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("left in $TMPDIR: %d entries (%s...)", len(entries), entries[0].Name())
	}
}
