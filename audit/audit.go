// Package audit decides where a green test suite proves nothing (SPEC
// "oracle audit"): deterministic evidence with file:line a final gate can
// act on. Each rule is a named unit that declares what it requires (the
// manner of golang.org/x/tools go/analysis): the driver (Audit) computes
// only that (the static walk of what each test file reaches, what the test
// files measured to execute, the test files' structure) and runs each rule
// on a Pass, where it reports Findings or fails.
//
// Rules: blind-function (blind.go, measured by measure.go), vacuous-test
// (vacuous.go), mock-drift (drift.go), and cannot-audit for the test files
// testsuite cannot read.
package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/internal/par"
	"github.com/oracle-ts/oracle/internal/warmnode"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/testsuite"
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

// Rule is one analysis, in the manner of a go/analysis Analyzer: a name,
// what it requires of the driver, and the run, which reports findings on
// its Pass and may fail (the audit then fails with the rule's error, never
// drops it). Each has a table of cases in its _test.go and `// want` cases
// under testdata/rules (rules_test.go).
type Rule struct {
	Name     string
	Doc      string
	Requires []Fact
	Run      func(p *Pass) error
}

// Fact is something a rule requires of the driver, computed only when an
// enabled rule requires it.
type Fact string

const (
	// Reach: what each test file runs by the static walk (names, calls,
	// mocks).
	Reach Fact = "reach"
	// Executed: which test files executed each judged function, measured
	// by running them (Options.Runner; without one the audit is static and
	// Reach decides).
	Executed Fact = "executed"
	// TestFiles: each test file parsed, with its structure (suites, tests,
	// hooks, assertions) and mocks.
	TestFiles Fact = "test-files"
)

// Pass is one rule's run, in the manner of go/analysis's Pass: what every
// rule reads, the facts its rule declared (Requires) and nothing else, and
// where it reports. It holds no Suite: a fact the rule did not declare is
// nil, so a rule reaches only what it declared (TestPassHoldsWhatTheRuleDeclared).
type Pass struct {
	Rule *Rule
	// What every rule reads: the program, the test files (sorted), the
	// production files judged (sorted), the sub-rules enabled, and what
	// the change touched (nil without --base).
	Program    *callgraph.Program
	Tests      []string
	Production []string
	Enable     map[string]bool
	Change     change.Change
	// Reach is the static walk: nil unless the rule requires Reach.
	Reach *Walk
	// Executed is what the test files measured to execute: nil unless the
	// rule requires Executed.
	Executed *Measured
	// TestFiles are the test files parsed: nil unless the rule requires
	// TestFiles.
	TestFiles *TestFileSet

	judges   func(file string, f *analyzer.File, fn *analyzer.Function) bool // Suite.judged
	touchedF func() map[string]bool                                          // Suite.touched
	loaded   map[string][]string                                             // the modules each module loads (loads)
	findings []Finding
}

// Walk is the Reach fact: the suite as testsuite reads it (the test files
// that may load a module, why none runs a function) and what each test file
// runs by the static walk.
type Walk struct {
	Suite *testsuite.Suite
	tests map[string]*testReach
}

// Measured is the Executed fact: per function id, the test files whose run
// entered it (Entered, nil when the audit is static), and the candidate test
// files that could not run, with their first error (Unrunnable).
type Measured struct {
	Entered    map[string][]string
	Unrunnable map[string]string
}

// TestFileSet is the TestFiles fact: the test files, each parsed once (by
// testsuite, with Options.Syntax) with its structure.
type TestFileSet struct {
	each func(do func(test string, in *TestInput))
}

// Each hands every test file of the suite to do, in order.
func (ts *TestFileSet) Each(do func(test string, in *TestInput)) { ts.each(do) }

// pass is rule r's pass over the suite: the facts r requires (computing
// the static walk if it was not), none other.
func (s *Suite) pass(r *Rule) *Pass {
	p := &Pass{Rule: r, Program: s.Program, Tests: s.Tests, Production: s.Production, Enable: s.Enable, Change: s.Change,
		judges: s.judged, touchedF: s.touched}
	if slices.Contains(r.Requires, Reach) {
		s.computeReach()
		p.Reach = &Walk{Suite: s.TestSuite, tests: s.reach}
	}
	if slices.Contains(r.Requires, Executed) {
		p.Executed = &Measured{Entered: s.Executed, Unrunnable: s.Unrunnable}
	}
	if slices.Contains(r.Requires, TestFiles) {
		p.TestFiles = &TestFileSet{each: s.eachTest}
	}
	return p
}

