package runner

import (
	"context"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests run the real vitest of testdata/pipeline on throwaway copies of it (node_modules
// symlinked, never modified). At most two vitest processes run at a time (2 cores).

const (
	refOracle = "reference/processItem.hoisted.oracle.test.ts"
	refConfig = "vitest.reference.config.ts"
	indexTS   = "src/server/index.ts"
	guard     = "  if (!opts.skip) {\n    patch.score = (await enrichItem(record, settings)).score;\n  }\n"
	bodyStart = "  const record = await getRecord(id);\n"
	// endless is a loop that never ends and blocks its thread as a busy
	// loop does (deaf to messages and to its parent's death), waiting in
	// Atomics.wait rather than spinning: a run killed at its time-out does
	// not burn a core of the test machine until then (a killed worker's CPU
	// is not even in go test's account).
	endless = "  while (Date.now() > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);\n"
)

var vitestSlots = make(chan struct{}, 2)

func sample(t *testing.T) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "testdata", "pipeline")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vitest", "vitest.mjs")); err != nil {
		// Under CI a missing install is a broken CI, never a green skip.
		testenv.Missing(t, fmt.Sprintf("testdata/pipeline/node_modules is missing: scripts/test installs it (%v)", err))
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node not on PATH: CI must have it")
	}
	return dir
}

// sandbox copies testdata/pipeline (without node_modules) to a temp dir and links node_modules.
func sandbox(t *testing.T) string {
	t.Helper()
	src := sample(t)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "node_modules" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(dst, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dst
}

// edit replaces old (which must occur) by new in dir/rel.
func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeVariant writes a copy of the reference oracle, edited, as reference/<name>.
func writeVariant(t *testing.T, dir, name, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, refOracle))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("reference oracle does not contain %q", old)
	}
	rel := "reference/" + name
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(strings.Replace(string(b), old, new, -1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return rel
}

func run(t *testing.T, s Spec) Result {
	t.Helper()
	vitestSlots <- struct{}{}
	defer func() { <-vitestSlots }()
	res, err := New().Run(context.Background(), s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("shape=%s executed=%d reached=%v attempts=%d exit=%d duration=%s note=%q file=%q",
		shapeOf(res), res.Executed(), res.Reached, res.Attempts, res.ExitCode, res.Duration, res.Note, res.FileMessage)
	for _, x := range res.Tests {
		t.Logf("  %s [%s] %s: %s", x.Status, x.Phase, x.Name, x.Failure)
	}
	return res
}

// shape is a run's facts in a word, for the tests' expectations (what they
// mean for a mutant is the lab's: mutate/lab's TestJudgeRun).
type shape string

const (
	passed     shape = "passed"      // tests ran, none failed, nothing else went wrong
	bodyFailed shape = "body-failed" // a test failed in its body
	timedOut   shape = "timed-out"   // the run timed out
	broken     shape = "broken"      // anything else: no report, a load error, nothing ran, setup
)

func shapeOf(r Result) shape {
	switch {
	case r.TimedOut:
		return timedOut
	case r.NoReport || r.FileMessage != "" || r.Executed() == 0:
		return broken
	}
	for _, t := range r.Tests {
		if t.Status == TestFailed && t.Phase == PhaseBody {
			return bodyFailed
		}
	}
	for _, t := range r.Tests {
		if t.Status == TestFailed {
			return broken
		}
	}
	if len(r.Unhandled) > 0 || r.ExitCode != 0 {
		return broken
	}
	return passed
}

func noMachinePaths(t *testing.T, dir, s string) {
	t.Helper()
	rp, _ := filepath.EvalSymlinks(dir)
	for _, p := range []string{dir, rp, os.TempDir() + "/", sampleAbs(t)} {
		if p != "" && strings.Contains(s, p) {
			t.Errorf("detail %q contains the machine path %s", s, p)
		}
	}
}

func sampleAbs(t *testing.T) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(here), "..", ".."))
}

