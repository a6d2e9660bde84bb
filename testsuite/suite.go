// Package testsuite is the repository's test suite as its vitest sees it,
// and the one answer gate and audit share to "which tests run this code":
//
//   - the test files (vitest list: include, exclude, projects), the
//     setupFiles, the config file, and every mock of each test file
//     (vi.mock, vi.doMock, setupFiles), resolved like imports;
//   - production code apart from test code (test directories, helpers,
//     fixtures, generated oracles, declaration files);
//   - Candidates: the test files that may run a module's code, static and
//     sound: a test loads a module when an import path of runtime imports
//     leads to it that no whole-module mock replaces at any hop (a barrel,
//     `export *`, an alias, a workspace package). Any reference, not only a
//     call, may run a function, so the unit is the module: a test that
//     loads it may run any of its functions;
//   - Explain: why no test executes a function, from the walk (the mock on
//     the way, the file that re-exports it).
//
// What the candidates really execute is measured, not guessed: the lab's
// probes (mutate/lab.Probe) put an entry marker in each function while the
// candidates run; gate and audit decide on that.
package testsuite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/par"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
	"github.com/oracle-ts/oracle/internal/warmnode"
)

// Options select how the suite is read.
type Options struct {
	// Config is the vitest config file (--config), "" for vitest's own
	// search.
	Config string
	// Tests, when set, are the test files (repo-relative) instead of asking
	// vitest: for tests of oracle itself.
	Tests []string
	// SetupFiles are vitest's setupFiles (repo-relative): their mocks apply
	// to every test. Asked of vitest when Tests is not set.
	SetupFiles []string
	// Fixtures are the fixture files of oracle.yaml (test code).
	Fixtures []string
	// Vitest is vitest's resolved configuration (ReadConfig), asked of
	// vitest when Tests is not set: its aliases (resolve.alias, per
	// project) resolve the imports.
	Vitest *Config
	// Syntax keeps each test file's syntax tree (TestFile.Syntax), from
	// the parse that checks the file: audit's rules read it, so a test file
	// is parsed once. Without it the trees are dropped (the gate does not
	// read them).
	Syntax bool
	// KeepWarm, when set, is handed the node process that read vitest's
	// configuration instead of letting it exit (warmnode: the runner's
	// long-lived driver becomes it, vitest's node API already imported);
	// whoever it is owns the process then, and kills it when unused.
	KeepWarm func(*warmnode.Proc)
	// Stop, when closed, ends the wait for that kept process's answer (the
	// verb was interrupted: a process of its own group hears no Ctrl-C).
	Stop <-chan struct{}
	// Jest: the repository runs jest (RunsJest): its test files and
	// configuration are asked of jest (askJest), and test files written
	// for jest are its tests. Load sets it when RunsJest says so.
	Jest bool
	// TypeTests keeps the type tests vitest lists (*.test-d.ts under its
	// typecheck) as test files (SPEC "A type test is a test like any
	// other": the gate's red suite); without it they are Problems (they
	// execute no code: audit measures nothing with them).
	TypeTests bool
}

// Suite is the test suite of one repository.
type Suite struct {
	Program *callgraph.Program
	// Config is the vitest config file the suite's runs use: the one
	// given, or the one the package's test script names (ScriptConfig),
	// "" for vitest's own search.
	Config string
	// ConfigNote says where Config came from when no config was given and
	// the test script named it.
	ConfigNote string
	// Node is what the node on PATH said of itself when it read vitest's
	// configuration (Config.Node); zero when the configuration was not
	// asked of vitest.
	Node NodeFacts
	// Tests are the test files that can run (listed by vitest, parsed,
	// written for vitest), sorted.
	Tests []string
	// SetupFiles are vitest's setupFiles, sorted.
	SetupFiles []string
	// Production are the repository's TypeScript sources that are not test
	// code, sorted.
	Production []string
	// Problems are the listed test files that run nothing here: they do not
	// parse, or are written for jest.
	Problems []Problem
	files    map[string]*TestFile
	// keepSyntax: Options.Syntax.
	keepSyntax bool
	testCode   map[string]bool
	reachMu    sync.Mutex
	loads      map[string][]string // module → the modules it loads (sorted), computed once
	// candidates are Candidates' answers, by module, computed once.
	candidates map[string][]string
	unparsed   map[string]bool // Unparsed
	typeTests  bool            // Options.TypeTests
	// Jest: the suite is jest's (Options.Jest).
	Jest bool
	// jestProjects are jest's projects (Config.JestProjects), whose setup
	// files' mocks count for the test files each runs.
	jestProjects []JestProject
	// Automock: jest's automock is on (Config.Automock).
	Automock bool
}

