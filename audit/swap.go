package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
	"github.com/oracle-ts/oracle/testsuite"
)

// The mock-swap run (the cross-component table): every whole-module vi.mock
// of a module of the repository that the tests neither program nor inspect
// is swapped for the real module, in a sandbox copy, and the test file run
// again. Two vitest runs for all such files at once: the first with the
// mocks as written, each factory's value wrapped so that what its functions
// return is recorded (swapRecorder), the second with each mock replaced by
// a pass-through of the real module wrapped the same way. A test that
// fails unmocked where the real values have another shape than the mock's
// is the drift the mock hid.

// SwapEnv names the file the recorder of the mock-swap run appends to.
const SwapEnv = "ORACLE_SWAP"

// swapRecorder is a JavaScript function expression (tag, module) =>
// module' that records the module's export names, and, for every call of
// one of its functions, whether it returned a promise and the property
// paths of the value (to depth 4, an array by its first element) as one
// JSON line appended to $ORACLE_SWAP; module' is the module with its
// functions wrapped (classes and other values as they are). It needs no
// import (process.getBuiltinModule), so it may stand in a vi.mock factory.
const swapRecorder = `((t, m) => { const g = globalThis, p = Reflect.get(g, "process"), fs = p?.getBuiltinModule?.("node:fs"), out = p?.env?.` + SwapEnv + `; const rec = (o) => { try { if (out && fs) fs.appendFileSync(out, JSON.stringify({ t, ...o }) + "\n"); } catch {} }; const ps = (v, pre, d, o) => { if (v && typeof v === "object" && d < 4) { if (Array.isArray(v)) { if (v.length) ps(v[0], pre + "[]", d + 1, o); } else for (const k of Object.keys(v)) { o.push(pre + "." + k); ps(v[k], pre + "." + k, d + 1, o); } } return o; }; const kind = (v) => v === null ? "null" : Array.isArray(v) ? "array" : typeof v; const shape = (e, a, v) => rec({ e, a, k: kind(v), p: ps(v, "", 0, []).sort() }); const w = {}; rec({ x: Object.keys(m).sort() }); for (const k of Object.keys(m)) { const f = m[k]; w[k] = typeof f !== "function" || /^class\b/.test(Function.prototype.toString.call(f)) ? f : function (...a) { if (new.target) return Reflect.construct(f, a, new.target); const r = f.apply(this, a); if (r && typeof r.then === "function") return r.then((v) => { shape(k, true, v); return v; }); shape(k, false, r); return r; }; } return w; })`

// swapMock is one whole-module mock of a repository module in a test file.
type swapMock struct {
	test, module, spec string
	line, endLine      int
	node               analyzer.Node
	syn                *analyzer.Syntax
	factory            bool
	interaction        string // the test's own use of the mock that makes it an interaction test
	mocksFile          string // automock: the __mocks__ file standing in, repo-relative ("" none)
	// generic are the module's exports declared to return one of their own
	// type parameters (`fetchJson<T>(url): Promise<T>`), with that type:
	// their values are their data's, not a shape of the module.
	generic map[string]string
}

// repoMocks are the whole-module vi.mock calls of modules of the repository
// in the test files, in file and line order, without those that only pin
// constants.
func (s *Suite) repoMocks() []*swapMock {
	var out []*swapMock
	s.eachTest(func(test string, in *TestInput) {
		if in.File == nil || in.Syntax == nil {
			return
		}
		syn := in.Syntax
		for i := range in.File.Mocks {
			m := in.File.Mocks[i]
			if m.Call != s.mockCall() || m.Partial || m.File != "" || m.Node < 0 {
				continue
			}
			r := s.Program.Resolver().Resolve(test, m.Specifier)
			if r.Kind != "file" || r.Path == test {
				continue
			}
			args := syn.NamedChildren(syn.Child(m.Node, "arguments"))
			if m.Factory && len(args) >= 2 && constantsOnly(syn, args[1]) {
				continue
			}
			factory := m.Factory && len(args) >= 2
			if len(args) >= 2 && syn.Kind(syn.Unwrap(args[1])) == "object" {
				// vi.mock(path, { spy: true }): the real module, its exports
				// spied on: no boundary. Other options: an automock.
				if strings.Contains(syn.Text(args[1]), "spy") {
					continue
				}
				factory = false
			}
			sm := &swapMock{test: test, module: r.Path, spec: m.Specifier, line: m.Line, endLine: syn.Line(syn.End(m.Node)), node: m.Node, syn: syn, factory: factory}
			if !sm.factory {
				mf := testsuite.ManualMock(r.Path)
				if _, err := os.Stat(filepath.Join(s.Program.Root(), filepath.FromSlash(mf))); err == nil {
					sm.mocksFile = mf
				}
			}
			sm.interaction = interactionUse(s, test, in, sm)
			out = append(out, sm)
		}
	})
	return out
}