// variantCase is one way of breaking the reference oracle or the code it tests, and what
// the runner must say of the run. Each row writes its own files (reference/<file> and, for a
// code row, src/server/index.<row>.ts, which only that copy of the oracle imports), so the
// rows share one sandbox and run side by side.
type variantCase struct {
	name string
	// file is the row's copy of the reference oracle under reference/ ("": the reference
	// itself, unchanged); oracle are old/new pairs applied to that copy.
	file   string
	oracle []string
	// code are old/new pairs applied to the row's copy of src/server/index.ts.
	code     []string
	noConfig bool // run without -c vitest.reference.config.ts

	shape    shape
	executed int
	tests    []testWant
	// facts are substrings of what the run reported beyond the tests' statuses (factText:
	// the note, the file's message, the unhandled errors, the first failure); none: it
	// reported nothing beyond them.
	facts      []string
	fileFailed bool // vitest marked the file failed (a test or the file's load failed)
	noReport   bool
}

// testWant is what one test of the run must be: "status/phase" and its name's start.
type testWant struct{ outcome, name string }

const (
	flagSetName   = "PROJ-142 skip-enrichment: processItem with opts.skip flag set"
	flagUnsetName = "PROJ-142 skip-enrichment: processItem with opts.skip flag unset"
)

var unhandledCode = []string{bodyStart, "  void Promise.reject(new Error(\"floating\"));\n" + bodyStart}

var variantCases = []variantCase{
	{name: "reference", shape: passed, executed: 2,
		tests: []testWant{{"passed/", flagSetName}, {"passed/", flagUnsetName}}},
	{name: "guard deleted", file: "guard-deleted.test.ts",
		code:  []string{guard, "  patch.score = (await enrichItem(record, settings)).score;\n"},
		shape: bodyFailed, executed: 2, fileFailed: true,
		tests: []testWant{{"failed/body", flagSetName}, {"passed/", flagUnsetName}},
		facts: []string{"enrichItem"}},
	// The code under test throws the same error in every test: both failed in their bodies,
	// not in setup, although every test failed with an identical non-assertion message.
	{name: "code under test throws", file: "code-throws.test.ts",
		code:  []string{bodyStart, "  throw new Error(\"mutant boom\");\n" + bodyStart},
		shape: bodyFailed, executed: 2, fileFailed: true,
		tests: []testWant{{"failed/body", flagSetName}, {"failed/body", flagUnsetName}},
		facts: []string{"mutant boom"}},
	// A rejection nobody awaits, from the code under test: vitest fails the run although
	// every test passed (its JSON report even says success: true); the phase reporter
	// catches it.
	{name: "unhandled rejection", file: "unhandled.test.ts",
		code:  unhandledCode,
		shape: broken, executed: 2,
		tests: []testWant{{"passed/", flagSetName}, {"passed/", flagUnsetName}},
		facts: []string{"unhandled: Error: floating"}},
	// A beforeEach that throws fails every test before any assertion: in setup.
	{name: "beforeEach throws", file: "setup-throws.test.ts",
		oracle: []string{"  await setup();\n", "  await setup();\n  throw new Error(\"setup boom\");\n"},
		shape:  broken, executed: 2, fileFailed: true,
		tests: []testWant{{"failed/setup", flagSetName}, {"failed/setup", flagUnsetName}},
		facts: []string{"setup boom"}},
	{name: "syntax error", file: "syntax.test.ts",
		oracle: []string{"    await processItem(...args);\n    expect(enrichItem).toHaveBeenCalled();", "    await processItem(...args;\n    expect(enrichItem).toHaveBeenCalled();"},
		shape:  broken, executed: 0, fileFailed: true,
		facts: []string{"file: ", "reference/syntax.test.ts:"}},
	{name: "wrong import", file: "badimport.test.ts",
		oracle: []string{`"../test/fixtures/pipeline.fixture"`, `"../test/fixtures/nope.fixture"`},
		shape:  broken, executed: 0, fileFailed: true,
		facts: []string{"Cannot find module", "nope.fixture"}},
	{name: "no test executed", file: "skipped.test.ts",
		oracle: []string{"\ndescribe(", "\ndescribe.skip("},
		shape:  broken, executed: 0,
		tests: []testWant{{"skipped/", flagSetName}, {"skipped/", flagUnsetName}}},
	// Without -c the reference/ directory is outside the default include: vitest runs nothing.
	{name: "file outside the include", noConfig: true,
		shape: broken, executed: 0, noReport: true,
		facts: []string{"note: ", "no test file matched reference/processItem.hoisted.oracle.test.ts"}},
}

