package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestReportSources: the report and the page show the sources the run read
// (its targets stage), not the checkout as it is when they are written (a
// file edited, or deleted, since); a result that holds none (a merged one)
// reads them from the checkout.
func TestReportSources(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.MkdirAll(filepath.Join(root, "test"), 0o755)
	os.WriteFile(filepath.Join(root, "src/a.ts"), []byte("export const a = 'edited since';\n"), 0o644)
	res := &Result{Threshold: 80, Mutants: []Mutant{{ID: "src/a.ts#a#1", Target: "src/a.ts#a", File: "src/a.ts", Line: 1, Column: 18, EndLine: 1, EndColumn: 23,
		Operator: "ArithmeticOperator", Replacement: "1 - 2", Decision: lab.Decision{Outcome: "survived", CoveredBy: []string{"test/a.test.ts"}}}},
		Tests: map[string][]TestCase{"test/a.test.ts": {{ID: "test/a.test.ts > adds", Name: "adds", Line: 2, FullName: "adds"}}}}
	score(res)
	for _, tc := range []struct {
		name    string
		sources map[string][]byte
		want    []string
	}{
		{"as the run read them", map[string][]byte{"src/a.ts": []byte("export const a = 1 + 2;\n"), "test/a.test.ts": []byte("import { a } from \"../src/a\";\nit(\"adds\", () => expect(a).toBe(3));\n")},
			[]string{"1 + 2", `it(\"adds\"`, "export const a = 1 + 2;"}},
		{"from the checkout", nil, []string{"edited since", "edited since"}},
	} {
		res.sources = tc.sources
		doc, err := res.Report(root)
		if err != nil {
			t.Fatal(err)
		}
		page := string(res.HTML(root))
		if !strings.Contains(string(doc), tc.want[0]) || !strings.Contains(page, strings.ReplaceAll(tc.want[len(tc.want)-1], "'", "&#39;")) {
			t.Errorf("%s: the report or the page lacks %q\n%s\n%s", tc.name, tc.want, doc, page)
		}
		if len(tc.want) == 3 && (!strings.Contains(string(doc), tc.want[1]) || strings.Contains(string(doc)+page, "edited since")) {
			t.Errorf("%s: the report shows the checkout, or lacks the test file's source\n%s", tc.name, doc)
		}
	}
}
