// Package audit decides, from the code alone, where a green test suite
// proves nothing (SPEC "oracle audit"): deterministic evidence with
// file:line a final gate can act on. Each rule is a named unit with declared
// inputs (the manner of golang.org/x/tools go/analysis): it reads the
// Suite (the program, the test files vitest runs, and what each of them
// reaches through the module graph) and reports Findings.
//
// Rules so far: blind-function. (vacuous-test and mock-drift are not built
// yet.)
package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
)

// Severity of a finding: an error fails the audit (exit 1).
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one piece of evidence.
type Finding struct {
	Rule     string     `json:"rule"`
	Severity Severity   `json:"severity"`
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Message  string     `json:"message"`
	Related  []Location `json:"related,omitempty"`
	// Ignored is the reason an `// oracle-audit-ignore RULE: reason` comment
	// on the line before gives: the finding stays evidence, but does not
	// count.
	Ignored string `json:"ignored,omitempty"`
}

// Location is a place a finding points to.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Rule is one analysis, in the manner of a go/analysis pass: a name, what
// it reads of the Suite, and the run. Each has a table of cases (finding /
// no finding) in its _test.go.
type Rule struct {
	Name  string
	Doc   string
	Reads string // the parts of the Suite it reads
	Run   func(s *Suite) []Finding
}

// Rules are the rules audit runs, in order.
var Rules = []*Rule{BlindFunction, VacuousTest, MockDrift}

// Suite is what the rules read: the repository's program, its test files
// (as vitest lists them), and for each test file what it reaches at run
// time and what its vi.mock calls replace.
type Suite struct {
	Program *callgraph.Program
	// Tests are the repo-relative test files vitest runs, sorted.
	Tests []string
	// Production are the repo-relative source files the rules judge: every
	// TypeScript source that is not a test file, a declaration file or a
	// fixture (oracle.yaml), sorted; limited to Paths when given.
	Production []string
	// Enable turns on the sub-rules that are off by default.
	Enable map[string]bool
	// Change is what the change touched (nil: no --base).
	Change change.Change
	reach  map[string]*testReach
	inputs map[string]*TestInput // parsed test files, by path (eachTest)
	loaded map[string][]string   // the modules each module loads (loads)
}

// TestInput is a test file as the rules read it: its syntax tree and its
// structure (suites, tests, hooks, assertions).
type TestInput struct {
	File      *analyzer.File // its imports and mocks (analyzer.File.Mocks), from the same parse as Syntax
	Syntax    *analyzer.Syntax
	Structure *analyzer.TestFile
}

// testReach is what one test file runs.
type testReach struct {
	fns     map[string]bool             // function ids it runs un-stubbed (callgraph.ReachFunctions)
	stubbed map[string]bool             // modules a whole-module mock replaced on the way
	mocks   map[string][]*analyzer.Mock // the test's mocks, by the module they replace
	file    *analyzer.File
}

// Options select what Audit reads.
type Options struct {
	// Tests, when set, are the test files (repo-relative) instead of asking
	// vitest: for tests of audit itself.
	Tests []string
	// SetupFiles are vitest's setupFiles (repo-relative): their vi.mock
	// calls apply to every test. Asked of vitest when Tests is not set.
	SetupFiles []string
	// Fixtures are the fixture files of oracle.yaml (not production code).
	Fixtures []string
	// Paths limit the production files judged (repo-relative files or
	// directories); empty: all.
	Paths []string
	// Enable turns on sub-rules that are off by default
	// ("vacuous-test/no-assertion").
	Enable []string
	// Change, when set (--base), is what the change touched: a blind
	// function whose lines it touched is an error, the others warnings.
	Change change.Change
}

// Report is what Audit found, sorted by rule, file, line.
type Report struct {
	Findings []Finding
}

