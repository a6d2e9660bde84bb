package gate

import (
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGateFlakyRedBaseline: a candidate red on the code as it is and green
// at the base runs once more before it is the change's: a test that fails
// at random (here: only in its first run; on vuejs/core, a timing assertion
// or a 5-second test time-out on a loaded machine) is a note, and the
// mutants decide (PASS, as by hand); red again, it is FAIL tests
// (TestGateRedSuite's cases).
func TestGateFlakyRedBaseline(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ran-once")
	t.Setenv("ORACLE_E2E_FLAKY_MARK", mark)
	flaky := "import { expect, it } from \"vitest\";\nimport { existsSync, writeFileSync } from \"node:fs\";\nimport { total } from \"../src/price\";\n" +
		"it(\"multiplies\", () => {\n  const mark = process.env.ORACLE_E2E_FLAKY_MARK as string;\n" +
		"  if (!existsSync(mark)) {\n    writeFileSync(mark, \"1\");\n    expect(\"the first run\").toBe(\"a later run\");\n  }\n" +
		"  expect(total(2, 3)).toBe(6);\n  expect(total(4, 1)).toBe(4);\n});\n"
	g := NewGateRepo(t, map[string]string{"src/price.ts": TotalTS, "test/price.test.ts": flaky})
	g.Commit("change", map[string]string{"src/price.ts": strings.Replace(TotalTS, "price * qty", "qty * price", 1)})
	code, r, errs := GateJSON(t, g.Dir, "--no-cache")
	if code != 0 || r.Verdict != "PASS" || len(r.Mutants) == 0 {
		t.Fatalf("exit %d %s (%s) %q, want PASS from the mutants\nnotes %q\n%s", code, r.Verdict, r.Attribution, r.Reason, r.Notes, errs)
	}
	if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "test/price.test.ts failed on the code as it is") || !strings.Contains(notes, "a flaky test") {
		t.Errorf("no note of the flaky file in %q", r.Notes)
	}
}