// TestVariants runs each variantCase in ONE sandbox with a fresh vitest per run (the
// ProcessRunner) and checks what it says; then the same spec in one long-lived process,
// which must give the same Result: with the variant files written AFTER that process started
// (so they must be found by a new glob), and a run after a failing one not polluted by it
// (unhandled errors, state).
func TestVariants(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	index := readFile(t, filepath.Join(dir, indexTS))
	ref := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	ll := newLL(t, dir, false)
	// The long-lived process starts before any variant file exists.
	first := llRun(t, ll, ref)
	results := make([]Result, len(variantCases))
	t.Run("rows", func(t *testing.T) {
		for i, c := range variantCases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				s := variantSpec(t, dir, index, c)
				res := run(t, s)
				checkVariant(t, dir, c, res)
				results[i] = res
				a := llRun(t, ll, s)
				untimed(&a)
				untimed(&res)
				if !reflect.DeepEqual(a, res) {
					t.Errorf("long-lived and process runners differ:\n  long-lived %+v\n  process    %+v", a, res)
				}
			})
		}
	})
	untimed(&first)
	untimed(&results[0])
	if !reflect.DeepEqual(first, results[0]) {
		t.Errorf("the reference, first run of the long-lived process:\n  long-lived %+v\n  process    %+v", first, results[0])
	}
	// Pollution: the reference right after the unhandled rejection, in the same process,
	// is what a fresh process says of the reference.
	unhandled := variantSpec(t, dir, index, variantCase{file: "unhandled.test.ts", code: unhandledCode})
	if a := llRun(t, ll, unhandled); len(a.Unhandled) == 0 {
		t.Errorf("unhandled rejection again: %+v", a)
	}
	a := llRun(t, ll, ref)
	untimed(&a)
	if !reflect.DeepEqual(a, results[0]) {
		t.Errorf("the reference after the unhandled rejection:\n  long-lived %+v\n  process    %+v", a, results[0])
	}
	if st := ll.Stats(); st.Fallbacks != 0 || st.Starts != 2 {
		t.Errorf("want two processes (with and without -c) and no fallback; stats %+v", st)
	}
}

