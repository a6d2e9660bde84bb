package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLPage: the page marks the lines the change wrote, shows every
// mutant under its line (a survivor open, a killed one collapsed) with the
// test files that ran and killed it, and loads nothing.
func TestHTMLPage(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src/a.ts"), []byte("export function f(a: number) {\n  if (a > 1) return a;\n  return a + 1;\n}\n"), 0o644)
	res := &Result{Verdict: FAIL, Threshold: 70, Changed: map[string][][2]int{"src/a.ts": {{2, 2}}}, Mutants: []Mutant{
		{File: "src/a.ts", Line: 2, Column: 7, Operator: "EqualityOperator", Target: "src/a.ts#f", Outcome: "survived", Diff: "-a > 1\n+a >= 1\n", CoveredBy: []string{"test/a.test.ts"}},
		{File: "src/a.ts", Line: 2, Column: 7, Operator: "ConditionalExpression", Target: "src/a.ts#f", Outcome: "killed", KilledBy: "test/a.test.ts", CoveredBy: []string{"test/a.test.ts"}},
	}}
	score(res)
	page := string(res.HTML(root))
	for _, want := range []string{
		`GATE FAIL 50% (1/2) on 1 changed line, threshold 70`,
		`<pre id="src/a.ts:2" class="changed survived">`,
		`<pre id="src/a.ts:3">`,
		`<details class="mutant survived" open><summary>survived src/a.ts:2:7 EqualityOperator (src/a.ts#f)</summary><p>ran against test/a.test.ts</p>`,
		`<details class="mutant killed"><summary>killed src/a.ts:2:7 ConditionalExpression (src/a.ts#f)</summary><p>ran against test/a.test.ts; killed by test/a.test.ts</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s\n%s", want, page)
		}
	}
	for _, no := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, no) {
			t.Errorf("the page holds %q", no)
		}
	}
}