// mockCall is the call that mocks a whole module in the suite's test files:
// vi.mock, or jest.mock on jest (Options.Jest).
func (s *Suite) mockCall() string {
	if s.Jest != "" {
		return "jest.mock"
	}
	return "vi.mock"
}

// constantsOnly reports a factory whose value is an object literal of
// literals only (`() => ({ VERSION: "0.0.0-test" })`): it pins constants,
// it stands in for no function.
func constantsOnly(syn *analyzer.Syntax, factory analyzer.Node) bool {
	obj := returnedObject(syn, factory)
	if obj < 0 {
		return false
	}
	var literal func(n analyzer.Node) bool
	literal = func(n analyzer.Node) bool {
		n = syn.Unwrap(n)
		switch syn.Kind(n) {
		case "string", "number", "true", "false", "null", "undefined":
			return true
		case "template_string":
			plain := true
			syn.Walk(n, func(c analyzer.Node) bool {
				plain = plain && syn.Kind(c) != "template_substitution"
				return plain
			})
			return plain
		case "array":
			for _, c := range syn.NamedChildren(n) {
				if !literal(c) {
					return false
				}
			}
			return true
		case "object":
			for _, c := range syn.NamedChildren(n) {
				if syn.Kind(c) != "pair" || !literal(syn.Child(c, "value")) {
					return false
				}
			}
			return true
		}
		return false
	}
	return len(syn.NamedChildren(obj)) > 0 && literal(obj)
}

// interactionUse is how the test file programs or inspects the mock
// (`vi.mocked(f).mockResolvedValue(...)`, `f.mockReturnValue(...)`,
// `expect(f).toHaveBeenCalledWith(...)`, `vi.spyOn(ns, ...)`), the names
// being what it imports from the mocked module and the identifiers the
// factory places; "" when it does neither.
func interactionUse(s *Suite, test string, in *TestInput, m *swapMock) string {
	var names []string
	for _, im := range in.File.Imports {
		if im.TypeOnly || im.Local == "" {
			continue
		}
		if r := s.Program.Resolver().Resolve(test, im.Specifier); r.Kind == "file" && r.Path == m.module {
			names = append(names, im.Local)
		}
	}
	return interactionIn(test, in.Syntax, m, names)
}

// interactionIn is interactionUse on the test file's syntax, names the
// bindings of the mocked module it imports.
func interactionIn(test string, syn *analyzer.Syntax, m *swapMock, names []string) string {
	var members []string // what the factory's value holds: keys, class fields and methods
	if m.factory {
		args := syn.NamedChildren(syn.Child(m.node, "arguments"))
		syn.Walk(args[1], func(n analyzer.Node) bool {
			switch syn.Kind(n) {
			case "pair":
				if v := syn.Unwrap(syn.Child(n, "value")); syn.Kind(v) == "identifier" {
					names = append(names, syn.Text(v))
				}
				if k := syn.Child(n, "key"); syn.Kind(k) == "property_identifier" {
					members = append(members, syn.Text(k))
				}
			case "public_field_definition", "method_definition":
				if k := syn.Child(n, "name"); k >= 0 {
					members = append(members, syn.Text(k))
				}
			}
			return true
		})
	}
	const called = `\s*\)\s*\.(not\.)?(toHaveBeenCalled|toBeCalled|toHaveBeenLastCalled|toHaveBeenNthCalled|toHaveReturned|toReturn|lastCalledWith|nthCalledWith)`
	const setter = `\.mock(\w+\(|\.calls|\.results|\.lastCall)`
	var pats []string
	for _, name := range names {
		q := regexp.QuoteMeta(name)
		pats = append(pats, `\b(vi|jest)\.mocked\(\s*`+q+`\b`, `\b`+q+`(\.\w+)?`+setter, `\(\s*`+q+`(\.\w+)?\s+as\s+[\w.]*Mock\w*`,
			`expect\(\s*`+q+`(\.\w+)?`+called, `\b(vi|jest)\.spyOn\(\s*`+q+`\s*,`)
	}
	// A member of the mock's value reached through an instance or an
	// object (`service.finalize` of a mocked class).
	for _, name := range members {
		q := regexp.QuoteMeta(name)
		pats = append(pats, `\b(vi|jest)\.mocked\(\s*(?:[\w$]+\.)+`+q+`\b`, `\.`+q+setter, `expect\(\s*(?:[\w$]+\.)+`+q+called)
	}
	if m.factory {
		if rec := factoryRecords(test, syn, m); rec != "" {
			return rec
		}
	}
	src := string(syn.Src())
	first := -1
	var found string
	for _, pat := range pats {
		if loc := regexp.MustCompile(pat).FindStringIndex(src); loc != nil && (first < 0 || loc[0] < first) {
			first, found = loc[0], src[loc[0]:loc[1]]
		}
	}
	if first < 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: `%s`", test, strings.Count(src[:first], "\n")+1, text.OneLine(found, 60))
}

