// Package report renders mutants and their outcomes as a
// mutation-testing-report-schema document (version 2: the format Stryker's
// report viewer, mutation-testing-elements, reads). prove and gate both
// write it; it knows the lab's outcomes and nothing of either verb.
package report

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// File is one mutated source file and its mutants.
type File struct {
	Path    string // repo-relative
	Source  string // the file as mutated (before any mutant)
	Mutants []Mutant
}

// Mutant is one mutant and its outcome. Positions address Source, 1-based,
// in UTF-16 code units as the format counts; the end is exclusive.
type Mutant struct {
	ID                               string
	MutatorName                      string
	Description                      string
	Replacement                      string
	Outcome                          lab.Outcome // a baseline's (Passed, Failed) is not a mutant: left out
	Reason                           string
	Seconds                          float64
	Line, Column, EndLine, EndColumn int
	// The tests (by id) that covered and killed it; each names a test of
	// Tests (or a test file, which then becomes a test of its own).
	CoveredBy, KilledBy []string
}

// TestFile is one test file: its tests and, when known, its source (the
// viewer shows a test that has a line on its file's source, and lists the
// others).
type TestFile struct {
	Source string
	Tests  []Test
}

// Test is one test of a test file.
type Test struct {
	ID   string
	Name string
	Line int // 0: unknown
}

// Thresholds colour the scores: at or above High green, below Low red.
type Thresholds struct{ High, Low int }

type mtReport struct {
	SchemaVersion string                 `json:"schemaVersion"`
	Thresholds    mtThresholds           `json:"thresholds"`
	Files         map[string]*mtFile     `json:"files"`
	TestFiles     map[string]*mtTestFile `json:"testFiles,omitempty"`
	Framework     *mtFramework           `json:"framework,omitempty"`
}

type mtTestFile struct {
	Tests  []mtTest `json:"tests"`
	Source string   `json:"source,omitempty"`
}

type mtTest struct {
	ID       string      `json:"id"`
	Name     string      `json:"name"`
	Location *mtLocation `json:"location,omitempty"`
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
	Duration    float64    `json:"duration,omitempty"` // milliseconds; prove --timings only
	KilledBy    []string   `json:"killedBy,omitempty"`
	CoveredBy   []string   `json:"coveredBy,omitempty"`
}

type mtLocation struct {
	Start mtPos  `json:"start"`
	End   *mtPos `json:"end,omitempty"`
}

type mtPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

var mtStatus = map[lab.Outcome]string{
	lab.Killed: "Killed", lab.Survived: "Survived", lab.Timeout: "Timeout",
	lab.NoCoverage: "NoCoverage", lab.Error: "RuntimeError",
}

// Render writes the document: the files' mutants (sorted by id in each
// file), the test files' tests (by test file, with the file's source when
// known; a test file a mutant
// names that tests does not list becomes a test of its own), the
// thresholds.
func Render(files []File, tests map[string]TestFile, th Thresholds) ([]byte, error) {
	r := mtReport{SchemaVersion: "2", Thresholds: mtThresholds{High: th.High, Low: th.Low},
		Files: map[string]*mtFile{}, TestFiles: map[string]*mtTestFile{}, Framework: &mtFramework{Name: "oracle"}}
	known := map[string]bool{}
	for file, in := range tests {
		tf := &mtTestFile{Tests: []mtTest{}, Source: in.Source}
		for _, t := range in.Tests {
			if in.Source == "" {
				t.Line = 0 // the viewer shows a test with a location on the source only
			}
			mt := mtTest{ID: t.ID, Name: t.Name}
			if t.Line > 0 {
				mt.Location = &mtLocation{Start: mtPos{Line: t.Line, Column: 1}}
			}
			tf.Tests = append(tf.Tests, mt)
			known[t.ID] = true
		}
		r.TestFiles[file] = tf
	}
	for _, in := range files {
		f := r.Files[in.Path]
		if f == nil {
			f = &mtFile{Language: "typescript", Source: in.Source, Mutants: []mtMutant{}}
			r.Files[in.Path] = f
		}
		for _, mu := range in.Mutants {
			status, ok := mtStatus[mu.Outcome]
			if !ok {
				continue // a baseline is not a mutant
			}
			m := mtMutant{ID: mu.ID, MutatorName: mu.MutatorName, Replacement: mu.Replacement, Description: mu.Description,
				Status: status, Reason: mu.Reason, Duration: mu.Seconds * 1000, CoveredBy: mu.CoveredBy, KilledBy: mu.KilledBy}
			for _, t := range append(slices.Clone(mu.CoveredBy), mu.KilledBy...) {
				if known[t] {
					continue
				}
				known[t] = true
				if tf := r.TestFiles[t]; tf != nil { // a file of known tests, named as a whole
					tf.Tests = append(tf.Tests, mtTest{ID: t, Name: "(" + t + ")"})
				} else {
					r.TestFiles[t] = &mtTestFile{Tests: []mtTest{{ID: t, Name: t}}}
				}
			}
			m.Location.Start = mtPos{Line: max(mu.Line, 1), Column: max(mu.Column, 1)}
			end := mtPos{Line: max(mu.EndLine, m.Location.Start.Line), Column: max(mu.EndColumn, 1)}
			if end.Line == m.Location.Start.Line && end.Column < m.Location.Start.Column {
				end.Column = m.Location.Start.Column
			}
			m.Location.End = &end
			f.Mutants = append(f.Mutants, m)
		}
		sort.SliceStable(f.Mutants, func(i, j int) bool { return f.Mutants[i].ID < f.Mutants[j].ID })
	}
	return json.MarshalIndent(r, "", "  ")
}