// variantSpec writes the row's files (unless they are there already) and returns its Spec.
func variantSpec(t *testing.T, dir, index string, c variantCase) Spec {
	t.Helper()
	s := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	if c.noConfig {
		s.Config = ""
	}
	if c.file == "" {
		return s
	}
	oracle := readFile(t, filepath.Join(dir, refOracle))
	oracle = replacePairs(t, refOracle, oracle, c.oracle, -1)
	if c.code != nil {
		mod := "index." + strings.TrimSuffix(c.file, ".test.ts")
		code := replacePairs(t, indexTS, index, c.code, 1)
		oracle = replacePairs(t, refOracle, oracle, []string{`"../src/server/index"`, `"../src/server/` + mod + `"`}, -1)
		if err := os.WriteFile(filepath.Join(dir, "src", "server", mod+".ts"), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.TestFile = "reference/" + c.file
	if err := os.WriteFile(filepath.Join(dir, s.TestFile), []byte(oracle), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// replacePairs replaces each old (which must occur) by its new, n times (-1: everywhere).
func replacePairs(t *testing.T, name, s string, pairs []string, n int) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s does not contain %q", name, pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], n)
	}
	return s
}

func checkVariant(t *testing.T, dir string, c variantCase, res Result) {
	t.Helper()
	if shapeOf(res) != c.shape || res.Executed() != c.executed || res.Attempts != 1 || res.Reached || res.FileFailed != c.fileFailed || res.NoReport != c.noReport {
		t.Errorf("want %s with %d executed, 1 attempt, not reached, file failed %v, no report %v; got %s, %d executed, %d attempts, reached %v, file failed %v, no report %v",
			c.shape, c.executed, c.fileFailed, c.noReport, shapeOf(res), res.Executed(), res.Attempts, res.Reached, res.FileFailed, res.NoReport)
	}
	if len(res.Tests) != len(c.tests) {
		t.Errorf("want %d tests, got %d: %+v", len(c.tests), len(res.Tests), res.Tests)
	}
	for i := 0; i < len(c.tests) && i < len(res.Tests); i++ {
		x, w := res.Tests[i], c.tests[i]
		if got := string(x.Status) + "/" + string(x.Phase); got != w.outcome || !strings.HasPrefix(x.Name, w.name) {
			t.Errorf("test %d: want %s %q..., got %s %q", i, w.outcome, w.name, got, x.Name)
		}
	}
	facts := factText(res)
	if len(c.facts) == 0 && facts != "" {
		t.Errorf("want nothing reported beyond the tests, got %q", facts)
	}
	for _, d := range c.facts {
		if !strings.Contains(facts, d) {
			t.Errorf("the run reported %q, which does not say %q", facts, d)
		}
	}
	if strings.Contains(facts, "\n") {
		t.Errorf("what the run reported is not one line per fact: %q", facts)
	}
	noMachinePaths(t, dir, facts)
}

// factText is what a run reported beyond its tests' statuses: its note, the file's message,
// its unhandled errors, the first failed test's failure; "" when none.
func factText(r Result) string {
	var parts []string
	if r.Note != "" {
		parts = append(parts, "note: "+r.Note)
	}
	if r.FileMessage != "" {
		parts = append(parts, "file: "+r.FileMessage)
	}
	for _, u := range r.Unhandled {
		parts = append(parts, "unhandled: "+u)
	}
	for _, x := range r.Tests {
		if x.Status == TestFailed {
			parts = append(parts, "failure: "+x.Failure)
			break
		}
	}
	return strings.Join(parts, " | ")
}

func TestInfiniteLoopTimesOutAfterRerun(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, endless+bodyStart)
	start := time.Now()
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: 3 * time.Second})
	if !res.TimedOut || res.Attempts != 2 {
		t.Fatalf("want timeout after 2 attempts; got %+v", res)
	}
	if !strings.Contains(res.Note, "run 1: ") || !strings.Contains(res.Note, "run 2: ") {
		t.Errorf("the note should give both durations: %q", res.Note)
	}
	if el := time.Since(start); el < 6*time.Second { // (the loop never ends: that it ended says it was killed)
		t.Errorf("took %s: less than two 3 s attempts, so there was no re-run", el)
	}
	// No vitest process (main or worker) may survive in the sandbox.
	time.Sleep(200 * time.Millisecond)
	if left := processesIn(dir); len(left) > 0 {
		t.Errorf("processes still running in the sandbox: %v", left)
	}
}

// TestFailingTestsAreNoProgress: a run past its time-out goes on while it
// progresses (Spec.Stall), and a failed test is no progress: a mutant that
// makes every test hang until vitest's own time-out ends at the watchdog,
// not one time-out per test later (vercel/ai c6d57f3902: a joint pass of a
// mutant of stream-text.ts sat 20 minutes on 420 tests of 5 s each, every
// failure counted as progress). Both runners: a fresh vitest and the
// long-lived process. 200 tests of 100 ms each run 20 s and more; the run
// has no passing test, so nothing extends its 3 s.
func TestFailingTestsAreNoProgress(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	var b strings.Builder
	b.WriteString("import { it } from \"vitest\";\n")
	for i := range 200 {
		fmt.Fprintf(&b, "it(\"hangs %d\", () => new Promise(() => {}), 100);\n", i)
	}
	const hang = "reference/hang.test.ts"
	if err := os.WriteFile(filepath.Join(dir, hang), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Dir: dir, TestFile: hang, Config: refConfig, Timeout: 3 * time.Second, Stall: 3 * time.Second, Once: true}
	if res := run(t, spec); !res.TimedOut {
		t.Errorf("fresh vitest: want a time-out (failures are no progress); got %d tests, %+v", len(res.Tests), res.Note)
	}
	r := newLL(t, dir, false)
	if res := llRun(t, r, spec); !res.TimedOut {
		t.Errorf("long-lived: want a time-out (failures are no progress); got %d tests, %+v", len(res.Tests), res.Note)
	}
}