// recorders are the methods by which a factory records into a collection
// (`evaluated.add("cert")`, `calls.push(x)`).
var recorders = map[string]bool{"add": true, "push": true, "set": true, "unshift": true}

// factoryRecords is how a vi.mock factory records into state of the test
// file that the test reads (`vi.mock("./cert", () => { evaluated.add("cert");
// ... })` and `expect(evaluated.has("cert"))`): the test inspects the mock's
// loading, an instrumentation the real module does not do; "" when it does
// not.
func factoryRecords(test string, syn *analyzer.Syntax, m *swapMock) string {
	args := syn.NamedChildren(syn.Child(m.node, "arguments"))
	f := args[1]
	var name string
	var at analyzer.Node = analyzer.NoNode
	syn.Walk(f, func(n analyzer.Node) bool {
		var target analyzer.Node = analyzer.NoNode
		switch syn.Kind(n) {
		case "call_expression":
			if fn := syn.Child(n, "function"); syn.Kind(fn) == "member_expression" && recorders[syn.Text(syn.Child(fn, "property"))] {
				target = syn.Child(fn, "object")
			}
		case "assignment_expression", "augmented_assignment_expression":
			target = syn.Child(n, "left")
		case "update_expression":
			target = syn.Child(n, "argument")
		}
		if r := rootName(syn, target); r != "" && name == "" && !declaredWithin(syn, f, r) {
			name, at = r, n
		}
		return name == ""
	})
	if name == "" {
		return ""
	}
	read := false
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if syn.Start(n) >= syn.Start(f) && syn.End(n) <= syn.End(f) {
			return false // the factory's own use
		}
		if syn.Kind(n) == "identifier" && syn.Text(n) == name && syn.Kind(syn.Parent(n)) != "variable_declarator" {
			read = true
		}
		return !read
	})
	if !read {
		return ""
	}
	return fmt.Sprintf("%s:%d: the factory records into `%s` (`%s`), which the test reads", test, syn.Line(syn.Start(at)), name, text.OneLine(syn.Text(at), 50))
}

