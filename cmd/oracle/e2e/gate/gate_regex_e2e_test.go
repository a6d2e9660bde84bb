package gate

// A changed regular expression gets mutants of its own (issue 27: the
// Regex operator), end to end on a repository with a git history written
// here: `/\d+/` → `/^\d+$/` in a validator. Its `^` and `$` removed
// survive a test that checks only a valid input (and so does the revert);
// a test that only rejects "a123" kills the revert and the `^` removal, not
// the `$` removal, the `\D` or the `+` removed: FAIL (PASS 100% without the
// Regex operator, the revert its only mutant: hono eea9735f in
// bench/trial-3.md); a valid input, "a123" and "123a" tested: PASS.
// Every outcome is checked by applying the mutant by hand and running
// vitest.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func TestGateRegex(t *testing.T) {
	test := func(lines ...string) map[string]string {
		return map[string]string{"test/digits.test.ts": "import { expect, it } from \"vitest\";\nimport { isDigits } from \"../src/digits\";\n" +
			"it(\"checks digits\", () => {\n" + strings.Join(lines, "") + "});\n"}
	}
	valid := "  expect(isDigits(\"123\")).toBe(true);\n"
	g := NewGateRepo(t, MergeFiles(map[string]string{
		"src/digits.ts": "export function isDigits(s: string): boolean {\n  return /\\d+/.test(s);\n}\n",
	}, test(valid)))
	g.Commit("anchored", map[string]string{"src/digits.ts": "export function isDigits(s: string): boolean {\n  return /^\\d+$/.test(s);\n}\n"})
	mutant := func(rep, outcome string) string { return "Regex " + rep + " " + outcome }
	for i, tc := range []struct {
		name    string
		tests   map[string]string // committed before the gate runs (nil: none)
		verdict string
		mutants []string // "operator replacement outcome", in order
	}{
		{"only a valid input tested", nil, "FAIL", []string{mutant(`/\d+$/`, "survived"), mutant(`/^\D+$/`, "killed"),
			mutant(`/^\d$/`, "killed"), mutant(`/^\d+/`, "survived"), `Revert /\d+/ survived`}},
		{"only a leading letter rejected (hono's shape: the revert is killed)", test("  expect(isDigits(\"a123\")).toBe(false);\n"), "FAIL",
			[]string{mutant(`/\d+$/`, "killed"), mutant(`/^\D+$/`, "survived"), mutant(`/^\d$/`, "survived"), mutant(`/^\d+/`, "survived"), `Revert /\d+/ killed`}},
		{"a valid input, a leading and a trailing letter tested", test(valid, "  expect(isDigits(\"a123\")).toBe(false);\n", "  expect(isDigits(\"123a\")).toBe(false);\n"), "PASS",
			[]string{mutant(`/\d+$/`, "killed"), mutant(`/^\D+$/`, "killed"), mutant(`/^\d$/`, "killed"), mutant(`/^\d+/`, "killed"), `Revert /\d+/ killed`}},
	} {
		if tc.tests != nil {
			g.Commit(tc.name, tc.tests)
		}
		code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", g.Dir, "--base", fmt.Sprintf("HEAD~%d", i+1))
		var r struct {
			Verdict string
			Mutants []struct {
				File, MutatorName, Replacement, Outcome string
				Line, Column, EndLine, EndColumn        int
			}
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: gate --json (exit %d): %v\n%s\n%s", tc.name, code, err, out, errs)
		}
		var got []string
		var applied []handMutant
		src, err := os.ReadFile(filepath.Join(g.Dir, "src/digits.ts"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(src), "\n")
		for _, m := range r.Mutants {
			got = append(got, fmt.Sprintf("%s %s %s", m.MutatorName, m.Replacement, m.Outcome))
			if m.MutatorName == "Regex" && (m.Line != 2 || m.EndLine != 2 || m.Column != 10 || m.EndColumn != 17) {
				t.Errorf("%s: %s %s at %d:%d-%d:%d, want the literal's span 2:10-2:17", tc.name, m.MutatorName, m.Replacement, m.Line, m.Column, m.EndLine, m.EndColumn)
			}
			if m.Line != m.EndLine { // one line here: columns are bytes (ASCII)
				t.Fatalf("%s: %s spans lines %d-%d", tc.name, m.MutatorName, m.Line, m.EndLine)
			}
			l := lines[m.Line-1]
			mutated := strings.Join(lines[:m.Line-1], "") + l[:m.Column-1] + m.Replacement + l[m.EndColumn-1:] + strings.Join(lines[m.Line:], "")
			applied = append(applied, handMutant{m.File, mutated})
		}
		if want := map[string]int{"PASS": ExitOK, "FAIL": ExitFail}[tc.verdict]; code != want || r.Verdict != tc.verdict || !slices.Equal(got, tc.mutants) {
			t.Errorf("%s: exit %d %s, want exit %d %s; mutants\n%s\nwant\n%s\n%s", tc.name, code, r.Verdict, want, tc.verdict,
				strings.Join(got, "\n"), strings.Join(tc.mutants, "\n"), errs)
		}
		for k, byHand := range byHand(t, g.Dir, []string{"test/digits.test.ts"}, applied) {
			if m := r.Mutants[k]; byHand != m.Outcome {
				t.Errorf("%s: %s %q: the gate says %s, by hand it is %s\n%s", tc.name, m.MutatorName, m.Replacement, m.Outcome, byHand, applied[k].src)
			}
		}
	}
}
