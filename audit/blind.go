package audit

import (
	"fmt"
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
	Run:      func(p *Pass) error { p.reportAll(blindFunctions(p.Suite)); return nil },
}

const blindFunctionRule = "blind-function"

func blindFunctions(s *Suite) []Finding {
	var out []Finding
	for _, file := range s.Production {
		f, _ := s.Program.Module(file)
		if f == nil {
			continue
		}
		for _, fn := range f.Functions {
			if !judged(fn) {
				continue
			}
			touched := s.touched()[file+"#"+fn.Qual]
			if s.Executed != nil && s.Change != nil && !touched {
				continue // measured: --base judges what the change touched
			}
			finding, blind := s.blindMeasured(file, fn)
			if !blind && finding.Rule == "" {
				finding, blind = s.blind(file, fn)
			}
			if blind {
				if touched {
					finding.Severity = Error // the change touched it: it needs an oracle now
				}
				out = append(out, finding)
			}
		}
	}
	return out
}

// blindMeasured decides a function on what ran (Suite.Executed): blind when
// no test file entered it, with the static walk's explanation. A function
// that was not measured gives no finding and an empty Rule: the static walk
// decides it.
func (s *Suite) blindMeasured(file string, fn *analyzer.Function) (Finding, bool) {
	ran, ok := s.Executed[file+"#"+fn.Qual]
	if !ok {
		return Finding{}, false
	}
	if len(ran) > 0 {
		return Finding{Rule: blindFunctionRule}, false
	}
	fd := Finding{Rule: blindFunctionRule, Severity: Warning, File: file, Line: fn.Line,
		Message: fmt.Sprintf("%s: no test executes it (measured): %s", fn.Qual, s.TestSuite.Explain(file))}
	for _, m := range s.TestSuite.MockedAway(file) {
		where, line := m.Where()
		fd.Related = append(fd.Related, Location{File: where, Line: line})
	}
	return fd, true
}

// blind decides one function: it is blind unless some test runs it
// un-stubbed. The tests that reach it only through a mock are named, with
// their vi.mock lines.
func (s *Suite) blind(file string, fn *analyzer.Function) (Finding, bool) {
	id := file + "#" + fn.Qual
	type stub struct {
		test  string
		mocks []*analyzer.Mock
	}
	var stubs []stub
	loads := map[string]bool{} // the tests that load its module (a whole-module mock stops them at any hop)
	for _, t := range s.TestSuite.Candidates(file) {
		loads[t] = true
	}
	for _, t := range s.Tests {
		tr := s.reach[t]
		if tr.fns[id] && loads[t] {
			return Finding{}, false // runs un-stubbed in t
		}
		var ms []*analyzer.Mock
		for m := range tr.stubbed {
			if m == file || s.loads(m, file) {
				ms = append(ms, tr.mocks[m]...)
			}
		}
		export := fn.Name
		switch {
		case fn.Class != "":
			export = fn.Class
		case fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression:
			export, _, _ = strings.Cut(fn.Qual, ".") // the binding that holds it
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
		fd.Message = fmt.Sprintf("%s: no test runs it", fn.Qual)
		return fd, true
	}
	var parts []string
	for _, st := range stubs {
		var lines []string
		for _, m := range st.mocks {
			file := st.test
			if m.File != "" {
				file = m.File // a setup file's mock
			}
			lines = append(lines, fmt.Sprintf("%s:%d", file, m.Line))
			fd.Related = append(fd.Related, Location{File: file, Line: m.Line})
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", st.test, strings.Join(lines, ", ")))
	}
	fd.Message = fmt.Sprintf("%s: no test runs it un-stubbed; reached only through vi.mock by %s", fn.Qual, strings.Join(parts, "; "))
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
func (s *Suite) loads(from, to string) bool {
	reached, ok := s.loaded[from]
	if !ok {
		if f, _ := s.Program.Module(from); f != nil {
			reached, _ = s.Program.Reach(f, nil)
		}
		if s.loaded == nil {
			s.loaded = map[string][]string{}
		}
		s.loaded[from] = reached
	}
	i := sort.SearchStrings(reached, to)
	return i < len(reached) && reached[i] == to
}
