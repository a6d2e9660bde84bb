package gate

// bench/trial26-27.md findings 2 and 4, end to end: vitest's own test
// time-out is a suspicion confirmed before it counts (SPEC "Runs and
// kills"), and a mutant whose file never loads is an error that says so.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGateSlowAndUnloadable: vitest's test time-out is lowered to 300 ms
// and the related test sleeps 2 s on its first run only, after calling the
// changed function (a machine slow once, as a loaded one is): the baseline
// runs into the time-out, runs again with it raised, passes fast, and the
// mutants are judged (before: FAIL attribution tests, a red suite that is
// green by hand). The change also writes `await import("./rate")`: its
// StringLiteral mutant `import("")` is a file vite cannot transform, an
// error that says so (before: "the mutated code never ran (a flaky
// test?)", run twice). Checked by hand: the suite is green; `import("")`
// fails the test with "The specifiers must be a non-empty string".
func TestGateSlowAndUnloadable(t *testing.T) {
	g := NewGateRepo(t, map[string]string{
		"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { testTimeout: 300 } });\n",
		"src/rate.ts":      "export const rate = 2;\n",
		"src/price.ts":     "export async function price(qty: number): Promise<number> {\n  return qty;\n}\n",
	})
	count := filepath.ToSlash(filepath.Join(t.TempDir(), "count"))
	test := "import { appendFileSync, existsSync, readFileSync } from \"node:fs\";\nimport { expect, it } from \"vitest\";\n\n" +
		"it(\"prices\", async () => {\n  const n = existsSync(\"" + count + "\") ? readFileSync(\"" + count + "\", \"utf8\").length : 0;\n  appendFileSync(\"" + count + "\", \"x\");\n" +
		"  const { price } = await import(\"../src/price\");\n  const got = await price(3);\n  if (n === 0) await new Promise((r) => setTimeout(r, 2000));\n  expect(got).toBe(6);\n});\n"
	g.Commit("change", map[string]string{
		"src/price.ts":       "export async function price(qty: number): Promise<number> {\n  const { rate } = await import(\"./rate\");\n  return qty * rate;\n}\n",
		"test/price.test.ts": test,
	})
	os.Remove(count) // the commits ran nothing; the gate's baseline is the first run
	code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", g.Dir)
	var r struct {
		Verdict, Reason, Attribution string
		Mutants                      []struct{ Outcome, Detail, MutatorName, Replacement string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	if r.Attribution == "tests" || len(r.Mutants) == 0 {
		t.Fatalf("exit %d %s (%s) %q: the baseline slow once is red\n%s", code, r.Verdict, r.Attribution, r.Reason, out)
	}
	unloadable := 0
	for _, m := range r.Mutants {
		if m.MutatorName == "StringLiteral" && m.Replacement == `""` {
			unloadable++
			if m.Outcome != "error" || !strings.HasPrefix(m.Detail, "the mutated file did not load") || !strings.Contains(m.Detail, "The specifiers must be a non-empty string") {
				t.Errorf("import(\"\"): %s %q", m.Outcome, m.Detail)
			}
		}
	}
	if unloadable != 1 {
		t.Errorf("%d import(\"\") mutants, want 1\n%s", unloadable, out)
	}
	t.Logf("exit %d %s %q", code, r.Verdict, r.Reason)
}