// Audit runs every rule on the repository at root.
func Audit(root string, opts Options) (*Report, error) {
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	tests := opts.Tests
	if tests == nil {
		if tests, err = ListTests(p.Root()); err != nil {
			return nil, err
		}
		if opts.SetupFiles, err = SetupFiles(p.Root()); err != nil {
			return nil, err
		}
	}
	if err := CheckEnable(opts.Enable); err != nil {
		return nil, err
	}
	tests, out := auditable(p.Root(), tests) // a file that cannot be read is reported, not run
	s, err := NewSuite(p, tests, opts)
	if err != nil {
		return nil, err
	}
	for _, r := range Rules {
		out = append(out, r.Run(s)...)
	}
	applyIgnores(p, out)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Message < b.Message
	})
	return &Report{Findings: out}, nil
}

// NewSuite reads the test files and what each reaches.
func NewSuite(p *callgraph.Program, tests []string, opts Options) (*Suite, error) {
	s := &Suite{Program: p, reach: map[string]*testReach{}, Enable: map[string]bool{}, Change: opts.Change}
	for _, e := range opts.Enable {
		s.Enable[e] = true
	}
	isTest := map[string]bool{}
	for _, t := range tests {
		isTest[t] = true
	}
	s.Tests = append([]string(nil), tests...)
	sort.Strings(s.Tests)
	fixtures := map[string]bool{}
	for _, f := range opts.Fixtures {
		fixtures[f] = true
	}
	for _, f := range opts.SetupFiles {
		fixtures[f] = true // test code, not production
	}
	// The vi.mock calls of the setup files apply to every test.
	var global []*analyzer.Mock
	for _, sf := range opts.SetupFiles {
		if f, _ := p.Module(sf); f != nil {
			for i := range f.Mocks {
				m := f.Mocks[i]
				m.Specifier, m.File = resolvedSpec(p, sf, m.Specifier), sf
				global = append(global, &m)
			}
		}
	}
	all, err := callgraph.SourcesUnder(p.Root(), ".")
	if err != nil {
		return nil, err
	}
	for _, f := range all {
		if isTest[f] || fixtures[f] || isTestName(f) || strings.HasSuffix(f, ".d.ts") || !inPaths(f, opts.Paths) {
			continue
		}
		s.Production = append(s.Production, f)
	}
	p.Preload(all)
	reaches := make([]*testReach, len(s.Tests))
	errs := make([]error, len(s.Tests))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f, why := p.Module(s.Tests[i])
				if f == nil {
					errs[i] = fmt.Errorf("test file %s: %s", s.Tests[i], why)
					continue
				}
				reaches[i] = reachOf(p, f, global)
			}
		}()
	}
	for i := range s.Tests {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, t := range s.Tests {
		if errs[i] != nil {
			return nil, errs[i]
		}
		s.reach[t] = reaches[i]
	}
	return s, nil
}

// reachOf is what test file f runs: everything its code and the modules it
// loads call, except what its vi.mock calls replace (a whole module, or the
// exports a partial mock sets to stubs; a call-through `vi.fn(original)`
// still runs the original).
func reachOf(p *callgraph.Program, f *analyzer.File, global []*analyzer.Mock) *testReach {
	tr := &testReach{mocks: map[string][]*analyzer.Mock{}, file: f}
	for i := range f.Mocks {
		m := &f.Mocks[i]
		if r := p.Resolver().Resolve(f.Path, m.Specifier); r.Kind == "file" {
			tr.mocks[r.Path] = append(tr.mocks[r.Path], m)
		}
	}
	for _, m := range global { // setupFiles' mocks: Specifier already resolved
		if m.Specifier != "" {
			tr.mocks[m.Specifier] = append(tr.mocks[m.Specifier], m)
		}
	}
	stub := func(module, export string) bool {
		for _, m := range tr.mocks[module] {
			if export == "" && !m.Partial || export != "" && m.Partial && overriddenStub(m, export) {
				return true
			}
		}
		return false
	}
	tr.fns, tr.stubbed = p.ReachFunctions(f, stub)
	return tr
}

