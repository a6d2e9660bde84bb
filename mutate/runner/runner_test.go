package runner

import (
	"context"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

func TestReferenceOraclePasses(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
	if shapeOf(res) != passed || res.Executed() != 2 || len(res.Tests) != 2 {
		t.Fatalf("want passed with 2 executed tests, got %+v", res)
	}
	if !strings.HasPrefix(res.Tests[1].Name, "PROJ-142 skip-enrichment: processItem with opts.skip flag unset") {
		t.Errorf("full name: %q", res.Tests[1].Name)
	}
	if res.Note != "" || res.FileMessage != "" || res.Reached || res.Attempts != 1 {
		t.Errorf("unexpected detail/reached/attempts: %+v", res)
	}
}

func TestGuardDeletedFails(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, guard, "  patch.score = (await enrichItem(record, settings)).score;\n")
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
	if shapeOf(res) != bodyFailed || res.Executed() != 2 {
		t.Fatalf("want failed, 2 executed; got %+v", res)
	}
	if f := res.Tests[0].Failure; !strings.Contains(f, "enrichItem") || strings.Contains(f, "\n") {
		t.Errorf("failure should name enrichItem on one line: %q", f)
	}
	if res.Tests[0].Status != "failed" || res.Tests[0].Phase != PhaseBody || res.Tests[1].Status != "passed" {
		t.Errorf("per-test outcomes: %+v", res.Tests)
	}
	noMachinePaths(t, dir, res.Tests[0].Failure)
}

// The code under test throws the same error in every test: that is a kill (failed), not a
// setup error, although every test failed with an identical non-assertion message.
func TestCodeUnderTestThrowsIsFailed(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, "  throw new Error(\"mutant boom\");\n"+bodyStart)
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
	if shapeOf(res) != bodyFailed || res.Executed() != 2 || !strings.Contains(res.Tests[0].Failure, "mutant boom") {
		t.Fatalf("want failed with mutant boom; got %+v", res)
	}
}

// A rejection nobody awaits, from the code under test: vitest fails the run although every
// test passed (its JSON report even says success: true); the phase reporter catches it.
func TestUnhandledRejectionIsFailed(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, "  void Promise.reject(new Error(\"floating\"));\n"+bodyStart)
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
	if len(res.Unhandled) == 0 || res.Unhandled[0] != "Error: floating" {
		t.Fatalf("want failed with the unhandled error; got %+v", res)
	}
}

// A beforeEach that throws fails every test before any assertion: error, not failed.
func TestBeforeEachThrowIsError(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	f := writeVariant(t, dir, "setup-throws.test.ts", "  await setup();\n", "  await setup();\n  throw new Error(\"setup boom\");\n")
	res := run(t, Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute})
	if shapeOf(res) != broken || res.Executed() != 2 || !strings.Contains(res.Tests[0].Failure, "setup boom") {
		t.Fatalf("want error naming the setup failure; got %+v", res)
	}
	for _, x := range res.Tests {
		if x.Phase != PhaseSetup {
			t.Errorf("%s: phase %q, want setup", x.Name, x.Phase)
		}
	}
}

func TestSyntaxErrorIsError(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	f := writeVariant(t, dir, "syntax.test.ts", "    await processItem(...args);\n    expect(enrichItem).toHaveBeenCalled();", "    await processItem(...args;\n    expect(enrichItem).toHaveBeenCalled();")
	res := run(t, Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute})
	if len(res.Tests) != 0 || !res.FileFailed || !strings.Contains(res.FileMessage, "reference/syntax.test.ts:") {
		t.Fatalf("want a load error with the location; got %+v", res)
	}
	noMachinePaths(t, dir, res.FileMessage)
}

func TestWrongImportIsError(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	f := writeVariant(t, dir, "badimport.test.ts", `"../test/fixtures/pipeline.fixture"`, `"../test/fixtures/nope.fixture"`)
	res := run(t, Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute})
	if len(res.Tests) != 0 || !res.FileFailed || !strings.Contains(res.FileMessage, "Cannot find module") || !strings.Contains(res.FileMessage, "nope.fixture") {
		t.Fatalf("want a load error naming the module; got %+v", res)
	}
	noMachinePaths(t, dir, res.FileMessage)
}

func TestNoTestExecutedIsError(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	f := writeVariant(t, dir, "skipped.test.ts", "\ndescribe(", "\ndescribe.skip(")
	res := run(t, Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute})
	if shapeOf(res) != broken || res.Executed() != 0 || len(res.Tests) != 2 || res.FileFailed || res.FileMessage != "" {
		t.Fatalf("want error, 0 executed; got %+v", res)
	}
}

// Without -c the reference/ directory is outside the default include: vitest runs nothing.
func TestFileOutsideIncludeIsError(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Timeout: time.Minute})
	if !res.NoReport || !strings.Contains(res.Note, "no test file matched "+refOracle) {
		t.Fatalf("want error no test file matched; got %+v", res)
	}
}

func TestInfiniteLoopTimesOutAfterRerun(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, "  while (Date.now() > 0) {}\n"+bodyStart)
	start := time.Now()
	res := run(t, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: 3 * time.Second})
	if !res.TimedOut || res.Attempts != 2 {
		t.Fatalf("want timeout after 2 attempts; got %+v", res)
	}
	if !strings.Contains(res.Note, "run 1: ") || !strings.Contains(res.Note, "run 2: ") {
		t.Errorf("the note should give both durations: %q", res.Note)
	}
	if el := time.Since(start); el < 6*time.Second {
		t.Errorf("took %s: less than two 3 s attempts, so there was no re-run", el)
	} else if el > 2*time.Minute { // the loop never ends: only a run nobody kills takes this long
		t.Errorf("took %s: the process group was not killed promptly", el)
	}
	// No vitest process (main or worker) may survive in the sandbox.
	time.Sleep(200 * time.Millisecond)
	if left := processesIn(dir); len(left) > 0 {
		t.Errorf("processes still running in the sandbox: %v", left)
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
	if ok, _ := markersSeen(reached, `a"b`); !ok {
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
	// Never above the repository root.
	sub := filepath.Join(root, "packages", "b")
	if _, err := FindVitest(sub, "src/x.test.ts"); err == nil {
		t.Errorf("found a vitest above the repository root")
	}
	if _, err := FindVitest(root, "../x.test.ts"); err == nil {
		t.Errorf("accepted a test file outside the repository")
	}
}