// processesIn lists pids whose working directory is dir (Linux /proc; nil elsewhere).
func processesIn(dir string) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	rp, _ := filepath.EvalSymlinks(dir)
	var pids []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err == nil && (cwd == dir || cwd == rp) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// The marker in processItem is reached by the oracle; one in runPipeline (never called by the
// oracle) is not. The marked file still type-checks under the sample's strict tsc.
func TestMarkerReached(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, "  "+MarkerStatement("m-process")+"\n"+bodyStart)
	edit(t, dir, indexTS, "  const queued = await listRecords(\"queued\");\n", "  "+MarkerStatement("m-pipeline")+"\n  const queued = await listRecords(\"queued\");\n")
	for _, c := range []struct {
		id   string
		want bool
	}{{"m-process", true}, {"m-pipeline", false}} {
		res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute, ReachedMarker: c.id})
		if shapeOf(res) != passed || res.Reached != c.want {
			t.Errorf("marker %s: want passed, reached=%v; got %+v", c.id, c.want, res)
		}
	}
	// The marker must type-check (strict, with the sample's tsconfig).
	vitestSlots <- struct{}{}
	out, err := exec.Command("node", filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir).CombinedOutput()
	<-vitestSlots
	if err != nil {
		t.Errorf("tsc --noEmit with the marker: %v\n%s", err, out)
	}
}

// The marker also works from a JavaScript module (no TypeScript-only syntax) and when the
// variable is unset it does nothing.
func TestMarkerStatementIsPlainJS(t *testing.T) {
	t.Parallel()
	sample(t)
	tmp := t.TempDir()
	reached := filepath.Join(tmp, "reached")
	js := "export async function f() { " + MarkerStatement(`a"b`) + " return 1; }\nawait f();\n"
	if err := os.WriteFile(filepath.Join(tmp, "m.mjs"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(tmp, "m.mjs"))
	cmd.Env = append(os.Environ(), ReachedEnv+"="+reached)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var res Result
	if res.readMarkers(reached, `a"b`); !res.Reached {
		b, _ := os.ReadFile(reached)
		t.Fatalf("marker not recorded: %q", b)
	}
	cmd = exec.Command("node", filepath.Join(tmp, "m.mjs"))
	cmd.Env = append(os.Environ(), ReachedEnv+"=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unset variable: %v: %s", err, out)
	}
}