// isTestName reports a file named as a test (vitest's default include).
func isTestName(f string) bool {
	base := filepath.Base(f)
	for _, s := range []string{".test.", ".spec."} {
		if strings.Contains(base, s) {
			return true
		}
	}
	return false
}

func inPaths(f string, paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/")
		if f == p || p == "." || strings.HasPrefix(f, p+"/") {
			return true
		}
	}
	return false
}

// applyIgnores marks the findings an `// oracle-audit-ignore RULE: reason`
// comment on the line before silences.
func applyIgnores(p *callgraph.Program, fs []Finding) {
	lines := map[string][]string{}
	for i := range fs {
		f := &fs[i]
		src, ok := lines[f.File]
		if !ok {
			b, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(f.File)))
			if err == nil {
				src = strings.Split(string(b), "\n")
			}
			lines[f.File] = src
		}
		if f.Line < 2 || f.Line-2 >= len(src) {
			continue
		}
		prev := strings.TrimSpace(src[f.Line-2])
		rest, ok := strings.CutPrefix(prev, "// oracle-audit-ignore ")
		if !ok {
			continue
		}
		rule, reason, _ := strings.Cut(rest, ":")
		if strings.TrimSpace(rule) == f.Rule {
			f.Ignored = strings.TrimSpace(reason)
			if f.Ignored == "" {
				f.Ignored = "(no reason given)"
			}
		}
	}
}

// RelatedTests are the test files that run the function id un-stubbed (the
// related-test rule the gate shares: a test that stubs the module away does
// not test it), sorted.
func (s *Suite) RelatedTests(id string) []string {
	var out []string
	for _, t := range s.Tests {
		if s.reach[t].fns[id] {
			out = append(out, t)
		}
	}
	return out
}

// IsTest reports whether file is one of the suite's test files.
func (s *Suite) IsTest(file string) bool {
	i := sort.SearchStrings(s.Tests, file)
	return i < len(s.Tests) && s.Tests[i] == file
}

// eachTest hands every test file of the suite to do, in order, parsed
// once for all the rules.
func (s *Suite) eachTest(do func(test string, in *TestInput)) {
	if s.inputs == nil {
		s.inputs = map[string]*TestInput{}
	}
	for _, t := range s.Tests {
		in, ok := s.inputs[t]
		if !ok {
			if src, err := os.ReadFile(filepath.Join(s.Program.Root(), filepath.FromSlash(t))); err == nil {
				f, syn := analyzer.ParseSyntax(t, src)
				in = &TestInput{File: f, Syntax: syn, Structure: analyzer.TestStructure(syn)}
			}
			s.inputs[t] = in
		}
		if in != nil {
			do(t, in)
		}
	}
}

// resolvedSpec is the repo-relative module a setup file's vi.mock names ("" when
// it is not a module of the repository).
func resolvedSpec(p *callgraph.Program, from, spec string) string {
	if r := p.Resolver().Resolve(from, spec); r.Kind == "file" {
		return r.Path
	}
	return ""
}

// touchedFunctions are the ids of the production functions whose lines the
// change (--base) touched, sorted; none without a change.
func (s *Suite) touchedFunctions() []string {
	if s.Change == nil {
		return nil
	}
	var out []string
	for _, file := range s.Production {
		if _, ok := s.Change[file]; !ok {
			continue
		}
		f, _ := s.Program.Module(file)
		src, err := os.ReadFile(filepath.Join(s.Program.Root(), filepath.FromSlash(file)))
		if f == nil || err != nil {
			continue
		}
		for _, fn := range f.Functions {
			if int(fn.EndByte) > len(src) {
				continue
			}
			end := fn.Line + strings.Count(string(src[fn.StartByte:fn.EndByte]), "\n")
			if s.Change.Touches(file, fn.Line, end) {
				out = append(out, file+"#"+fn.Qual)
			}
		}
	}
	sort.Strings(out)
	return out
}
