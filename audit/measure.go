package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// judged reports a function blind-function judges: an exported top-level
// function; a method, getter, setter or arrow field of an exported class; a
// function an exported namespace exports (`export namespace Geo { export
// function dist() }`); a function of exported module-level code (`export
// default defineCommand({ run() {} })`, `export const fee = wrap((n) => ...)`).
func (s *Suite) judged(file string, f *analyzer.File, fn *analyzer.Function) bool {
	switch fn.Kind {
	case analyzer.FuncTop, analyzer.FuncMethod, analyzer.FuncGetter, analyzer.FuncSetter, analyzer.FuncField:
		return fn.Exported
	case analyzer.FuncProperty, analyzer.FuncExpression:
		return fn.Exported && fn.Parent == nil
	case analyzer.FuncNamespace:
		ns, _, _ := strings.Cut(fn.Qual, ".")
		exported := false
		for _, ex := range f.Exports {
			exported = exported || ex.Kind == analyzer.ExportLocal && !ex.TypeOnly && ex.Local == ns
		}
		if !exported {
			return false
		}
		src := s.source(file)
		return fn.StartByte < uint(len(src)) && bytes.HasPrefix(src[fn.StartByte:], []byte("export"))
	}
	return false
}

// source is the text of a production file, read once ("" when it cannot
// be read).
func (s *Suite) source(file string) []byte {
	if s.sources == nil {
		s.sources = map[string][]byte{}
	}
	b, ok := s.sources[file]
	if !ok {
		b, _ = os.ReadFile(filepath.Join(s.Program.Root(), filepath.FromSlash(file)))
		s.sources[file] = b
	}
	return b
}

// measure runs the test files that may run the judged functions (their
// testsuite candidates), once each, in a sandbox copy of the repository
// with an entry marker in every judged function and every helper (the lab's Measure, with a
// probe per function and the vi.mock factories of the test and setup
// files), and records in s.Executed which test files entered each. A function no test
// loads is recorded as executed by none without a run; one whose body could
// not be marked is left out (the static walk decides it). With a change
// (--base) only the functions it touched are measured. It returns notes on
// what the runs could not see.
func (s *Suite) measure(ctx context.Context, r runner.Runner, tm *Timings) ([]string, error) {
	touched := s.touched()
	s.Executed = map[string][]string{}
	var probes []lab.Probe
	ids := map[lab.Probe]string{} // each probe's function
	var tests []string
	for _, file := range s.Production {
		f, _ := s.Program.Module(file)
		if f == nil {
			continue
		}
		cands := s.TestSuite.Candidates(file)
		for _, fn := range f.Functions {
			id := file + "#" + fn.Qual
			if !s.judged(file, f, fn) && !helper(fn) || touched != nil && !touched[id] {
				continue
			}
			if len(cands) == 0 {
				s.Executed[id] = []string{}
				continue
			}
			if fn.BodyEndByte <= fn.BodyStartByte {
				continue // no body (an overload, an abstract member)
			}
			p := lab.Probe{Path: file, Body: [2]uint{fn.BodyStartByte, fn.BodyEndByte}}
			probes, ids[p] = append(probes, p), id
			tests = append(tests, cands...)
		}
	}
	if len(probes) == 0 {
		return nil, nil
	}
	slices.Sort(tests)
	tests = slices.Compact(tests)
	pool := lab.SandboxPool(s.Program.Root(), "", 1, r)
	pool.Config = s.TestSuite.Config // a workspace's config above the package is placed in the sandbox
	defer pool.Close()
	defer func() { tm.Sandbox = pool.Spent.Seconds() }()
	sbs, err := pool.Grow(1)
	if err != nil {
		return nil, err
	}
	l := &lab.Lab{Root: sbs[0].Root, Files: sbs[0], Runner: r, MarkerPrefix: "audit", Config: s.TestSuite.Config, Factories: s.factories(tests)}
	m, err := l.Measure(ctx, tests, probes)
	if err != nil {
		return nil, err
	}
	tm.Runs, s.Unrunnable = m.Runs, m.Unrunnable
	for _, p := range probes {
		if entered := m.EnteredBy(p); entered != nil {
			s.Executed[ids[p]] = entered
		}
	}
	return m.Notes, nil
}

// helper reports a module's own top-level function (not exported): not
// judged, but measured too, so that what a test file runs is known past
// the exported functions (mock-drift's missing-export counts the calls in
// the functions a test file ran).
func helper(fn *analyzer.Function) bool {
	return fn.Kind == analyzer.FuncTop && !fn.Exported
}

// factories are the vi.mock factories of the test files and the setup
// files, by file: their code is the tests' scaffolding, and what runs only
// while one runs is not run by the test (the measured run skips the entry
// markers then).
func (s *Suite) factories(tests []string) map[string][][2]uint {
	out := map[string][][2]uint{}
	add := func(file string, f *analyzer.File) {
		if f == nil {
			return
		}
		for _, m := range f.Mocks {
			if m.FactoryEndByte > m.FactoryStartByte {
				out[file] = append(out[file], [2]uint{m.FactoryStartByte, m.FactoryEndByte})
			}
		}
	}
	for _, t := range tests {
		if tf := s.TestSuite.File(t); tf != nil {
			add(t, tf.File)
		}
	}
	for _, sf := range s.TestSuite.SetupFiles {
		f, _ := s.Program.Module(sf)
		add(sf, f)
	}
	return out
}