// Problem is a test file oracle cannot count as running anything.
type Problem struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	// unparsed: the file's syntax does not parse (Suite.Unparsed).
	unparsed bool
}

// TestFile is one test file as the suite reads it.
type TestFile struct {
	Path string
	File *analyzer.File
	// Mocks are its mocks and the setupFiles', by the repository module
	// they replace.
	Mocks map[string][]*analyzer.Mock
	// Loads are the modules it may load (its setupFiles' too), sorted.
	Loads []string
	// Stopped are the modules a whole-module mock replaced where the walk
	// met them, each with the modules it was imported from.
	Stopped map[string][]string
	// Opaque: the file loads modules in ways the walk cannot follow
	// (require, a computed import() or import.meta.glob pattern): it is a
	// candidate for every module.
	Opaque bool
	// actual are its whole-module mocks whose manual mock (a __mocks__
	// file: manualMocks) loads the real module all the same.
	actual map[*analyzer.Mock]bool
	// Syntax is the file's syntax tree (Options.Syntax; nil without it),
	// parsed from the source File was extracted from: File's nodes (a
	// mock's Node) are its nodes.
	Syntax *analyzer.Syntax
}

// Load reads the suite of the repository p reads: asks its vitest for the
// test files and setupFiles unless opts gives them. Without a config given,
// the one the package's test script names is used (ScriptConfig), and
// ConfigNote says so. A config vitest cannot load is a *ConfigError.
func Load(p *callgraph.Program, opts Options) (*Suite, error) {
	note := ""
	if opts.Tests == nil && (opts.Jest || RunsJest(p.Root()) != "") {
		var err error
		opts.Jest = true
		if opts.Config == "" {
			if f, script := JestScriptConfig(p.Root()); f != "" {
				opts.Config = f
				note = fmt.Sprintf("using %s, named by the %s script of package.json (--config FILE to use another)", f, script)
			}
		}
		if opts.Tests, opts.Vitest, err = askJest(p.Root(), opts.Config); err != nil {
			return nil, err
		}
		opts.SetupFiles = opts.Vitest.SetupFiles
	}
	if opts.Tests == nil {
		named := ""
		if opts.Config == "" {
			if f, script := ScriptConfig(p.Root()); f != "" {
				opts.Config, named = f, script
				note = fmt.Sprintf("using %s, named by the %s script of package.json (--config FILE to use another)", f, script)
			}
		}
		var err error
		if opts.Tests, opts.Vitest, err = askVitest(p.Root(), opts.Config, warmFor(opts)); err != nil {
			return nil, namedBy(err, p.Root(), opts.Config, named)
		}
		if opts.Vitest.Above != "" {
			// The workspace's config, above the repository: the runs use it,
			// from its directory (the sandbox places it there).
			opts.Config = opts.Vitest.Above
			note = fmt.Sprintf("using %s, the workspace's vitest config above the repository: vitest runs its tests from %s", opts.Config, path.Dir(opts.Config))
		}
		opts.SetupFiles = opts.Vitest.SetupFiles
	}
	s, err := New(p, opts)
	if s != nil {
		s.ConfigNote = note
		if opts.Vitest != nil {
			s.Node = opts.Vitest.Node
		}
	}
	return s, err
}

// warmFor is what readConfigKeep is handed: nil without KeepWarm.
func warmFor(opts Options) *warm {
	if opts.KeepWarm == nil {
		return nil
	}
	return &warm{keep: opts.KeepWarm, stop: opts.Stop}
}

// askVitest asks the repository's vitest for its resolved configuration
// (ReadConfig) and its test files: one node process that loads the config
// once, the floor of every gate's and audit's setup. A vitest whose node
// API lists no files (older than 3) is asked for them by its CLI too
// (ListTests, or ListAbove for a workspace's config above the repository).
func askVitest(root, config string, keep *warm) ([]string, *Config, error) {
	cfg, err := readConfig(root, config, keep)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Listed {
		return cfg.Tests, cfg, nil
	}
	var tests []string
	if cfg.Above != "" {
		tests, err = ListAbove(root, cfg.Above)
	} else {
		tests, err = listTests(root, config)
	}
	if err != nil {
		return nil, nil, err
	}
	return tests, cfg, nil
}

