package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestReportThresholds: the viewer colours by the gate's own threshold (a
// gate that passed at 75% is not painted red), and killedBy/coveredBy name
// the test files.
func TestReportThresholds(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src/a.ts"), []byte("export const a = 1 + 2;\n"), 0o644)
	res := &Result{Threshold: 74.5, Mutants: []Mutant{
		{ID: "src/a.ts#a#1", File: "src/a.ts", Line: 1, Column: 18, EndLine: 1, EndColumn: 23, Operator: "ArithmeticOperator", Replacement: "1 - 2",
			Outcome: "killed", KilledBy: "test/a.test.ts", CoveredBy: []string{"test/a.test.ts"}},
	}}
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
		TestFiles map[string]any
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Thresholds.High != 75 || doc.Thresholds.Low != 74 {
		t.Errorf("thresholds %+v, want high 75 low 74 for a gate threshold of 74.5", doc.Thresholds)
	}
	m := doc.Files["src/a.ts"].Mutants
	if len(m) != 1 || m[0].Status != "Killed" || len(m[0].KilledBy) != 1 || m[0].KilledBy[0] != "test/a.test.ts" || doc.TestFiles["test/a.test.ts"] == nil {
		t.Errorf("mutants %+v, test files %v", m, doc.TestFiles)
	}
}