// declaredWithin reports whether name is declared (a variable or a
// parameter) inside n.
func declaredWithin(syn *analyzer.Syntax, n analyzer.Node, name string) bool {
	found := false
	syn.Walk(n, func(x analyzer.Node) bool {
		switch syn.Kind(x) {
		case "variable_declarator", "required_parameter", "optional_parameter":
			pat := syn.Child(x, "name")
			if pat < 0 {
				pat = syn.Child(x, "pattern")
			}
			for _, id := range syn.PatternNames(pat) {
				found = found || syn.Text(id) == name
			}
		case "arrow_function":
			if q := syn.Child(x, "parameter"); q >= 0 && syn.Text(q) == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// swapCall is one call of a mocked or real export, as recorded.
type swapCall struct {
	Tag     string   `json:"t"`
	Exports []string `json:"x"`
	Export  string   `json:"e"`
	Async   bool     `json:"a"`
	Kind    string   `json:"k"`
	Paths   []string `json:"p"`
}

// maxShownPaths bounds the property paths a shape names in a footnote (the
// paths that differ are named apart, in full).
const maxShownPaths = 16

// shape is how a call's value reads in a finding: "a promise of { .a, .b.c }".
func (c swapCall) shape() string {
	var v string
	switch {
	case c.Kind == "object" && len(c.Paths) == 0:
		v = "{}"
	case c.Kind == "object" || c.Kind == "array" && len(c.Paths) > 0:
		ps := c.Paths
		if len(ps) > maxShownPaths { // a module namespace (loadKit's @nuxt/kit): hundreds
			ps = append(slices.Clone(ps[:maxShownPaths]), fmt.Sprintf("… %d more", len(c.Paths)-maxShownPaths))
		}
		v = "{ " + strings.Join(ps, ", ") + " }"
		if c.Kind == "array" {
			v = "an array of " + v
		}
	default:
		v = c.Kind
	}
	if c.Async {
		return "a promise of " + v
	}
	return v
}

// swapOutcome is what one vitest run said of one test file.
type swapOutcome struct {
	ran     bool         // the file is in the report
	loadErr string       // it failed without a test result (it did not load)
	failed  []failedTest // the failing tests, by name
	failing map[string]bool
	passed  map[string]bool // the tests that passed, by vitest's full name
}

// failedTest is a test that failed, with the first line of its message.
type failedTest struct{ name, msg string }

func (f failedTest) String() string { return fmt.Sprintf("%q (%s)", f.name, f.msg) }

// crossRows are the rows of the cross-component table. r nil: the audit is
// static, nothing runs (the with-real cells UNKNOWN).
func (s *Suite) crossRows(ctx context.Context, r runner.Runner, findings []Finding, tm *Timings) (rows []CrossRow, asserted *assertedRun, err error) {
	mocks := s.repoMocks()
	rows = make([]CrossRow, len(mocks))
	var swap []int
	for i, m := range mocks {
		rows[i] = CrossRow{Test: m.test, Module: m.module, Mock: m.spec, Line: m.line, Shape: shapeVerdict(m, findings)}
		switch {
		case m.interaction != "":
			rows[i].WithReal = Verdict{Cell: CellUnknown, File: m.test, Line: m.line, Evidence: "interaction test: the test programs or inspects the mock itself (" + m.interaction + "); not swapped"}
		case r == nil:
			rows[i].WithReal = Verdict{Cell: CellUnknown, File: m.test, Line: m.line, Evidence: "static audit: the test file was not run with the real module"}
		default:
			swap = append(swap, i)
		}
	}
	if r == nil {
		return rows, asserted, nil
	}
	start := time.Now()
	defer func() { tm.Swap = time.Since(start).Seconds() }()
	pool := lab.SandboxPool(s.Program.Root(), "", 1, r)
	pool.Config = s.TestSuite.Config // a workspace's config above the package is placed in the sandbox
	defer pool.Close()
	sbs, err := pool.Grow(1)
	if err != nil {
		return nil, nil, err
	}
	sb := sbs[0]
	// The first run: every test file, its mocks as written (the swapped
	// ones recorded) and every expect(...) marked (asserted.go).
	byFile := map[string][]int{}
	for _, i := range swap {
		byFile[mocks[i].test] = append(byFile[mocks[i].test], i)
	}
	sources := map[string][]byte{}
	var files []string
	marks := map[string]*markedFile{}
	for fi, t := range s.Tests {
		in := s.inputs[t]
		if in == nil || in.File == nil || in.Syntax == nil || in.Structure == nil {
			continue
		}
		rs := mockRepls(mocks, byFile[t], "m", false, s.Jest != "")
		mf := markExpects(fi, in.File, in.Syntax, in.Structure, rs)
		if len(rs) == 0 && mf == nil {
			continue
		}
		tail := ""
		if mf != nil {
			rs, tail = append(rs, mf.repls...), expectMarker
			marks[t] = mf
		}
		sources[t] = applyRepls(in.Syntax.Src(), rs, tail)
		files = append(files, t)
	}
	var recs [2]map[string][]swapCall
	var outs [2]map[string]*swapOutcome
	if len(files) > 0 {
		res, err := s.swapRun(ctx, sb, files, sources, "m")
		if err != nil {
			return nil, nil, err
		}
		recs[0], outs[0] = res.recs, res.outcomes
		asserted = &assertedRun{marks: marks, asserted: res.asserted, outcomes: res.outcomes}
		tm.SwapRuns++
	}
	// The second: the files with swapped mocks, each mock replaced by the
	// real module, recorded.
	files, sources = nil, map[string][]byte{}
	for _, t := range s.Tests {
		if idx := byFile[t]; len(idx) > 0 {
			files = append(files, t)
			sources[t] = applyRepls(mocks[idx[0]].syn.Src(), mockRepls(mocks, idx, "r", true, s.Jest != ""), "")
		}
	}
	if len(files) > 0 {
		res, err := s.swapRun(ctx, sb, files, sources, "r")
		if err != nil {
			return nil, nil, err
		}
		recs[1], outs[1] = res.recs, res.outcomes
		tm.SwapRuns++
	}
	for _, i := range swap {
		mocks[i].generic = genericReturns(s.Program, mocks[i].module)
	}
	for _, i := range swap {
		rows[i].WithReal = swapVerdict(mocks, swap, i, recs, outs)
	}
	return rows, asserted, nil
}

// swapResult is what one run of swapRun recorded.
type swapResult struct {
	recs     map[string][]swapCall   // the recorded calls, by tag
	outcomes map[string]*swapOutcome // by test file
	asserted map[string]bool         // the expect calls that ran (markExpects' ids)
}

// swapRun writes the test files of the run into the sandbox with the
// sources given, runs vitest (the script at path vitest) on them once, restores them, and returns the
// recorded calls by tag, what the run said of each file and the expect
// calls that ran.
func (s *Suite) swapRun(ctx context.Context, sb *sandbox.Sandbox, files []string, sources map[string][]byte, tag string) (*swapResult, error) {
	for _, f := range files {
		src := sources[f]
		if s.Jest != "" {
			// ts-jest type-checks a test file it runs: the recorder and the
			// expect markers are JavaScript (a file's lines move down by one).
			src = append([]byte("// @ts-nocheck\n"), src...)
		}
		if err := sb.WriteFile(f, src); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	defer func() {
		for _, f := range files {
			_ = sb.Restore(f)
		}
	}()
	tmp := sandbox.TempDirFor(sb.Root)
	if tmp == "" {
		return nil, fmt.Errorf("sandbox %s: no temporary directory", sb.Root)
	}
	recFile, assertFile := filepath.Join(tmp, "swap-"+tag), filepath.Join(tmp, "asserted-"+tag)
	os.Remove(recFile)
	os.Remove(assertFile)
	spec := runner.Spec{Dir: sb.Root, Config: s.TestSuite.Config}
	together := runner.RunTogether
	if s.Jest != "" {
		together = runner.RunTogetherJest
	}
	run, err := together(ctx, spec, files, SwapEnv+"="+recFile, AssertedEnv+"="+assertFile)
	if err != nil {
		return nil, err
	}
	outcomes := map[string]*swapOutcome{}
	if !run.Report {
		why := text.FirstLine(run.Output, 300)
		for _, f := range files {
			outcomes[f] = &swapOutcome{ran: true, loadErr: "vitest gave no report: " + why}
		}
	}
	for rel, tr := range run.Files {
		o := &swapOutcome{ran: true, failing: map[string]bool{}, passed: map[string]bool{}}
		for _, a := range tr.Tests {
			if a.Status == "passed" {
				o.passed[a.Name] = true
			}
			if a.Status == "failed" {
				msg := ""
				if a.Failure != "" {
					msg = text.FirstLine(a.Failure, 200)
				}
				o.failed = append(o.failed, failedTest{a.Name, msg})
				o.failing[a.Name] = true
			}
		}
		if tr.Status == "failed" && len(o.failed) == 0 {
			o.loadErr = text.FirstLine(tr.Message, 300)
			if o.loadErr == "" {
				o.loadErr = "the test file failed without a test result"
			}
		}
		slices.SortFunc(o.failed, func(a, b failedTest) int { return strings.Compare(a.name, b.name) })
		outcomes[rel] = o
	}
	recs := map[string][]swapCall{}
	if b, err := os.ReadFile(recFile); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			var c swapCall
			if line != "" && json.Unmarshal([]byte(line), &c) == nil {
				recs[c.Tag] = append(recs[c.Tag], c)
			}
		}
	}
	asserted := map[string]bool{}
	if b, err := os.ReadFile(assertFile); err == nil {
		for _, id := range strings.Split(string(b), "\n") {
			if id != "" {
				asserted[id] = true
			}
		}
	}
	os.Remove(recFile)
	os.Remove(assertFile)
	return &swapResult{recs: recs, outcomes: outcomes, asserted: asserted}, nil
}

// repl replaces src[start:end] of a test file.
type repl struct {
	start, end uint
	with       string
}

// mockRepls are the replacements that record the mocks idx (all of one
// test file): unmocked, each replaced by a pass-through of the real module;
// else its factory's value wrapped (an automock with a __mocks__ file: that
// file's module; a bare automock stays as it is). Line numbers are kept.
//
// On jest (jestSpelling) the same in its spelling: a factory is called with
// no argument and returns the module, the real one is jest.requireActual's.
func mockRepls(mocks []*swapMock, idx []int, tag string, unmocked, jestSpelling bool) []repl {
	if len(idx) == 0 {
		return nil
	}
	syn := mocks[idx[0]].syn
	src := syn.Src()
	var rs []repl
	for _, i := range idx {
		m := mocks[i]
		args := syn.NamedChildren(syn.Child(m.node, "arguments"))
		spec := syn.Text(args[0])
		rec := fmt.Sprintf("(%s)(%q, ", swapRecorder, fmt.Sprint(tag, i))
		start, end := syn.Start(m.node), syn.End(m.node)
		keep := strings.Repeat("\n", strings.Count(string(src[start:end]), "\n"))
		switch {
		case jestSpelling:
			if r, ok := jestRepl(m, syn, args, spec, rec, unmocked); ok {
				rs = append(rs, r)
			}
		case unmocked:
			rs = append(rs, repl{start, end, "vi.mock(" + spec + ", async (__oracleIO) => " + rec + "await __oracleIO()))" + keep})
		case m.factory:
			f := args[1]
			rs = append(rs, repl{syn.Start(f), syn.End(f), "async (__oracleIO) => " + rec + "await (" + syn.Text(f) + ")(__oracleIO))"})
		case m.mocksFile != "":
			imp := relImport(m.test, m.mocksFile)
			rs = append(rs, repl{start, end, "vi.mock(" + spec + ", async () => " + rec + "await import(" + fmt.Sprintf("%q", imp) + ")))" + keep})
		}
	}
	return rs
}

// jestRepl is mockRepls' replacement of jest mock m (its arguments args,
// its module's specifier spec as written, rec the recorder's call opened).
func jestRepl(m *swapMock, syn *analyzer.Syntax, args []analyzer.Node, spec, rec string, unmocked bool) (repl, bool) {
	start, end := syn.Start(m.node), syn.End(m.node)
	keep := strings.Repeat("\n", strings.Count(string(syn.Src()[start:end]), "\n"))
	switch {
	case unmocked:
		return repl{start, end, "jest.mock(" + spec + ", () => " + rec + "jest.requireActual(" + spec + ")))" + keep}, true
	case m.factory:
		f := args[1]
		return repl{syn.Start(f), syn.End(f), "() => " + rec + "(" + syn.Text(f) + ")())"}, true
	case m.mocksFile != "":
		imp := fmt.Sprintf("%q", relImport(m.test, m.mocksFile))
		return repl{start, end, "jest.mock(" + spec + ", () => " + rec + "jest.requireActual(" + imp + ")))" + keep}, true
	}
	return repl{}, false
}

// applyRepls is src with the replacements rs (which do not overlap) made,
// and tail appended.
func applyRepls(src []byte, rs []repl, tail string) []byte {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b repl) int { return int(b.start) - int(a.start) })
	out := slices.Clone(src)
	for _, r := range rs {
		out = slices.Concat(out[:r.start:r.start], []byte(r.with), out[r.end:])
	}
	return append(out, tail...)
}

// relImport is the relative specifier of file to from the test file.
func relImport(test, file string) string {
	rel, err := filepath.Rel(filepath.Dir(filepath.FromSlash(test)), filepath.FromSlash(file))
	if err != nil {
		return file
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, ".") {
		rel = "./" + rel
	}
	return rel
}

// outside are failure messages that say the test needs something outside
// the repository's files: a service, the network, a key, more time, or the
// git metadata a sandbox copy leaves out (a `git` command run in it fails:
// Node's "Command failed: git ...", git's "not a git repository").
var outside = regexp.MustCompile(`(?i)ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|fetch failed|getaddrinfo|socket hang up|network|timed out|api[ _-]?key|credentials|unauthori[sz]ed|environment variable|process\.env|not a git repository|Command failed: git\s`)

// NeedsOutside returns the line of a failure's message that says the run
// needs something outside the repository's files (outside), "" when none
// does: a sandbox copy cannot decide such a run.
func NeedsOutside(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if outside.MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// swapVerdict is the with-real cell of mock i.
func swapVerdict(mocks []*swapMock, swap []int, i int, recs [2]map[string][]swapCall, outs [2]map[string]*swapOutcome) Verdict {
	m := mocks[i]
	at := func(c Cell, format string, a ...any) Verdict {
		return Verdict{Cell: c, File: m.test, Line: m.line, Evidence: fmt.Sprintf(format, a...)}
	}
	mocked, real := outs[0][m.test], outs[1][m.test]
	if real == nil || !real.ran {
		return at(CellUnknown, "the test file did not run unmocked (vitest left it out of its report)")
	}
	if real.loadErr != "" {
		if outside.MatchString(real.loadErr) {
			return at(CellUnknown, "cannot run with the real module for want of something outside the repository: %s", real.loadErr)
		}
		return at(CellUnknown, "the test file cannot run with the real module: %s", real.loadErr)
	}
	if len(real.failed) == 0 {
		return at(CellPass, "")
	}
	var newly []failedTest
	for _, f := range real.failed {
		if mocked != nil && mocked.failing[f.name] {
			continue
		}
		newly = append(newly, f)
	}
	if len(newly) == 0 {
		return at(CellUnknown, "the tests that fail with the real module fail with the mock too: %s", real.failed[0])
	}
	if outside.MatchString(newly[0].msg) {
		return at(CellUnknown, "cannot run with the real module for want of something outside the repository: test %s", newly[0])
	}
	d, compared := shapeDiff(m, recs[0][fmt.Sprint("m", i)], recs[1][fmt.Sprint("r", i)])
	if d != "" {
		return at(CellFail, "test %s fails with the real module; %s", newly[0], d)
	}
	for _, j := range swap {
		if d, _ := shapeDiff(mocks[j], recs[0][fmt.Sprint("m", j)], recs[1][fmt.Sprint("r", j)]); j != i && mocks[j].test == m.test && d != "" {
			return at(CellUnknown, "test %s fails with the real modules, but this mock's values have the real module's shapes (the mock of %s differs)", newly[0], mocks[j].module)
		}
	}
	if !compared {
		for _, c := range recs[0][fmt.Sprint("m", i)] {
			if rt, ok := m.generic[c.Export]; ok {
				return at(CellUnknown, "test %s fails with the real module, whose %s is declared to return its type parameter (%s): its values are its data's (a response, a file), not a shape of %s, so the mock's cannot be compared with them", newly[0], c.Export, rt, m.module)
			}
		}
		return at(CellUnknown, "test %s fails with the real module, and no function of the mock returned a value on both sides (a class, or values that are not functions): the shapes cannot be compared", newly[0])
	}
	return at(CellUnknown, "the mock stages a scenario the real module does not produce for these inputs: test %s fails with the real module, whose values have the mock's shapes", newly[0])
}

// shapeDiff says how the mock's recorded values differ in shape from the
// real module's (an export the real module lacks, sync or async, property
// paths), "" when they do not; compared is false when there was nothing to
// compare (no function of the mock returned on both sides).
func shapeDiff(m *swapMock, mocked, real []swapCall) (diff string, compared bool) {
	var mx, rx []string
	byExport := func(cs []swapCall, x *[]string) map[string][]swapCall {
		out := map[string][]swapCall{}
		for _, c := range cs {
			if c.Export == "" {
				*x = c.Exports
				continue
			}
			out[c.Export] = append(out[c.Export], c)
		}
		return out
	}
	mc, rc := byExport(mocked, &mx), byExport(real, &rx)
	if rx != nil {
		for _, e := range mx {
			if !slices.Contains(rx, e) && e != "default" && !strings.HasPrefix(e, "__") {
				return fmt.Sprintf("the mock (%s:%d) has the export %s, which %s does not export", m.test, m.line, e, m.module), true
			}
		}
	}
	var exports []string
	for e := range mc {
		exports = append(exports, e)
	}
	slices.Sort(exports)
	for _, e := range exports {
		rs := rc[e]
		if _, generic := m.generic[e]; len(rs) == 0 || generic {
			continue
		}
		compared = true
		ms := mc[e]
		var d string
		compatible := false
		for _, a := range ms {
			for _, b := range rs {
				if why := incompatible(a, b); why == "" {
					compatible = true
				} else if d == "" {
					d = why
				}
			}
		}
		if compatible {
			continue
		}
		mv, rv := ms[0], rs[0]
		return fmt.Sprintf("the mock (%s:%d) makes %s return %s, the real %s returns %s: %s", m.test, m.line, e, mv.shape(), m.module, rv.shape(), d), true
	}
	return "", compared
}

// incompatible says how a mocked value's shape (mv) differs from a real
// one's (rv), "" when it does not: a promise against a plain value, an
// object against an array or a primitive, a property path the real value
// does not have (the mock { passed } where the real value is { details: {
// passed } }). A mock's value with fewer paths than the real one is
// compatible (a partial mock), and so is a null or undefined on either
// side (another value, not another shape), and the paths under an array
// one side has empty.
func incompatible(mv, rv swapCall) string {
	blank := func(k string) bool { return k == "null" || k == "undefined" }
	switch {
	case blank(mv.Kind) && !mv.Async || blank(rv.Kind) && !rv.Async:
		return ""
	case mv.Async != rv.Async:
		return "one is a promise, the other not"
	case blank(mv.Kind) || blank(rv.Kind):
		return ""
	case mv.Kind != rv.Kind:
		return fmt.Sprintf("%s against %s", mv.Kind, rv.Kind)
	}
	seen := func(paths []string, arr string) bool {
		for _, p := range paths {
			if strings.HasPrefix(p, arr) {
				return true
			}
		}
		return false
	}
	var only []string
	for _, p := range mv.Paths {
		if slices.Contains(rv.Paths, p) {
			continue
		}
		// Under an array the real value has empty, nothing is known.
		if i := strings.LastIndex(p, "[]"); i >= 0 && !seen(rv.Paths, p[:i+2]) {
			continue
		}
		only = append(only, p)
	}
	if len(only) > 0 {
		return "the real value has no " + strings.Join(only, ", ")
	}
	return ""
}

// typeParams reads the type parameters of a function's head (`function
// fetchJson<T>(`, `= async <T, U>(`).
var typeParams = regexp.MustCompile(`^[^(]*?<([^>(]*)>\s*\(`)

// genericReturns are the exported functions of module declared to return
// one of their own type parameters, bare or as a promise (`fetchJson<T>(url):
// Promise<T>`), with that return type: what they return is what their data
// is (the network's, a file's), whatever the module says, so its shape is
// no evidence of drift.
func genericReturns(p *callgraph.Program, module string) map[string]string {
	out := map[string]string{}
	f, syn := parseFile(p, module)
	if f == nil || syn == nil {
		return out
	}
	for _, fn := range f.Functions {
		if fn.Kind != analyzer.FuncTop || !fn.Exported {
			continue
		}
		rt := returnType(syn, fn)
		inner := rt
		if x, ok := strings.CutPrefix(inner, "Promise<"); ok {
			inner = strings.TrimSuffix(x, ">")
		}
		m := typeParams.FindStringSubmatch(string(syn.Src()[fn.StartByte:fn.BodyStartByte]))
		if rt == "" || m == nil {
			continue
		}
		for _, tp := range strings.Split(m[1], ",") {
			if name := strings.Fields(tp); len(name) > 0 && name[0] == strings.TrimSpace(inner) {
				out[fn.Name] = rt
			}
		}
	}
	return out
}

// shapeVerdict is the shape cell of mock m: the mock-drift findings on it
// (FAIL) or none (PASS).
func shapeVerdict(m *swapMock, findings []Finding) Verdict {
	for _, f := range findings {
		if !strings.HasPrefix(f.Rule, "mock-drift") || f.Ignored != "" || f.File != m.test {
			continue
		}
		on := f.Line >= m.line && f.Line <= m.endLine || strings.Contains(f.Message, "("+m.spec+")") || strings.Contains(f.Message, m.module)
		for _, r := range f.Related {
			on = on || r.File == m.module
		}
		if on {
			return Verdict{Cell: CellFail, File: f.File, Line: f.Line, Evidence: f.Rule + ": " + f.Message}
		}
	}
	return Verdict{Cell: CellPass}
}
