package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// BlindFunction reports every exported function (and method of an exported
// class) whose body no test runs un-stubbed: each test file that reaches its
// module replaces that module (or one on the way) with vi.mock, or a partial
// mock replaces the function itself with a stub, or no test reaches it at
// all. It names the test files that stub it and their vi.mock lines: the
// functions that need an oracle.
var BlindFunction = &Rule{
	Name:     blindFunctionRule,
	Doc:      "an exported function no test runs un-stubbed",
	Requires: []Fact{Reach, Executed},
	Run:      func(p *Pass) error { p.reportAll(blindFunctions(p)); return nil },
}

const blindFunctionRule = "blind-function"

// CannotMeasure is the rule of the functions no test entered while a test
// file that may run them could not run (it failed to load, or the whole
// run failed): it measured nothing, so they are not known to be blind.
const CannotMeasure = "cannot-measure"

// cannotMeasure is the finding on a function no test entered when some of
// its candidate test files could not run: they name the file and its
// first error.
func (p *Pass) cannotMeasure(file string, fn *analyzer.Function) (Finding, bool) {
	var failed []string
	for _, t := range p.Reach.Suite.Candidates(file) {
		if _, ok := p.Executed.Unrunnable[t]; ok {
			failed = append(failed, t)
		}
	}
	if len(failed) == 0 {
		return Finding{}, false
	}
	sort.Strings(failed)
	more := ""
	if len(failed) > 1 {
		more = fmt.Sprintf(" (and %d more test file(s) that could not run)", len(failed)-1)
	}
	fd := Finding{Rule: CannotMeasure, Severity: Warning, File: file, Line: fn.Line,
		Message: fmt.Sprintf("%s: cannot measure whether a test executes it: %s could not run: %s%s", fn.Qual, failed[0], p.Executed.Unrunnable[failed[0]], more)}
	for _, t := range failed {
		fd.Related = append(fd.Related, Location{File: t, Line: 1})
	}
	return fd, true
}

func blindFunctions(p *Pass) []Finding {
	var out []Finding
	for _, file := range p.Production {
		f, _ := p.Program.Module(file)
		if f == nil {
			continue
		}
		for _, fn := range f.Functions {
			if !p.judged(file, f, fn) {
				continue
			}
			touched := p.touched()[file+"#"+fn.Qual]
			if p.Executed.Entered != nil && p.Change != nil && !touched {
				continue // measured: --base judges what the change touched
			}
			finding, blind := p.blindMeasured(file, fn)
			if !blind && finding.Rule == "" {
				finding, blind = p.blind(file, fn)
			}
			if blind {
				if touched && finding.Rule == blindFunctionRule {
					finding.Severity = Error // the change touched it: it needs an oracle now
				}
				out = append(out, finding)
			}
		}
	}
	return out
}

// blindMeasured decides a function on what ran (the Executed fact): blind when
// no test file entered it, with the static walk's explanation. A function
// that was not measured gives no finding and an empty Rule: the static walk
// decides it.
func (p *Pass) blindMeasured(file string, fn *analyzer.Function) (Finding, bool) {
	ran, ok := p.Executed.Entered[file+"#"+fn.Qual]
	if !ok {
		return Finding{}, false
	}
	if len(ran) > 0 {
		return Finding{Rule: blindFunctionRule}, false
	}
	if fd, ok := p.cannotMeasure(file, fn); ok {
		return fd, true
	}
	fd := Finding{Rule: blindFunctionRule, Severity: Warning, File: file, Line: fn.Line,
		Message: fmt.Sprintf("%s: no test executes it (measured): %s%s", fn.Qual, p.Reach.Suite.Explain(file), p.factoryImports(file))}
	for _, m := range p.Reach.Suite.MockedAway(file) {
		where, line := m.Where()
		fd.Related = append(fd.Related, Location{File: where, Line: line})
	}
	return fd, true
}

