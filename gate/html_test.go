package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestHTMLPage: the page lists the survivors first, each a link to its
// place; has a legend; marks the lines the change wrote, shows every
// mutant under its line (a survivor open, a killed one collapsed) with the
// test files that ran and killed it (none for a mutant no test reached);
// shows the touched function and the changed lines with context and folds
// the rest of the file; and loads nothing.
func TestHTMLPage(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	tail := strings.Repeat("export const pad = 1;\n", 20) // lines 5-24: far from the change
	os.WriteFile(filepath.Join(root, "src/a.ts"), []byte("export function f(a: number) {\n  if (a > 1) return a;\n  return a + 1;\n}\n"+tail), 0o644)
	res := &Result{Verdict: FAIL, Threshold: 70, Changed: map[string][][2]int{"src/a.ts": {{2, 2}}}, Targets: []Target{{ID: "src/a.ts#f", File: "src/a.ts", Line: 1}}, Mutants: []Mutant{
		{File: "src/a.ts", Line: 2, Column: 7, Operator: "EqualityOperator", Target: "src/a.ts#f", Decision: lab.Decision{Outcome: "survived", CoveredBy: []string{"test/a.test.ts"}}, Diff: "-a > 1\n+a >= 1\n"},
		{File: "src/a.ts", Line: 2, Column: 7, Operator: "ConditionalExpression", Target: "src/a.ts#f", Decision: lab.Decision{Outcome: "killed", KilledBy: "test/a.test.ts", CoveredBy: []string{"test/a.test.ts"}}},
	}}
	score(res)
	page := string(res.HTML(root))
	for _, want := range []string{
		`GATE FAIL 50% (1/2) on 1 changed line, threshold 70`,
		`<pre id="src/a.ts:2" class="changed survived">`,
		`<pre id="src/a.ts:3">`,
		`<details id="mutant-1" class="mutant survived" open><summary>survived src/a.ts:2:7 EqualityOperator (src/a.ts#f)</summary><p>ran against test/a.test.ts</p>`,
		`<details id="mutant-2" class="mutant killed"><summary>killed src/a.ts:2:7 ConditionalExpression (src/a.ts#f)</summary><p>ran against test/a.test.ts; killed by test/a.test.ts</p>`,
		`<h2>Survivors (1)</h2><ol class="survivors">` + "\n" + `<li><a href="#mutant-1">survived src/a.ts:2:7 EqualityOperator</a> in src/a.ts#f</li>`,
		`<p class="legend"><span class="changed">a line the change wrote</span>`,
		`<pre id="src/a.ts:5"><span class="ln">5</span>export const pad = 1;</pre><details class="fold"><summary>lines 6-24</summary><pre id="src/a.ts:6">`,
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