func TestMissingVitestIsError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "a.test.ts"), []byte("it('x', () => {})\n"), 0o644)
	_, err := New().Run(context.Background(), Spec{Dir: dir, TestFile: "src/a.test.ts"})
	if err == nil || !strings.Contains(err.Error(), "npm install --save-dev vitest") {
		t.Fatalf("want an error saying what to install, got %v", err)
	}
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"devDependencies":{"vitest":"4.1.12"}}`), 0o644)
	_, err = New().Run(context.Background(), Spec{Dir: dir, TestFile: "src/a.test.ts"})
	if err == nil || !strings.Contains(err.Error(), "declares vitest 4.1.12") || !strings.Contains(err.Error(), "npm ci") {
		t.Fatalf("want an error saying to run the install, got %v", err)
	}
	if strings.Contains(err.Error(), dir) {
		t.Errorf("error names a machine path: %v", err)
	}
}

func TestFindVitestWorkspaceOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(root, rel, "node_modules", "vitest", "vitest.mjs")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
		return p
	}
	rootV := mk(".")
	pkgV := mk("packages/a")
	os.MkdirAll(filepath.Join(root, "packages", "a", "src"), 0o755)
	os.MkdirAll(filepath.Join(root, "packages", "b", "src"), 0o755)
	if got, err := FindVitest(root, "packages/a/src/x.test.ts"); err != nil || got != pkgV {
		t.Errorf("package a: got %s, %v; want its own %s", got, err, pkgV)
	}
	if got, err := FindVitest(root, "packages/b/src/x.test.ts"); err != nil || got != rootV {
		t.Errorf("package b: got %s, %v; want the root's %s", got, err, rootV)
	}
	// Above the repository root, as node resolves it (the one lookup the
	// listing shares: a package checked alone finds the workspace's vitest)...
	sub := filepath.Join(root, "packages", "b")
	if got, err := FindVitest(sub, "src/x.test.ts"); err != nil || got != rootV {
		t.Errorf("package b as the repository: got %s, %v; want the workspace's %s", got, err, rootV)
	}
	// ...but never above the workspace root.
	os.WriteFile(filepath.Join(sub, "pnpm-workspace.yaml"), nil, 0o644)
	if _, err := FindVitest(sub, "src/x.test.ts"); err == nil {
		t.Errorf("found a vitest above the workspace root")
	}
	if _, err := FindVitest(root, "../x.test.ts"); err == nil {
		t.Errorf("accepted a test file outside the repository")
	}
}

// RanMarkerStatement is reached as MarkerStatement is, and names the tests that executed
// it, by the names the report gives them (Test.Name); the marked file still type-checks
// under the sample's strict tsc.
func TestRanMarkerReached(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, "  "+RanMarkerStatement("m-process")+"\n"+bodyStart)
	edit(t, dir, indexTS, "  const queued = await listRecords(\"queued\");\n", "  "+RanMarkerStatement("m-pipeline")+"\n  const queued = await listRecords(\"queued\");\n")
	for _, c := range []struct {
		id   string
		want bool
	}{{"m-process", true}, {"m-pipeline", false}} {
		res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute, ReachedMarker: c.id})
		if shapeOf(res) != passed || res.Reached != c.want || (len(res.ReachedIn) > 0) != c.want || len(res.ReachedOutside) > 0 {
			t.Errorf("marker %s: want passed, reached=%v in tests; got %+v", c.id, c.want, res)
		}
		for _, name := range res.ReachedIn {
			if !slices.ContainsFunc(res.Tests, func(tc Test) bool { return tc.Name == name }) {
				t.Errorf("marker %s: ran in %q, which the report does not name (%+v)", c.id, name, res.Tests)
			}
		}
	}
	vitestSlots <- struct{}{}
	out, err := exec.Command("node", filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir).CombinedOutput()
	<-vitestSlots
	if err != nil {
		t.Errorf("tsc --noEmit with the marker: %v\n%s", err, out)
	}
}

// ranBy reads RanMarkerStatement's lines of one id (a test, a describe block's hooks, the
// file's load), and markersSeen counts them as the id (readMarkers: the file read once).
func TestRanBy(t *testing.T) {
	reached := filepath.Join(t.TempDir(), "reached")
	lines := "m1\t@s\t\"\"\nm1\t@s\t\"outer\"\nm1\t@t\t\"outer inner uses it\"\nm2\t@t\t\"other\"\nm1\t@t\t\"top\"\nm1\t@t\t\"top\"\n/abs/a.test.ts\tm3\nm4\n"
	if err := os.WriteFile(reached, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var res Result
	res.readMarkers(reached, "m1")
	in, outside := res.ReachedIn, res.ReachedOutside
	if fmt.Sprintf("%q %q", in, outside) != `["outer inner uses it" "top"] ["" "outer"]` {
		t.Errorf("in %q, outside %q", in, outside)
	}
	if ok, ids := res.Reached, res.Markers; !ok || strings.Join(ids, ",") != "m1,m2,m3,m4" {
		t.Errorf("markers %v %v", ok, ids)
	}
}

// untimed clears what differs from run to run: the run's time and each
// test's.
func untimed(r *Result) {
	r.Duration = 0
	for i := range r.Tests {
		r.Tests[i].Duration = 0
	}
}

// TestTimeoutArgs: Spec.TestTimeout is vitest's testTimeout and
// hookTimeout for the run, in milliseconds; unset, the config's stand.
func TestTimeoutArgs(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, ""},
		{12 * time.Second, "--testTimeout=12000 --hookTimeout=12000"},
		{time.Microsecond, "--testTimeout=1 --hookTimeout=1"},
	} {
		if got := strings.Join(timeoutArgs(Spec{TestTimeout: c.d}), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.d, got, c.want)
		}
	}
}
