package mutate

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
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

// mutation-testing-report-schema (Stryker's report viewer), version 2 of
// the format: see testdata/node for the schema the tests validate against.
type mtReport struct {
	SchemaVersion string                 `json:"schemaVersion"`
	Thresholds    mtThresholds           `json:"thresholds"`
	Files         map[string]*mtFile     `json:"files"`
	TestFiles     map[string]*mtTestFile `json:"testFiles,omitempty"`
	Framework     *mtFramework           `json:"framework,omitempty"`
	Config        map[string]any         `json:"config,omitempty"`
}

// mtTestFile lists the tests of one test file; the report's unit is the
// test file (the lab knows which file decided a mutant, not which test).
type mtTestFile struct {
	Tests []mtTest `json:"tests"`
}

type mtTest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type mtThresholds struct {
	High int `json:"high"`
	Low  int `json:"low"`
}

type mtFramework struct {
	Name string `json:"name"`
}

type mtFile struct {
	Language string     `json:"language"`
	Source   string     `json:"source"`
	Mutants  []mtMutant `json:"mutants"`
}

type mtMutant struct {
	ID          string     `json:"id"`
	MutatorName string     `json:"mutatorName"`
	Replacement string     `json:"replacement,omitempty"`
	Description string     `json:"description,omitempty"`
	Location    mtLocation `json:"location"`
	Status      string     `json:"status"`
	Reason      string     `json:"statusReason,omitempty"`
	Duration    float64    `json:"duration"`
	KilledBy    []string   `json:"killedBy,omitempty"`
	CoveredBy   []string   `json:"coveredBy,omitempty"`
}

type mtLocation struct {
	Start mtPos `json:"start"`
	End   mtPos `json:"end"`
}

type mtPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

var mtStatus = map[Outcome]string{
	Killed: "Killed", Survived: "Survived", Timeout: "Timeout",
	NoCoverage: "NoCoverage", Error: "RuntimeError",
}

// MutationReport renders the runs of every operation (red-first and the
// mutants; not the baseline) as a mutation-testing-report-schema document.
func MutationReport(ops []ReportOperation) ([]byte, error) {
	r := mtReport{SchemaVersion: "2", Thresholds: mtThresholds{High: 100, Low: 100},
		Files: map[string]*mtFile{}, TestFiles: map[string]*mtTestFile{}, Framework: &mtFramework{Name: "oracle"}}
	for _, op := range ops {
		if op.Oracle != "" && r.TestFiles[op.Oracle] == nil {
			r.TestFiles[op.Oracle] = &mtTestFile{Tests: []mtTest{{ID: op.Oracle, Name: op.Oracle}}}
		}
		f := r.Files[op.File]
		if f == nil {
			lang := "typescript"
			f = &mtFile{Language: lang, Source: op.Source, Mutants: []mtMutant{}}
			r.Files[op.File] = f
		}
		for _, run := range op.Runs {
			status, ok := mtStatus[run.Outcome]
			if !ok {
				continue // the baseline is not a mutant
			}
			id := op.ID + ":" + run.Name
			if run.ID != "" {
				id = run.ID
			}
			m := mtMutant{
				ID:          id,
				MutatorName: mutatorName(run.Name),
				Replacement: run.Replacement,
				Description: run.Name,
				Status:      status,
				Reason:      run.Detail,
				Duration:    run.Seconds * 1000,
			}
			if run.CoveredBy != nil || run.KilledBy != nil {
				m.CoveredBy, m.KilledBy = run.CoveredBy, run.KilledBy
				for _, t := range append(slices.Clone(run.CoveredBy), run.KilledBy...) {
					if r.TestFiles[t] == nil {
						r.TestFiles[t] = &mtTestFile{Tests: []mtTest{{ID: t, Name: t}}}
					}
				}
			} else if op.Oracle != "" {
				if run.Outcome != NoCoverage {
					m.CoveredBy = []string{op.Oracle}
				}
				if run.Outcome == Killed || run.Outcome == Timeout {
					m.KilledBy = []string{op.Oracle}
				}
			}
			m.Location.Start = mtPos{Line: max(run.Line, 1), Column: max(run.Column, 1)}
			m.Location.End = mtPos{Line: max(run.EndLine, m.Location.Start.Line), Column: max(run.EndColumn, 1)}
			if m.Location.End.Line == m.Location.Start.Line && m.Location.End.Column < m.Location.Start.Column {
				m.Location.End.Column = m.Location.Start.Column
			}
			f.Mutants = append(f.Mutants, m)
		}
		sort.SliceStable(f.Mutants, func(i, j int) bool { return f.Mutants[i].ID < f.Mutants[j].ID })
	}
	return json.MarshalIndent(r, "", "  ")
}

// mutatorName is the mutant's kind: "preserve-removed:updateRecord" →
// "preserve-removed".
func mutatorName(run string) string {
	kind, _, _ := strings.Cut(run, ":")
	return kind
}