// listTests and readConfig are what askVitest calls (a test counts the
// calls).
var (
	listTests  = ListTests
	readConfig = readConfigKeep
)

// namedBy: a config named by the test script that vitest cannot load says
// so in its fix.
func namedBy(err error, root, config, script string) error {
	var ce *ConfigError
	if script != "" && errors.As(err, &ce) {
		ce.explain(root, config, script)
	}
	return err
}

// New builds the suite from the test files and setupFiles opts names.
func New(p *callgraph.Program, opts Options) (*Suite, error) {
	s := &Suite{Program: p, Config: opts.Config, files: map[string]*TestFile{}, keepSyntax: opts.Syntax, testCode: map[string]bool{}, loads: map[string][]string{}, candidates: map[string][]string{}, unparsed: map[string]bool{}, typeTests: opts.TypeTests, Jest: opts.Jest}
	s.SetupFiles = slices.Sorted(slices.Values(opts.SetupFiles))
	listed := slices.Sorted(slices.Values(opts.Tests))
	if opts.Vitest != nil {
		s.jestProjects, s.Automock = opts.Vitest.JestProjects, opts.Vitest.Automock
		where := opts.Config
		if where == "" {
			where = "the vitest config"
			if opts.Jest {
				where = "jest's moduleNameMapper"
			}
		}
		p.Resolver().SetAliases(where, opts.Vitest.AliasScopes())
	}
	// An in-source test file (includeSource: `if (import.meta.vitest)`) is
	// production code whose own tests are in it: production, and a test
	// file, its own candidate.
	inSource := map[string]bool{}
	for _, f := range listed {
		if InSource(p.Root(), f) {
			inSource[f] = true
			continue
		}
		s.testCode[f] = true
	}
	for _, f := range append(slices.Clone(opts.Fixtures), opts.SetupFiles...) {
		s.testCode[f] = true
	}
	all, err := callgraph.SourcesUnder(p.Root(), ".")
	if err != nil {
		return nil, err
	}
	p.Preload(append(slices.Clone(all), listed...))
	for _, f := range all {
		if inSource[f] {
			s.Production = append(s.Production, f)
			continue
		}
		if s.testCode[f] || IsTestPath(f) || importsTestFramework(p, f) {
			s.testCode[f] = true
			continue
		}
		s.Production = append(s.Production, f)
	}
	// The setupFiles' mocks apply to every test file, and what they load is
	// loaded for every test file.
	var global []*analyzer.Mock
	for _, sf := range s.SetupFiles {
		if f, _ := p.Module(sf); f != nil {
			for i := range f.Mocks {
				m := f.Mocks[i]
				m.File = sf
				global = append(global, &m)
			}
		}
	}
	files := make([]*TestFile, len(listed))
	problems := make([]*Problem, len(listed))
	par.Each(len(listed), func(i int) { files[i], problems[i] = s.read(listed[i], global) })
	for i, t := range listed {
		if problems[i] != nil {
			s.Problems = append(s.Problems, *problems[i])
			if problems[i].unparsed {
				s.unparsed[t] = true
			}
			continue
		}
		s.Tests = append(s.Tests, t)
		s.files[t] = files[i]
	}
	return s, nil
}

