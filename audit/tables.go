package audit

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// The validator's three tables (SPEC "The validator's three tables"): the
// report a final validator writes, whose cells are PASS, FAIL or UNKNOWN and
// nothing else, so that a shell gate can read it (docs/validator-gate.sh).
// Requirements traceability is computed by the caller from the ticket
// manifests (audit may not import the verbs) and handed in as rows;
// cross-component integrity is the mock-swap run (swap.go); integration
// test integrity reads the vacuous-test findings.

// Cell is a table's cell: PASS, FAIL or UNKNOWN.
type Cell string

const (
	CellPass    Cell = "PASS"
	CellFail    Cell = "FAIL"
	CellUnknown Cell = "UNKNOWN"
)

// Verdict is one cell with its evidence: where (file:line) and what. A
// FAIL or UNKNOWN cell always has evidence (its footnote).
type Verdict struct {
	Cell     Cell   `json:"cell"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Evidence string `json:"evidence,omitempty"`
}

// RequirementRow is one operation of a ticket manifest.
type RequirementRow struct {
	Manifest    string  `json:"manifest"`
	Operation   string  `json:"operation"`
	Function    string  `json:"function,omitempty"`
	Implemented Verdict `json:"implemented"`
	Oracle      Verdict `json:"oracle"`
	Proven      Verdict `json:"proven"`
}

// CrossRow is one whole-module mock of a repository module in a test file.
type CrossRow struct {
	Test   string `json:"test"`   // the test file
	Module string `json:"module"` // the mocked module, repo-relative
	Mock   string `json:"mock"`   // the vi.mock call's specifier, as written
	Line   int    `json:"line"`   // the vi.mock call's line
	// WithReal: the test file run with its repository mocks removed.
	WithReal Verdict `json:"withReal"`
	// Shape: mock-drift's static verdict on the same mock.
	Shape Verdict `json:"shape"`
}

// IntegrityRow is one test of the suite.
type IntegrityRow struct {
	Test      string  `json:"test"` // the test file
	Name      string  `json:"name"` // its suites' titles and its own, " > " between
	Line      int     `json:"line"`
	Integrity Verdict `json:"integrity"`
}

// Tables are the three tables. Requirements is nil when there is no ticket
// manifest (no table).
type Tables struct {
	Requirements   []RequirementRow `json:"requirements,omitempty"`
	CrossComponent []CrossRow       `json:"crossComponent"`
	Integrity      []IntegrityRow   `json:"integrity"`
}

// Failed reports whether some cell of t is FAIL.
func (t *Tables) Failed() bool {
	failed := false
	t.eachCell(func(_, _, _ string, v Verdict) {
		if v.Cell == CellFail {
			failed = true
		}
	})
	return failed
}

// Count counts the cells of t by value.
func (t *Tables) Count() map[Cell]int {
	n := map[Cell]int{}
	t.eachCell(func(_, _, _ string, v Verdict) { n[v.Cell]++ })
	return n
}

// eachCell hands every cell to do with its table, row and column names, in
// the order the Markdown writes them.
func (t *Tables) eachCell(do func(table, row, column string, v Verdict)) {
	for _, r := range t.Requirements {
		row := r.Manifest + " > " + r.Operation
		do("requirements", row, "implemented", r.Implemented)
		do("requirements", row, "oracle", r.Oracle)
		do("requirements", row, "proven", r.Proven)
	}
	for _, r := range t.CrossComponent {
		row := r.Test + " > " + r.Module
		do("cross", row, "with the real module", r.WithReal)
		do("cross", row, "shape", r.Shape)
	}
	for _, r := range t.Integrity {
		do("integrity", r.Test+" > "+r.Name, "integrity", r.Integrity)
	}
}

// WriteMarkdown writes t as the validator's report: three Markdown tables
// whose verdict cells are PASS, FAIL or UNKNOWN, and under each table its
// footnotes, one per FAIL or UNKNOWN cell ("- [n] COLUMN CELL at
// file:line: evidence"), numbered through the report. Rows and footnotes
// are one line each ('|' in a cell escaped as "\|").
func (t *Tables) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	n := 0
	var notes []string
	note := func(column string, v Verdict) string {
		if v.Cell == CellPass {
			return ""
		}
		n++
		at := ""
		if v.File != "" {
			at = " at " + v.File
			if v.Line > 0 {
				at += fmt.Sprintf(":%d", v.Line)
			}
		}
		notes = append(notes, fmt.Sprintf("- [%d] %s %s%s: %s", n, column, v.Cell, at, oneLine(v.Evidence)))
		return fmt.Sprintf("[%d]", n)
	}
	row := func(cells ...string) {
		for i := range cells {
			cells[i] = strings.ReplaceAll(oneLine(cells[i]), "|", `\|`)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	flush := func() {
		if len(notes) > 0 {
			b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
		}
		notes = nil
	}
	notesOf := func(ns ...string) string {
		var out []string
		for _, x := range ns {
			if x != "" {
				out = append(out, x)
			}
		}
		return strings.Join(out, " ")
	}
	b.WriteString("# Validation report\n\nWritten by `oracle audit --tables`. Every verdict cell is PASS, FAIL or UNKNOWN; each FAIL and UNKNOWN has a note under its table.\n")
	b.WriteString("\n## Requirements traceability\n\n")
	if t.Requirements == nil {
		b.WriteString("No ticket manifest: no requirement to trace.\n")
	} else {
		row("Requirement", "Function", "Implemented", "Oracle", "Proven", "Notes")
		row("---", "---", "---", "---", "---", "---")
		for _, r := range t.Requirements {
			ns := notesOf(note("implemented", r.Implemented), note("oracle", r.Oracle), note("proven", r.Proven))
			row(r.Manifest+" > "+r.Operation, r.Function, string(r.Implemented.Cell), string(r.Oracle.Cell), string(r.Proven.Cell), ns)
		}
		flush()
	}
	b.WriteString("\n## Cross-component integrity\n\n")
	if len(t.CrossComponent) == 0 {
		b.WriteString("No test mocks a module of the repository as a whole: no boundary to check.\n")
	} else {
		row("Test file", "Mocked module", "Mock", "With the real module", "Shape", "Notes")
		row("---", "---", "---", "---", "---", "---")
		for _, r := range t.CrossComponent {
			ns := notesOf(note("with the real module", r.WithReal), note("shape", r.Shape))
			row(r.Test, r.Module, fmt.Sprintf("%s:%d", r.Test, r.Line), string(r.WithReal.Cell), string(r.Shape.Cell), ns)
		}
		flush()
	}
	b.WriteString("\n## Integration test integrity\n\n")
	if len(t.Integrity) == 0 {
		b.WriteString("No test.\n")
	} else {
		row("Test", "Line", "Integrity", "Notes")
		row("---", "---", "---", "---")
		for _, r := range t.Integrity {
			row(r.Test+" > "+r.Name, fmt.Sprint(r.Line), string(r.Integrity.Cell), note("integrity", r.Integrity))
		}
		flush()
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// integrityRows are the rows of the integration test integrity table: one
// per test of every test file, FAIL when a vacuous-test finding (warning or
// error, not ignored) lies in it, UNKNOWN when it is skipped or todo (or
// in a skipped suite), else PASS.
func (s *Suite) integrityRows(findings []Finding) []IntegrityRow {
	var out []IntegrityRow
	s.eachTest(func(test string, in *TestInput) {
		if in.Syntax != nil && in.Structure != nil {
			out = append(out, integrityIn(test, in.Syntax, in.Structure, findings)...)
		}
	})
	slices.SortStableFunc(out, func(a, b IntegrityRow) int {
		return cmp.Or(strings.Compare(a.Test, b.Test), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// tables computes the cross-component and integration test integrity
// tables from the findings (the requirements are the caller's), and the
// findings the tables' runs measured (vacuous-test/never-asserted).
func (s *Suite) tables(ctx context.Context, r runner.Runner, findings []Finding, tm *Timings) (*Tables, []Finding, error) {
	cross, asserted, err := s.crossRows(ctx, r, findings, tm)
	if err != nil {
		return nil, nil, err
	}
	measured := s.neverAsserted(asserted)
	t := &Tables{CrossComponent: cross, Integrity: s.integrityRows(append(slices.Clone(findings), measured...))}
	if t.CrossComponent == nil {
		t.CrossComponent = []CrossRow{}
	}
	if t.Integrity == nil {
		t.Integrity = []IntegrityRow{}
	}
	return t, measured, nil
}

// integrityIn are the integrity rows of the tests of one test file: one
// per test, one per case of a `.each` test (testCases), each judged on its
// own.
func integrityIn(test string, syn *analyzer.Syntax, tf *analyzer.TestFile, findings []Finding) []IntegrityRow {
	var out []IntegrityRow
	for i := range tf.Blocks {
		b := &tf.Blocks[i]
		if b.Kind != analyzer.KindTest {
			continue
		}
		skipped := b.Has("skip") || b.Has("todo") || b.Body < 0
		for p := b.Parent; p >= 0; p = tf.Blocks[p].Parent {
			skipped = skipped || tf.Blocks[p].Has("skip") || tf.Blocks[p].Has("todo")
		}
		first, last := syn.Line(syn.Start(b.Call)), syn.Line(syn.End(b.Call))
		v := Verdict{Cell: CellPass}
		for _, f := range findings {
			if !strings.HasPrefix(f.Rule, "vacuous-test") || f.Ignored != "" || f.Severity == Info || f.File != test || f.Line < first || f.Line > last {
				continue
			}
			v = Verdict{Cell: CellFail, File: f.File, Line: f.Line, Evidence: f.Rule + ": " + f.Message}
			break
		}
		if v.Cell == CellPass && skipped {
			kind := "skipped"
			if b.Has("todo") || b.Body < 0 {
				kind = "todo"
			}
			v = Verdict{Cell: CellUnknown, File: test, Line: b.Line, Evidence: fmt.Sprintf("the test is %s (%s): it runs nothing", kind, b.Callee)}
		}
		for _, c := range testCases(tf, syn, i) {
			cv := v
			if why := caseUnasserted(syn, tf, i, c); cv.Cell == CellPass && why != "" {
				cv = Verdict{Cell: CellFail, File: test, Line: c.line, Evidence: "the case of line " + fmt.Sprint(c.line) + " reaches no assertion: " + why}
			}
			out = append(out, IntegrityRow{Test: test, Name: c.name, Line: b.Line, Integrity: cv})
		}
	}
	return out
}

// Failures are the FAIL cells of t, one line each: "TABLE: ROW: COLUMN at
// file:line: evidence", in the report's order.
func (t *Tables) Failures() []string {
	var out []string
	names := map[string]string{"requirements": "requirements traceability", "cross": "cross-component integrity", "integrity": "integration test integrity"}
	t.eachCell(func(table, row, column string, v Verdict) {
		if v.Cell != CellFail {
			return
		}
		at := ""
		if v.File != "" {
			at = " at " + v.File
			if v.Line > 0 {
				at += fmt.Sprintf(":%d", v.Line)
			}
		}
		out = append(out, fmt.Sprintf("%s: %s: %s%s: %s", names[table], row, column, at, oneLine(v.Evidence)))
	})
	return out
}
