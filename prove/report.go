package prove

import (
	"strings"

	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/report"
)

// ReportOperation is what the mutation report needs of one proved operation:
// the mutated file, its source, and the runs (baseline first).
type ReportOperation struct {
	ID     string
	File   string // repo-relative
	Source string // the file as proved (before any mutant)
	Oracle string // the oracle's repo-relative path: the test file of every run
	Runs   []Run
}

// MutationReport renders the runs of every operation (red-first and the
// mutants; not the baseline) as a mutation-testing-report-schema document
// (mutate/report): each operation's oracle is the test of its mutants, and
// every mutant must be killed (thresholds 100).
func MutationReport(ops []ReportOperation) ([]byte, error) {
	var files []report.File
	byPath := map[string]int{}
	tests := map[string]report.TestFile{}
	for _, op := range ops {
		if op.Oracle != "" {
			tests[op.Oracle] = report.TestFile{Tests: []report.Test{{ID: op.Oracle, Name: op.Oracle}}}
		}
		i, ok := byPath[op.File]
		if !ok {
			i = len(files)
			byPath[op.File] = i
			files = append(files, report.File{Path: op.File, Source: op.Source})
		}
		for _, run := range op.Runs {
			m := report.Mutant{ID: op.ID + ":" + run.Name, MutatorName: mutatorName(run.Name), Description: run.Name,
				Replacement: run.Replacement, Outcome: run.Outcome, Reason: run.Detail, Seconds: run.Seconds,
				Line: run.Line, Column: run.Column, EndLine: run.EndLine, EndColumn: run.EndColumn}
			if op.Oracle != "" {
				if run.Outcome != lab.NoCoverage {
					m.CoveredBy = []string{op.Oracle}
				}
				if run.Outcome.Kills() {
					m.KilledBy = []string{op.Oracle}
				}
			}
			files[i].Mutants = append(files[i].Mutants, m)
		}
	}
	return report.Render(files, tests, report.Thresholds{High: 100, Low: 100})
}

// mutatorName is the mutant's kind: "preserve-removed:updateRecord" →
// "preserve-removed".
func mutatorName(run string) string {
	kind, _, _ := strings.Cut(run, ":")
	return kind
}
