package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestReportThresholds: the viewer colours by the gate's own threshold (a
// gate that passed at 75% is not painted red); the Tests tab lists each it
// of the related test files by its describe > it name with its line, and
// killedBy/coveredBy name tests: the one that killed the mutant, every test
// of the files that reached it.
func TestReportThresholds(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src/a.ts"), []byte("export const a = 1 + 2;\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "test"), 0o755)
	os.WriteFile(filepath.Join(root, "test/a.test.ts"), []byte("import { a } from \"../src/a\";\n\ndescribe(\"a\", () => {\n  it(\"adds\", () => expect(a).toBe(3));\n\n\n  it(\"is a number\", () => expect(typeof a).toBe(\"number\"));\n});\n"), 0o644)
	res := &Result{Threshold: 74.5, Mutants: []Mutant{
		{ID: "src/a.ts#a#1", File: "src/a.ts", Line: 1, Column: 18, EndLine: 1, EndColumn: 23, Operator: "ArithmeticOperator", Replacement: "1 - 2",
			Decision: lab.Decision{Outcome: "killed", KilledBy: "test/a.test.ts", KilledByTest: "test/a.test.ts > a > adds", CoveredBy: []string{"test/a.test.ts"}}},
		{ID: "src/a.ts#a#2", File: "src/a.ts", Line: 1, Column: 18, EndLine: 1, EndColumn: 23, Operator: "ArithmeticOperator", Replacement: "1 * 2",
			Decision: lab.Decision{Outcome: "no-coverage", CoveredBy: []string{"test/a.test.ts"}}}, // the lab ran it against the file; no test reached it
	}, Tests: map[string][]TestCase{"test/a.test.ts": {
		{ID: "test/a.test.ts > a > adds", Name: "a > adds", Line: 4, FullName: "a adds"},
		{ID: "test/a.test.ts > a > is a number", Name: "a > is a number", Line: 7, FullName: "a is a number"},
	}}}
	b, err := res.Report(root)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Thresholds struct{ High, Low int }
		Files      map[string]struct {
			Mutants []struct {
				KilledBy, CoveredBy []string
				Status              string
			}
		}
		TestFiles map[string]struct {
			Source string
			Tests  []struct {
				ID, Name string
				Location struct{ Start struct{ Line int } }
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Thresholds.High != 75 || doc.Thresholds.Low != 74 {
		t.Errorf("thresholds %+v, want high 75 low 74 for a gate threshold of 74.5", doc.Thresholds)
	}
	m := doc.Files["src/a.ts"].Mutants
	if len(m) != 2 || m[1].Status != "NoCoverage" || len(m[1].CoveredBy) != 0 {
		t.Errorf("a mutant no test reached is covered by none: %+v", m)
	}
	if len(m) < 1 || m[0].Status != "Killed" || strings.Join(m[0].KilledBy, ",") != "test/a.test.ts > a > adds" ||
		strings.Join(m[0].CoveredBy, ",") != "test/a.test.ts > a > adds,test/a.test.ts > a > is a number" {
		t.Errorf("mutants %+v, want killed by the test a > adds, covered by both tests of its file", m)
	}
	ts := doc.TestFiles["test/a.test.ts"].Tests
	if len(doc.TestFiles) != 1 || len(ts) != 2 || !strings.Contains(doc.TestFiles["test/a.test.ts"].Source, `it("adds"`) || ts[0].ID != "test/a.test.ts > a > adds" || ts[0].Name != "a > adds" || ts[0].Location.Start.Line != 4 || ts[1].Location.Start.Line != 7 {
		t.Errorf("test files %+v, want test/a.test.ts with its source and its two tests, named and placed", doc.TestFiles)
	}
	// A mutant killed by no single test (a hit limit) names its file, which
	// the Tests tab then shows as a test of that file.
	res.Mutants[0].KilledByTest = ""
	b, _ = res.Report(root)
	json.Unmarshal(b, &doc)
	if k := doc.Files["src/a.ts"].Mutants[0].KilledBy; len(k) != 1 || k[0] != "test/a.test.ts" || len(doc.TestFiles["test/a.test.ts"].Tests) != 3 {
		t.Errorf("killed by %v, tests %+v", k, doc.TestFiles)
	}
}