// judged reports a function blind-function judges (Suite.judged).
func (p *Pass) judged(file string, f *analyzer.File, fn *analyzer.Function) bool {
	return p.judges(file, f, fn)
}

// touched is the set of the function ids the change (--base) touched; nil
// without a change.
func (p *Pass) touched() map[string]bool { return p.touchedF() }

// touchedFunctions are the ids of the production functions whose lines the
// change (--base) touched, sorted; none without a change.
func (p *Pass) touchedFunctions() []string {
	var out []string
	for id := range p.touched() {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Report adds a finding of the pass's rule (Rule set when empty).
func (p *Pass) Report(f Finding) {
	if f.Rule == "" {
		f.Rule = p.Rule.Name
	}
	p.findings = append(p.findings, f)
}

// reportAll adds findings (the rules that collect them in a list).
func (p *Pass) reportAll(fs []Finding) {
	for _, f := range fs {
		p.Report(f)
	}
}

// RuleError is the error a rule's run returned: the audit fails with it
// (exit 3), the rule named.
type RuleError struct {
	Rule string
	Err  error
}

func (e *RuleError) Error() string { return "rule " + e.Rule + ": " + e.Err.Error() }

func (e *RuleError) Unwrap() error { return e.Err }

// requires reports whether any of rules requires fact.
func requires(rules []*Rule, fact Fact) bool {
	for _, r := range rules {
		if slices.Contains(r.Requires, fact) {
			return true
		}
	}
	return false
}

// Rules are the rules audit runs, in order.
var Rules = []*Rule{BlindFunction, VacuousTest, MockDrift}

// Suite is what the rules read: the repository's program, its test suite
// (testsuite: the test files vitest runs, their mocks, production apart
// from test code), what each test file reaches by the static walk, and,
// unless the audit is static, which test files executed each function
// (measured by running them).
type Suite struct {
	Program *callgraph.Program
	// Tests are the repo-relative test files vitest runs, sorted.
	Tests []string
	// Production are the repo-relative source files the rules judge: every
	// TypeScript source that is not test code (testsuite), sorted; limited
	// to Paths when given.
	Production []string
	// Enable turns on the sub-rules that are off by default.
	Enable map[string]bool
	// Jest is Options.Jest: the repository's tests run on jest.
	Jest string
	// Change is what the change touched (nil: no --base).
	Change change.Change
	// TestSuite is the suite as testsuite reads it.
	TestSuite *testsuite.Suite
	// Executed are, per function id, the test files whose run entered it
	// (measure.go); nil when the audit is static.
	Executed map[string][]string
	// Unrunnable are the candidate test files the measurement could not run
	// (they failed to load, or the run failed), with their first error:
	// they measured nothing (cannot-measure).
	Unrunnable map[string]string
	reach      map[string]*testReach
	// touchedIDs caches touched().
	touchedIDs map[string]bool
	inputs     map[string]*TestInput // parsed test files, by path (eachTest)
	sources    map[string][]byte     // production files' text (judged)
}

// TestInput is a test file as the rules read it: its syntax tree and its
// structure (suites, tests, hooks, assertions).
type TestInput struct {
	File      *analyzer.File // its imports and mocks (analyzer.File.Mocks), from the same source as Syntax (its nodes are Syntax's)
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
	// Config is the vitest config file (--config), "" for vitest's own.
	Config string
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
	// Rules, when set, are the names of the rules to run (default: all).
	Rules []string
	// Runner, when set, runs the test files that may run each function
	// (in a sandbox copy) to measure which do: blind-function decides on
	// what ran. Nil: the audit is static (the walk alone decides).
	Runner runner.Runner
	// Tables: compute the validator's three tables too (Report.Tables;
	// tables.go), the mock-swap run with Runner.
	Tables bool
	// Jest, when set, says the repository's tests run on jest (what says
	// so: testsuite.RunsJest): its test files are jest's (testsuite
	// Options.Jest), mock-drift reads jest.mock as vi.mock, and the
	// cross-component table's mock-swap run swaps its jest.mock calls in
	// jest's spelling and runs them on jest (JestMockNote).
	Jest string
}

// onJest notes on rep that the mock rules do not read a jest repository's
// mocks (Options.Jest; the cross-component table says so too: tables).
func onJest(rep *Report, opts Options) {
	if opts.Jest == "" {
		return
	}
	rep.Notes = append(rep.Notes, JestMockNote(opts.Jest))
}

// JestMockNote is the note of an audit of a repository whose tests run on
// jest (Options.Jest, found by what): what reads its tests.
func JestMockNote(found string) string {
	return fmt.Sprintf("this repository's tests run on jest (%s): blind-function, the vacuous-test rules, mock-drift (its jest.mock factories, jest.fn and jest.mocked implementations) and the cross-component table's mock swap (its jest.mock calls, run on jest) read and run its tests", found)
}

// Report is what Audit found, sorted by rule, file, line.
type Report struct {
	Findings []Finding `json:"findings"`
	// Static says blind-function decided from the code alone (no test ran).
	Static bool `json:"static"`
	// Notes say what the measurement could not see (test files that failed
	// on the code as it is).
	Notes []string `json:"notes,omitempty"`
	// Timings say where the audit's time went, in seconds.
	Timings Timings `json:"timings"`
	// Tables are the validator's three tables (Options.Tables), without
	// the requirements the caller adds.
	Tables *Tables `json:"tables,omitempty"`
}

// Timings of an audit, in seconds: reading the suite (vitest list and
// setupFiles, parsing), the static walk, the measurement (the candidates'
// runs with probes, Runs of them, and the sandbox copy, Sandbox of it) and
// the rules.
type Timings struct {
	Suite   float64 `json:"suite"`
	Walk    float64 `json:"walk"`
	Sandbox float64 `json:"sandbox"`
	Measure float64 `json:"measure"`
	Runs    int     `json:"runs"`
	Rules   float64 `json:"rules"`
	// Swap is the mock-swap run of the tables (SwapRuns vitest runs).
	Swap     float64 `json:"swap,omitempty"`
	SwapRuns int     `json:"swapRuns,omitempty"`
}

// Audit runs every rule on the repository at root.
func Audit(ctx context.Context, root string, opts Options) (*Report, error) {
	rep := &Report{Static: opts.Runner == nil}
	phase := time.Now()
	lap := func(into *float64) {
		*into = time.Since(phase).Seconds()
		phase = time.Now()
	}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := CheckEnable(opts.Enable); err != nil {
		return nil, err
	}
	rules, err := selectRules(opts.Rules)
	if err != nil {
		return nil, err
	}
	// The test files' syntax trees are kept from the parse that checks
	// them when a rule or the tables read them: each is parsed once. The
	// config probe's node process is kept when a rule runs tests
	// (testsuite.Options.KeepWarm): the measuring run, one plain `vitest
	// run`, becomes it (runner.RunTogetherOn), and the runner kills it at
	// Close when nothing ran.
	var keep func(*warmnode.Proc)
	if requires(rules, Executed) {
		keep = runner.WarmOffer(opts.Runner)
	}
	ts, err := testsuite.Load(p, testsuite.Options{Config: opts.Config, Tests: opts.Tests, SetupFiles: opts.SetupFiles, Fixtures: opts.Fixtures, Jest: opts.Jest != "",
		Syntax: requires(rules, TestFiles) || opts.Tables, KeepWarm: keep, Stop: ctx.Done()})
	if err != nil {
		return nil, err
	}
	if ts.ConfigNote != "" {
		rep.Notes = append(rep.Notes, ts.ConfigNote)
	}
	onJest(rep, opts)
	// The probe's node said whether it has what the markers need: no node -e to ask again.
	runner.KnowMarkerSupport(ts.Node.Version, ts.Node.Builtin)
	s, err := NewSuite(p, ts, opts)
	if err != nil {
		return nil, err
	}
	lap(&rep.Timings.Suite)
	if requires(rules, Reach) {
		s.computeReach()
	}
	lap(&rep.Timings.Walk)
	if opts.Runner != nil && requires(rules, Executed) {
		notes, err := s.measure(ctx, opts.Runner, &rep.Timings)
		if err != nil {
			return nil, err
		}
		rep.Notes = append(rep.Notes, notes...)
	}
	lap(&rep.Timings.Measure)
	// A test file that does not parse, or is written for jest, runs
	// nothing here (testsuite): reported, and nothing it seems to run or
	// stub counts.
	var out []Finding
	for _, pr := range ts.Problems {
		out = append(out, Finding{Rule: CannotAudit, Severity: Warning, File: pr.File, Line: pr.Line, Message: pr.Reason})
	}
	// A rule that fails fails the audit (exit 3), named; every rule runs,
	// so that all the failing ones are named.
	var failed []error
	for _, r := range rules {
		pass := s.pass(r)
		if err := r.Run(pass); err != nil {
			failed = append(failed, &RuleError{Rule: r.Name, Err: err})
			continue
		}
		out = append(out, pass.findings...)
	}
	if len(failed) > 0 {
		return nil, errors.Join(failed...)
	}
	lap(&rep.Timings.Rules)
	applyIgnores(p, out)
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Rule, b.Rule), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Message, b.Message))
	})
	if opts.Tables {
		var measured []Finding
		if rep.Tables, measured, err = s.tables(ctx, opts.Runner, out, &rep.Timings); err != nil {
			return nil, err
		}
		applyIgnores(p, measured)
		out = append(out, measured...)
		slices.SortStableFunc(out, func(a, b Finding) int {
			return cmp.Or(strings.Compare(a.Rule, b.Rule), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Message, b.Message))
		})
	}
	rep.Findings = out
	return rep, nil
}