// read parses test file t and walks what it loads, or says why it runs
// nothing here.
func (s *Suite) read(t string, global []*analyzer.Mock) (*TestFile, *Problem) {
	p := s.Program
	if !s.typeTests && (strings.Contains(t, ".test-d.") || strings.Contains(t, ".spec-d.")) {
		return nil, &Problem{File: t, Line: 1, Reason: "a type test: it type-checks, and runs nothing"}
	}
	f, why := p.Module(t)
	if f == nil {
		return nil, &Problem{File: t, Line: 1, Reason: "cannot audit: " + why}
	}
	src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(t)))
	if err != nil {
		return nil, &Problem{File: t, Line: 1, Reason: fmt.Sprintf("cannot audit: %v", err)}
	}
	syn, line, why := parseTest(t, src, s.Jest)
	if why != "" {
		return nil, &Problem{File: t, Line: line, Reason: "cannot audit: " + why, unparsed: syn == nil && !strings.HasPrefix(why, "written for jest")}
	}
	tf := &TestFile{Path: t, File: f, Mocks: map[string][]*analyzer.Mock{}}
	if s.keepSyntax {
		tf.Syntax = syn
	}
	for i := range f.Mocks {
		m := &f.Mocks[i]
		if mod := s.resolve(t, m.Specifier); mod != "" {
			tf.Mocks[mod] = append(tf.Mocks[mod], m)
		}
	}
	for _, m := range global {
		if !setupApplies(s.jestProjects, t, m.File) {
			continue
		}
		if mod := s.resolve(m.File, m.Specifier); mod != "" {
			tf.Mocks[mod] = append(tf.Mocks[mod], m)
		}
	}
	// A whole-module mock (a vi.mock whose factory does not get the
	// original module) replaces the module for every import of it: the walk
	// does not enter it. A partial
	// mock loads the real module; vi.doMock replaces only later dynamic
	// imports, so the static ones still load the real module: neither stops
	// the walk (sound: a candidate too many costs a run, one too few a
	// wrong verdict).
	manual := s.manualMocks(tf)
	stop := func(module string) bool {
		for _, m := range tf.Mocks[module] {
			if tf.replaces(m) {
				return true
			}
		}
		return false
	}
	loads, stopped := p.Reach(f, stop)
	tf.Stopped = stopped
	for _, sf := range s.SetupFiles {
		if sff, _ := p.Module(sf); sff != nil {
			more, st := p.Reach(sff, stop)
			loads = append(loads, sf)
			loads = append(loads, more...)
			for k, v := range st {
				tf.Stopped[k] = append(tf.Stopped[k], v...)
			}
		}
	}
	loads = s.walkManualMocks(tf, manual, loads, stop)
	if len(f.OpaqueLoads) > 0 {
		// require(), import() of a computed specifier, an import.meta.glob
		// whose patterns or options are not written down (written ones are
		// followed: callgraph's RuntimeImports): what it loads is not
		// written down; it may load any module.
		tf.Opaque = true
	}
	slices.Sort(loads)
	tf.Loads = slices.Compact(loads)
	return tf, nil
}

// resolve is the repository module spec names from file ("" when it is a
// package outside the repository).
func (s *Suite) resolve(from, spec string) string {
	if r := s.Program.Resolver().Resolve(from, spec); r.Kind == "file" {
		return r.Path
	}
	return ""
}

// testDirs are directory names whose files are test code.
var testDirs = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "spec": true, "specs": true, "e2e": true,
	"__mocks__": true, "mocks": true, "__fixtures__": true, "fixtures": true, "__testfixtures__": true,
	"testing": true, "test-utils": true, "testutils": true, "test-helpers": true, "__snapshots__": true,
	"__oracles__": true,
}

// toolConfigs are the tools whose <tool>.config.<ext> files configure the
// tests or the build, never the product (app.config.ts, which a framework
// runs, is not among them).
var toolConfigs = map[string]bool{"vite": true, "vitest": true,
	"tsup": true, "tsdown": true, "rollup": true, "playwright": true, "eslint": true, "stryker": true, "jest": true}

// IsTestPath reports a file that is test code by its name or place: named
// as a test (`.test.`, `.spec.`, `.bench.`, type tests), a declaration file,
// a test or build tool's config (vitest.config.mts), or under a test directory (test/, __tests__/, __mocks__/, fixtures/,
// __testfixtures__/, testing/, a generated oracle's __oracles__/, ...).
func IsTestPath(file string) bool {
	base := path.Base(file)
	for _, s := range []string{".test.", ".spec.", ".bench.", ".test-d.", ".spec-d."} {
		if strings.Contains(base, s) {
			return true
		}
	}
	if strings.HasSuffix(base, ".d.ts") || strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts") {
		return true
	}
	if tool, _, ok := strings.Cut(base, ".config."); ok && toolConfigs[tool] {
		return true // the test and build tooling's own config (vitest.config.mts's onConsoleLog is no production code)
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		if testDirs[dir] {
			return true
		}
	}
	return false
}

