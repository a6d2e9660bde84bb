package prove

import (
	"encoding/json"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestMutationReportSchema: a report with every outcome validates against the
// published JSON Schema of mutation-testing-report-schema, and maps outcomes
// to its statuses.
func TestMutationReportSchema(t *testing.T) {
	runs := []Run{{Name: "baseline", Decision: lab.Decision{Outcome: lab.Passed}}}
	for i, o := range []lab.Outcome{lab.Killed, lab.Survived, lab.Timeout, lab.NoCoverage, lab.Error} {
		runs = append(runs, Run{Name: "preserve-removed:f" + string(rune('a'+i)), Decision: lab.Decision{Outcome: o}, Line: 3, Column: 5, EndLine: 3, EndColumn: 9, Replacement: "(undefined)"})
	}
	data, err := MutationReport([]ReportOperation{{ID: "op", File: "src/a.ts", Source: "a\nb\nc\n", Oracle: "src/o.test.ts", Runs: runs}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files map[string]struct {
			Mutants []struct {
				ID, Status          string
				KilledBy, CoveredBy []string
			}
		}
		TestFiles map[string]struct{ Tests []struct{ ID, Name string } }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range doc.Files["src/a.ts"].Mutants {
		got = append(got, m.Status)
		// The viewer's Tests tab: which test file covered and killed each mutant.
		killed := m.Status == "Killed" || m.Status == "Timeout"
		if (len(m.KilledBy) == 1) != killed || (len(m.CoveredBy) == 1) == (m.Status == "NoCoverage") {
			t.Errorf("%s %s: killedBy %v coveredBy %v", m.ID, m.Status, m.KilledBy, m.CoveredBy)
		}
	}
	if tf := doc.TestFiles["src/o.test.ts"]; len(tf.Tests) != 1 || tf.Tests[0].ID != "src/o.test.ts" {
		t.Errorf("testFiles: %+v", doc.TestFiles)
	}
	want := []string{"Killed", "Survived", "Timeout", "NoCoverage", "RuntimeError"}
	if len(got) != len(want) {
		t.Fatalf("statuses %v, want %v (the baseline is not a mutant)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("status %d: %s, want %s", i, got[i], want[i])
		}
	}
	validator, _ := filepath.Abs("../testdata/node/validate-report.mjs")
	if _, err := os.Stat("../testdata/node/node_modules/ajv/package.json"); err != nil {
		testenv.Missing(t, "ajv missing: scripts/test installs it")
	}
	file := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(file, data, 0o644)
	if out, err := exec.Command("node", validator, file).CombinedOutput(); err != nil {
		t.Fatalf("invalid report: %v\n%s", err, out)
	}
	// The validator bites: a report without thresholds is refused.
	os.WriteFile(file, []byte(`{"schemaVersion":"2","files":{}}`), 0o644)
	if err := exec.Command("node", validator, file).Run(); err == nil {
		t.Fatal("the validator accepts a report without thresholds")
	}
}