// NewSuite reads what each test file of ts reaches by the static walk.
func NewSuite(p *callgraph.Program, ts *testsuite.Suite, opts Options) (*Suite, error) {
	s := &Suite{Program: p, Enable: map[string]bool{}, Change: opts.Change, TestSuite: ts, Jest: opts.Jest}
	for _, e := range opts.Enable {
		s.Enable[e] = true
	}
	s.Tests = ts.Tests
	for _, f := range ts.Production {
		if inPaths(f, opts.Paths) {
			s.Production = append(s.Production, f)
		}
	}
	return s, nil
}

// reachComputed counts computeReach's walks (a test reads it: the driver
// computes only what the enabled rules require).
var reachComputed int

// computeReach reads what each test file reaches by the static walk (the
// Reach fact), once.
func (s *Suite) computeReach() {
	if s.reach != nil {
		return
	}
	reachComputed++
	s.reach = map[string]*testReach{}
	p, ts := s.Program, s.TestSuite
	reaches := make([]*testReach, len(s.Tests))
	par.Each(len(s.Tests), func(i int) { reaches[i] = reachOf(p, ts.File(s.Tests[i])) })
	for i, t := range s.Tests {
		s.reach[t] = reaches[i]
	}
}

// selectRules is the rules of names, in Rules' order (all when none), or
// an error naming an unknown one and the rules there are.
func selectRules(names []string) ([]*Rule, error) {
	if len(names) == 0 {
		return Rules, nil
	}
	var out []*Rule
	for _, r := range Rules {
		if slices.Contains(names, r.Name) {
			out = append(out, r)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(Rules, func(r *Rule) bool { return r.Name == n }) {
			var all []string
			for _, r := range Rules {
				all = append(all, r.Name)
			}
			return nil, fmt.Errorf("no rule %q; the rules are %s", n, strings.Join(all, ", "))
		}
	}
	return out, nil
}

// reachOf is what test file f runs: everything its code and the modules it
// loads call, except what its vi.mock calls replace (a whole module, or the
// exports a partial mock sets to stubs; a call-through `vi.fn(original)`
// still runs the original).
func reachOf(p *callgraph.Program, tf *testsuite.TestFile) *testReach {
	tr := &testReach{mocks: tf.Mocks, file: tf.File}
	stub := func(module, export string) bool {
		for _, m := range tr.mocks[module] {
			if export == "" && !m.Partial || export != "" && m.Partial && overriddenStub(m, export) {
				return true
			}
		}
		return false
	}
	tr.fns, tr.stubbed = p.ReachFunctions(tf.File, stub)
	return tr
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

// eachTest hands every test file of the suite to do, in order, as
// testsuite parsed it (its syntax tree, kept with Options.Syntax: a test
// file is parsed once), its structure read once for all the rules.
func (s *Suite) eachTest(do func(test string, in *TestInput)) {
	if s.inputs == nil {
		s.inputs = map[string]*TestInput{}
	}
	for _, t := range s.Tests {
		in, ok := s.inputs[t]
		if !ok {
			if tf := s.TestSuite.File(t); tf != nil && tf.Syntax != nil {
				in = &TestInput{File: tf.File, Syntax: tf.Syntax, Structure: analyzer.TestStructure(tf.Syntax)}
			}
			s.inputs[t] = in
		}
		if in != nil {
			do(t, in)
		}
	}
}

// touched is the set of the function ids the change (--base) touched
// (testsuite.TouchedFunctions), computed once; nil without a change.
func (s *Suite) touched() map[string]bool {
	if s.Change == nil {
		return nil
	}
	if s.touchedIDs == nil {
		s.touchedIDs = map[string]bool{}
		for _, t := range testsuite.TouchedFunctions(s.Program, s.Change, s.Production) {
			s.touchedIDs[t.ID()] = true
		}
	}
	return s.touchedIDs
}