// InSource reports an in-source test file (vitest's includeSource): one
// vitest lists as a test file that is not named or placed as test code and
// whose tests are written under `import.meta.vitest`.
func InSource(root, file string) bool {
	if IsTestPath(file) {
		return false
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	return err == nil && inSourceTests.Match(src)
}

var inSourceTests = regexp.MustCompile(`\bimport\.meta\.vitest\b`)

// importsTestFramework reports a module that imports a test framework
// (production code never does): a shared test helper wherever it lives.
func importsTestFramework(p *callgraph.Program, file string) bool {
	f, _ := p.Module(file)
	if f == nil {
		return false
	}
	for _, im := range f.Imports {
		switch sp := im.Specifier; {
		case sp == "vitest", strings.HasPrefix(sp, "@vitest/"), strings.HasPrefix(sp, "vitest-"),
			strings.HasPrefix(sp, "@testing-library/"), sp == "@playwright/test", sp == "@jest/globals":
			return true
		}
	}
	return false
}

// IsProduction reports whether file is one of the production sources.
func (s *Suite) IsProduction(file string) bool {
	_, ok := slices.BinarySearch(s.Production, file)
	return ok
}

// Unparsed reports a test file vitest lists whose syntax does not parse
// (esbuild's error, which vitest's transform gives too): it fails to load,
// and what it loads cannot be read from it. It is among Problems.
func (s *Suite) Unparsed(file string) bool { return s.unparsed[file] }

// IsTest reports whether file is one of the suite's runnable test files.
func (s *Suite) IsTest(file string) bool {
	_, ok := slices.BinarySearch(s.Tests, file)
	return ok
}

// File is test file t as the suite read it (nil when it is not one of
// Tests).
func (s *Suite) File(t string) *TestFile { return s.files[t] }

// Candidates are the test files that may run code of module file, sorted:
// those that load it (see the package doc). A test that does not load it
// cannot run any of its functions; one that does may, and running it says
// whether it does.
func (s *Suite) Candidates(file string) []string {
	s.reachMu.Lock()
	out, ok := s.candidates[file]
	s.reachMu.Unlock()
	if ok {
		return out
	}
	defer func() {
		s.reachMu.Lock()
		s.candidates[file] = out
		s.reachMu.Unlock()
	}()
	for _, t := range s.Tests {
		if t == file || s.files[t].Opaque {
			out = append(out, t)
			continue
		}
		if _, ok := slices.BinarySearch(s.files[t].Loads, file); ok {
			out = append(out, t)
		}
	}
	return out
}

// loadsOf is what module loads (sorted), computed once per module.
func (s *Suite) loadsOf(module string) []string {
	s.reachMu.Lock()
	defer s.reachMu.Unlock()
	reached, ok := s.loads[module]
	if !ok {
		if f, _ := s.Program.Module(module); f != nil {
			reached, _ = s.Program.Reach(f, nil)
		}
		s.loads[module] = reached
	}
	return reached
}

// wholeModule: the mock replaces its module for every import of it (vi.mock or jest.mock
// whose factory does not get the original module, or with no factory: automocked);
// vi.doMock and jest.doMock replace only later dynamic imports.
func wholeModule(m *analyzer.Mock) bool {
	return m.Call != "vi.doMock" && m.Call != "jest.doMock" && !m.Partial
}

// replaces says whether m replaces its module whole for tf: a whole-module mock
// (wholeModule) whose manual mock, if one serves it, does not load the real module.
func (tf *TestFile) replaces(m *analyzer.Mock) bool {
	return wholeModule(m) && !tf.actual[m]
}

// walkManualMocks adds to loads, the modules test file tf loads, the manual
// mocks it loads and what they load: manual (the ones its mocks name) and,
// under jest's automock, every one beside a module it loads, until no new
// one is met (each walked once). The modules their walks stop at are
// tf.Stopped's too.
func (s *Suite) walkManualMocks(tf *TestFile, manual, loads []string, stop func(string) bool) []string {
	queued := map[string]bool{}
	for _, mf := range manual {
		queued[mf] = true
	}
	for queue := manual; ; {
		if s.Automock && len(queue) == 0 {
			queue = s.besideMocks(loads, queued)
		}
		if len(queue) == 0 {
			return loads
		}
		mf := queue[0]
		queue = queue[1:]
		if mff, _ := s.Program.Module(mf); mff != nil {
			more, st := s.Program.Reach(mff, stop)
			loads = append(append(loads, mf), more...)
			for k, v := range st {
				tf.Stopped[k] = append(tf.Stopped[k], v...)
			}
		}
	}
}

// ManualMock is where the manual mock of module mod (repo-relative) is: the
// file of its name in the __mocks__ directory beside it (src/__mocks__/x.ts
// for src/x.ts), which jest's requireMock and vitest's mocker load in its
// place for a mock without a factory.
func ManualMock(mod string) string {
	return path.Join(path.Dir(mod), "__mocks__", path.Base(mod))
}

// besideMocks are the __mocks__ files beside the modules of loads that are
// not queued yet, now queued: under jest's automock each serves its module
// without a jest.mock, and what it loads is loaded.
func (s *Suite) besideMocks(loads []string, queued map[string]bool) []string {
	var out []string
	for _, mod := range loads {
		mf := ManualMock(mod)
		if queued[mf] {
			continue
		}
		if _, err := os.Stat(filepath.Join(s.Program.Root(), filepath.FromSlash(mf))); err == nil {
			queued[mf] = true
			out = append(out, mf)
		}
	}
	return out
}

// manualMocks are the files that serve tf's mocks without a factory: a
// `jest.mock("./x")` or `vi.mock("./x")` of a module that has a file of its
// own name in a __mocks__ directory beside it (src/__mocks__/x.ts for
// src/x.ts: jest's requireMock and vitest's mocker load that file in the
// module's place). The test runs that file, and what it loads: the walk
// enters it. One that asks for the real module (jest.requireActual,
// vi.importActual: a spread of the original, its functions kept) loads the
// real module too, so its mock does not stop the walk (tf.actual). Sorted.
func (s *Suite) manualMocks(tf *TestFile) []string {
	var files []string
	for mod, ms := range tf.Mocks {
		mf := ManualMock(mod)
		src, err := os.ReadFile(filepath.Join(s.Program.Root(), filepath.FromSlash(mf)))
		if err != nil {
			continue
		}
		served := false
		for _, m := range ms {
			if m.Factory || (m.Call != "jest.mock" && m.Call != "vi.mock") {
				continue
			}
			served = true
			if bytes.Contains(src, []byte("requireActual")) || bytes.Contains(src, []byte("importActual")) {
				if tf.actual == nil {
					tf.actual = map[*analyzer.Mock]bool{}
				}
				tf.actual[m] = true
			}
		}
		if served {
			files = append(files, mf)
		}
	}
	slices.Sort(files)
	return files
}

// MockPath is one mock that keeps a test from loading a module for real.
type MockPath struct {
	Test   string         // the test file
	Mock   *analyzer.Mock // the mock (Mock.File set: a setup file's)
	Module string         // the module it replaces
	Via    []string       // the modules it was imported from
}

// Where is the file and line of the mock's call.
func (m MockPath) Where() (string, int) {
	if m.Mock.File != "" {
		return m.Mock.File, m.Mock.Line
	}
	return m.Test, m.Mock.Line
}

// MockedAway lists, per test file, the whole-module mocks that replace a
// module on the way to file: the test would load file through it but for
// the mock (the mocked module is file itself, or loads it).
func (s *Suite) MockedAway(file string) []MockPath {
	var out []MockPath
	for _, t := range s.Tests {
		tf := s.files[t]
		mods := slices.Sorted(func(yield func(string) bool) {
			for m := range tf.Stopped {
				if !yield(m) {
					return
				}
			}
		})
		for _, mod := range mods {
			if mod != file {
				if _, ok := slices.BinarySearch(s.loadsOf(mod), file); !ok {
					continue
				}
			}
			for _, m := range tf.Mocks[mod] {
				if tf.replaces(m) {
					out = append(out, MockPath{Test: t, Mock: m, Module: mod, Via: tf.Stopped[mod]})
				}
			}
		}
	}
	return out
}

// Explain says why no test executes a function of file, from the walk:
// the mocks that replace its module (or a module that loads it) for the
// tests that would load it, or the candidates that load it and do not run
// it (executed: the test files that ran it, none here; the caller measured
// it), or that no test loads its module.
func (s *Suite) Explain(file string) string {
	away := s.MockedAway(file)
	cands := s.Candidates(file)
	var parts []string
	for _, m := range away {
		where, line := m.Where()
		p := fmt.Sprintf("%s(%q) at %s:%d", m.Mock.Call, m.Mock.Specifier, where, line)
		if m.Module != file {
			if declaresReexport(s.Program, m.Module, file) {
				p += fmt.Sprintf(", which re-exports it from %s", file)
			} else {
				p += fmt.Sprintf(", which loads %s", file)
			}
		}
		parts = append(parts, p)
	}
	switch {
	case len(parts) > 0 && len(cands) == 0:
		return "reached only through " + strings.Join(parts, "; ")
	case len(parts) > 0:
		return loadedBy(cands) + "; the others reach it only through " + strings.Join(parts, "; ")
	case len(cands) > 0 && s.Automock:
		// jest's automock: a module a test does not unmock (jest.unmock,
		// jest.requireActual, unmockedModulePathPatterns) is a mock whose
		// functions run none of its code.
		return loadedBy(cands) + " (jest's automock is on: a module the test does not jest.unmock is a mock of it)"
	case len(cands) > 0:
		return loadedBy(cands)
	}
	return "no test loads " + file
}

// loadedBy says which candidates loaded a function's module without running
// it: "loaded by test/a.test.ts, which does not run it", "loaded by 5 test
// files (a, b, c, ...), none of which runs it".
func loadedBy(fs []string) string {
	if len(fs) == 1 {
		return "loaded by " + fs[0] + ", which does not run it"
	}
	more := ""
	if len(fs) > 3 {
		more = ", ..."
	}
	return fmt.Sprintf("loaded by %d test files (%s%s), none of which runs it", len(fs), strings.Join(fs[:min(3, len(fs))], ", "), more)
}

// declaresReexport reports whether module re-exports from file (directly,
// or through other re-exporting modules).
func declaresReexport(p *callgraph.Program, module, file string) bool {
	seen := map[string]bool{}
	var walk func(m string) bool
	walk = func(m string) bool {
		if seen[m] {
			return false
		}
		seen[m] = true
		f, _ := p.Module(m)
		if f == nil {
			return false
		}
		for _, ex := range f.Exports {
			if ex.Specifier == "" {
				continue
			}
			r := p.Resolver().Resolve(m, ex.Specifier)
			if r.Kind != "file" {
				continue
			}
			if r.Path == file || walk(r.Path) {
				return true
			}
		}
		return false
	}
	return walk(module)
}

// unreadable says why a test file cannot be audited ("" when it can)
// (parseTest).
func unreadable(path string, src []byte) (int, string) {
	_, line, why := parseTest(path, src, false)
	return line, why
}

// parseTest parses a test file once, for the suite and the rules that read
// its syntax (TestFile.Syntax), and says why it cannot be audited ("" when
// it can, with its tree): a syntax error (esbuild's, as vitest's transform reports it), or jest's API:
// an import of @jest/globals, or a call of `jest.*` where the file binds no
// `jest` of its own (vitest has no such global: the file fails under it),
// unless jest is the runner.
func parseTest(path string, src []byte, jest bool) (*analyzer.Syntax, int, string) {
	if err := syntaxcheck.Check(path, src); err != nil {
		line := 1
		msg := strings.TrimPrefix(err.Error(), "esbuild: ")
		if _, err := fmt.Sscanf(msg, "line %d:", &line); err != nil {
			line = 1
		}
		return nil, line, "syntax error: " + msg
	}
	f, syn := analyzer.ParseSyntax(path, src)
	if syn == nil {
		return nil, 1, "cannot parse: " + f.Errors[0].Message
	}
	if jest {
		return syn, 0, ""
	}
	for _, im := range f.Imports {
		if im.Specifier == "@jest/globals" {
			return nil, im.Line, "written for jest (it imports @jest/globals): vitest does not run it as written, so nothing it mocks or calls counts"
		}
	}
	for _, im := range f.Imports {
		if im.Local == "jest" {
			return syn, 0, ""
		}
	}
	for _, d := range f.Decls {
		if d.Name == "jest" {
			return syn, 0, ""
		}
	}
	line := 0
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		if line == 0 && strings.HasPrefix(syn.Callee(n), "jest.") {
			line = syn.Line(syn.Start(n))
		}
		return line == 0
	})
	if line > 0 {
		return nil, line, "written for jest (it calls jest's API, which vitest does not define): vitest does not run it as written, so nothing it mocks or calls counts"
	}
	return syn, 0, ""
}