// blind decides one function: it is blind unless some test runs it
// un-stubbed. The tests that reach it only through a mock are named, with
// their vi.mock lines.
func (p *Pass) blind(file string, fn *analyzer.Function) (Finding, bool) {
	id := file + "#" + fn.Qual
	type stub struct {
		test  string
		mocks []*analyzer.Mock
	}
	var stubs []stub
	loads := map[string]bool{} // the tests that load its module (a whole-module mock stops them at any hop)
	for _, t := range p.Reach.Suite.Candidates(file) {
		loads[t] = true
	}
	for _, t := range p.Tests {
		tr := p.Reach.tests[t]
		if loads[t] && tr.fns[id] {
			return Finding{}, false // runs un-stubbed in t
		}
		var ms []*analyzer.Mock
		for m := range tr.stubbed {
			if m == file || p.loads(m, file) {
				ms = append(ms, tr.mocks[m]...)
			}
		}
		export := fn.Name
		switch {
		case fn.Class != "":
			export = fn.Class
		case fn.Kind == analyzer.FuncNamespace || fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression:
			export, _, _ = strings.Cut(fn.Qual, ".") // the namespace, or the binding that holds it
		}
		for _, m := range tr.mocks[file] {
			if m.Partial && overriddenStub(m, export) {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			sort.Slice(ms, func(i, j int) bool { return ms[i].Line < ms[j].Line })
			stubs = append(stubs, stub{t, ms})
		}
	}
	fd := Finding{Rule: blindFunctionRule, Severity: Warning, File: file, Line: fn.Line}
	if len(stubs) == 0 {
		fd.Message = fmt.Sprintf("%s: no test runs it%s", fn.Qual, p.factoryImports(file))
		return fd, true
	}
	var parts []string
	call := "vi.mock"
	for _, st := range stubs {
		var lines []string
		for _, m := range st.mocks {
			if strings.HasPrefix(m.Call, "jest.") {
				call = "jest.mock" // the test framework's own name for it
			}
			file := st.test
			if m.File != "" {
				file = m.File // a setup file's mock
			}
			lines = append(lines, fmt.Sprintf("%s:%d", file, m.Line))
			fd.Related = append(fd.Related, Location{File: file, Line: m.Line})
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", st.test, strings.Join(lines, ", ")))
	}
	fd.Message = fmt.Sprintf("%s: no test runs it un-stubbed; reached only through %s by %s", fn.Qual, call, strings.Join(parts, "; "))
	return fd, true
}

// overriddenStub reports whether a partial mock replaces export with a stub
// (set in its factory, and not a call-through `vi.fn(original)`).
func overriddenStub(m *analyzer.Mock, export string) bool {
	for _, o := range m.Overrides {
		if o.Name == export {
			return !o.CallThrough
		}
	}
	return false
}

// loads reports whether module from loads module to (transitively). What
// a module loads is computed once per module (a blind check asks it for
// every function, test file and mocked module).
func (p *Pass) loads(from, to string) bool {
	reached, ok := p.loaded[from]
	if !ok {
		if f, _ := p.Program.Module(from); f != nil {
			reached, _ = p.Program.Reach(f, nil)
		}
		if p.loaded == nil {
			p.loaded = map[string][]string{}
		}
		p.loaded[from] = reached
	}
	i := sort.SearchStrings(reached, to)
	return i < len(reached) && reached[i] == to
}

// factoryImports says which test files import file's module (or one that
// loads it) inside a vi.mock factory: what only a factory runs is the
// test's scaffolding, not tested ("" when none).
func (p *Pass) factoryImports(file string) string {
	var at []string
	for _, t := range p.Tests {
		tf := p.Reach.Suite.File(t)
		if tf == nil || tf.File == nil {
			continue
		}
		for _, m := range tf.File.Mocks {
			for _, d := range tf.File.DynamicImports {
				if m.FactoryEndByte <= m.FactoryStartByte || d.StartByte < m.FactoryStartByte || d.StartByte >= m.FactoryEndByte {
					continue
				}
				r := p.Program.Resolver().Resolve(t, d.Specifier)
				if r.Kind == "file" && (r.Path == file || p.loads(r.Path, file)) {
					at = append(at, fmt.Sprintf("%s:%d", t, m.Line))
				}
			}
		}
	}
	if len(at) == 0 {
		return ""
	}
	return "; imported inside the vi.mock factory at " + strings.Join(slices.Compact(at), ", ") + " (a factory is the test's scaffolding: what it runs is not tested)"
}
