package runner

import (
	"context"
	"errors"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run the real vitest of testdata/pipeline in ONE long-lived process per test
// (sandbox copies, node_modules symlinked), and check that each run behaves like a fresh
// `vitest run` (the ProcessRunner's), whatever was written between runs.

const (
	unguarded   = "  patch.score = (await enrichItem(record, settings)).score;\n"
	updateCall  = "  const saved = await updateRecord(id, patch);\n"
	pipelineRun = "  const queued = await listRecords(\"queued\");\n"
)

// mutants of src/server/index.ts (scripts/mutants.py), by name.
var llMutants = map[string]func(string) string{
	"guard-deleted": func(s string) string { return strings.Replace(s, guard, unguarded, 1) },
	"flag-inverted": func(s string) string { return strings.Replace(s, "if (!opts.skip) {", "if (opts.skip) {", 1) },
	"updateRecord-moved-under-guard": func(s string) string {
		s = strings.Replace(s, updateCall, "", 1)
		return strings.Replace(s, guard, strings.Replace(guard, "  }\n", "    void (await updateRecord(id, patch));\n  }\n", 1)+"  const saved = (await getRecord(id))!;\n", 1)
	},
	"updateRecord-removed": func(s string) string {
		return strings.Replace(s, updateCall, "  const saved = { ...record, ...patch } as RecordRow;\n", 1)
	},
	"selectTargets-removed": func(s string) string {
		return strings.Replace(s, "  const targets = selectTargets(record);\n", "  const targets: string[] = [];\n", 1)
	},
	"extractMetadata-moved-under-guard": func(s string) string {
		return strings.Replace(s, "  const metadata = extractMetadata(record);\n",
			"  let metadata = { slug: \"\", tags: [] as string[] };\n  if (!opts.skip) {\n    metadata = extractMetadata(record);\n  }\n", 1)
	},
}

// setIndex writes src/server/index.ts as the original transformed by mutant ("" = original).
func setIndex(t *testing.T, dir, orig, mutant string) {
	t.Helper()
	src := orig
	if mutant != "" {
		src = llMutants[mutant](orig)
		if src == orig {
			t.Fatalf("mutant %s changed nothing", mutant)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, indexTS), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func llRun(t *testing.T, r Runner, s Spec) Result {
	t.Helper()
	vitestSlots <- struct{}{}
	defer func() { <-vitestSlots }()
	res, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("%s: shape=%s executed=%d reached=%v attempts=%d exit=%d duration=%s note=%q file=%q",
		s.TestFile, shapeOf(res), res.Executed(), res.Reached, res.Attempts, res.ExitCode, res.Duration, res.Note, res.FileMessage)
	return res
}

// newLL returns a runner that fails the test on any fallback (unless allowed) and is
// closed, with no process left behind, at the end of the test.
func newLL(t *testing.T, dir string, allowFallback bool) *LongLivedRunner {
	t.Helper()
	r := NewLongLived()
	r.OnFallback = func(s Spec, reason string) {
		if !allowFallback {
			t.Errorf("unexpected fallback for %s: %s", s.TestFile, reason)
		}
	}
	t.Cleanup(func() {
		groups := r.groups()
		r.Close()
		assertNoProcesses(t, dir, groups)
	})
	return r
}

// groups lists the process groups (driver pids) of the live processes.
func (r *LongLivedRunner) groups() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, d := range r.drivers {
		d.pmu.Lock()
		if d.proc != nil {
			out = append(out, d.proc.cmd.Process.Pid)
		}
		d.pmu.Unlock()
	}
	return out
}

// assertNoProcesses: no process works in dir and no member of the groups is alive,
// once they have had the time to end (no deadline of its own: a loaded machine takes its
// time; one that never ends is go test's -timeout, which names the test).
func assertNoProcesses(t *testing.T, dir string, groups []int) {
	t.Helper()
	for {
		var left []string
		left = append(left, processesIn(dir)...)
		for _, g := range groups {
			if err := syscall.Kill(-g, 0); !errors.Is(err, syscall.ESRCH) {
				left = append(left, fmt.Sprintf("group %d (%v)", g, err))
			}
		}
		if len(left) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// One process sees every version written between runs: original, mutant, original, another
// mutant, original. Without the invalidation the third run would still fail (or the second
// pass).
func TestLongLivedSeesEveryVersion(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	orig := readFile(t, filepath.Join(dir, indexTS))
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	steps := []struct {
		mutant string
		want   shape
		detail string
	}{
		{"", passed, ""},
		{"guard-deleted", bodyFailed, "enrichItem"},
		{"", passed, ""},
		{"updateRecord-moved-under-guard", bodyFailed, "updateRecord"},
		{"", passed, ""},
	}
	for i, st := range steps {
		setIndex(t, dir, orig, st.mutant)
		res := llRun(t, r, spec)
		if shapeOf(res) != st.want || res.Executed() != 2 || res.Attempts != 1 || !strings.Contains(res.Tests[0].Failure, st.detail) {
			t.Errorf("step %d (%q): want %s (failure with %q), got %+v", i, st.mutant, st.want, st.detail, res)
		}
		if st.want == passed && (res.Tests[0].Failure != "" || res.ExitCode != 0) {
			t.Errorf("step %d: passed with failure %q, exit %d", i, res.Tests[0].Failure, res.ExitCode)
		}
		if st.want == bodyFailed {
			if res.ExitCode != 1 || res.Tests[0].Phase != PhaseBody {
				t.Errorf("step %d: exit %d, tests %+v", i, res.ExitCode, res.Tests)
			}
			noMachinePaths(t, dir, res.Tests[0].Failure)
		}
	}
	st := r.Stats()
	if st.Starts != 1 || st.Runs != len(steps) || st.Fallbacks != 0 || st.Invalidated < 4 {
		t.Errorf("want one process serving %d runs with index.ts invalidated 4 times; stats %+v", len(steps), st)
	}
}

// The reached marker is per run: a marker reached in one run is not reported by the next
// one, where the same id sits in code the oracle never calls.
func TestLongLivedMarkerPerRun(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	orig := readFile(t, filepath.Join(dir, indexTS))
	r := newLL(t, dir, false)
	inProcess := strings.Replace(orig, bodyStart, "  "+MarkerStatement("m1")+"\n"+bodyStart, 1)
	inPipeline := strings.Replace(orig, pipelineRun, "  "+MarkerStatement("m1")+"\n"+pipelineRun, 1)
	for i, c := range []struct {
		src  string
		want bool
	}{{inProcess, true}, {inPipeline, false}, {inProcess, true}, {orig, false}} {
		if err := os.WriteFile(filepath.Join(dir, indexTS), []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute, ReachedMarker: "m1"})
		if shapeOf(res) != passed || res.Reached != c.want {
			t.Errorf("run %d: want passed, reached=%v; got %+v", i, c.want, res)
		}
	}
	if st := r.Stats(); st.Starts != 1 || st.Fallbacks != 0 {
		t.Errorf("stats %+v", st)
	}
}

// An infinite loop: the run is killed with its process group, a new process re-runs it,
// times out again: Timeout after 2 attempts; the next run (original restored) starts a
// third process and passes.
func TestLongLivedTimeoutRestarts(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	orig := readFile(t, filepath.Join(dir, indexTS))
	r := newLL(t, dir, false)
	// The runs that must pass get a limit far from their normal time (a
	// second or two; much more on a loaded machine); only the run that
	// hangs on purpose gets a short one, which it exceeds on any machine.
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: 2 * time.Minute}
	hang := spec
	hang.Timeout = 3 * time.Second
	// Warm up, so the time-out measures the run, not the start-up.
	if res := llRun(t, r, spec); shapeOf(res) != passed {
		t.Fatalf("baseline: %+v", res)
	}
	loop := strings.Replace(orig, bodyStart, endless+bodyStart, 1)
	if err := os.WriteFile(filepath.Join(dir, indexTS), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := llRun(t, r, hang)
	el := time.Since(start)
	if !res.TimedOut || res.Attempts != 2 || res.ExitCode != -1 || !strings.Contains(res.Note, "run 1: ") || !strings.Contains(res.Note, "run 2: ") {
		t.Fatalf("want timeout after 2 attempts with both durations; got %+v", res)
	}
	// At least two 3 s attempts (the loop never ends by itself: that the run
	// ended at all says it was killed).
	if el < 6*time.Second {
		t.Errorf("took %s: want two 3 s attempts", el)
	}
	// Killed: nothing runs in the sandbox until the next run.
	assertNoProcesses(t, dir, nil)
	setIndex(t, dir, orig, "")
	if res := llRun(t, r, spec); shapeOf(res) != passed || res.Attempts != 1 {
		t.Errorf("after the time-out: want passed; got %+v", res)
	}
	if st := r.Stats(); st.Starts != 3 || st.Fallbacks != 0 {
		t.Errorf("want 3 starts (initial, re-run, next run); stats %+v", st)
	}
}

// Cancelling the context kills the run at once (and its workers).
func TestLongLivedContextCancel(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	edit(t, dir, indexTS, bodyStart, endless+bodyStart)
	r := newLL(t, dir, false)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(8*time.Second, cancel)
	vitestSlots <- struct{}{}
	start := time.Now()
	_, err := r.Run(ctx, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
	<-vitestSlots
	// Not cancelled, the run would end by its two one-minute attempts'
	// time-out; cancelled, it ends with ctx's error.
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled; got %v after %s", err, time.Since(start))
	}
	assertNoProcesses(t, dir, nil)
}

// Close stops the process and its workers; a later Run says so.
func TestLongLivedCloseLeavesNoProcess(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	r := NewLongLived()
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	if res := llRun(t, r, spec); shapeOf(res) != passed {
		t.Fatalf("%+v", res)
	}
	groups := r.groups()
	if len(groups) != 1 || len(processesIn(dir)) == 0 {
		t.Fatalf("want one live process working in the sandbox; groups %v, in dir %v", groups, processesIn(dir))
	}
	r.Close()
	assertNoProcesses(t, dir, groups)
	if _, err := r.Run(context.Background(), spec); !errors.Is(err, ErrClosed) {
		t.Errorf("Run after Close: want ErrClosed, got %v", err)
	}

	// Close during a run whose worker spins: the worker goes too, and the run ends with
	// ErrClosed (not a fallback that would start another vitest).
	edit(t, dir, indexTS, bodyStart, endless+bodyStart)
	r = NewLongLived()
	r.OnFallback = func(s Spec, reason string) { t.Errorf("fallback after Close: %s", reason) }
	done := make(chan error, 1)
	vitestSlots <- struct{}{}
	defer func() { <-vitestSlots }()
	go func() {
		_, err := r.Run(context.Background(), Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute})
		done <- err
	}()
	testenv.Await(func() bool { return len(processesIn(dir)) >= 2 }) // the worker started
	time.Sleep(4 * time.Second)                                      // the worker is in the loop by now (deaf to its parent's death)
	groups = r.groups()
	r.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("run in progress: want ErrClosed, got %v", err)
	}
	assertNoProcesses(t, dir, groups)
}

// Module state, globalThis and the module registry are fresh in every run (new workers):
// the same file passes twice.
func TestLongLivedFreshModulesPerRun(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "reference", "counter.ts"), []byte("export let n = 0;\nexport function inc(): number { return ++n; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "reference", "fresh.test.ts"), []byte(`import { expect, it, vi } from "vitest";
import { inc } from "./counter";
vi.mock("./counter", async (orig) => ({ ...(await orig<typeof import("./counter")>()) }));
it("fresh", () => {
  const g = globalThis as { __runs?: number };
  g.__runs = (g.__runs ?? 0) + 1;
  expect(g.__runs).toBe(1);
  expect(inc()).toBe(1);
});
`), 0o644)
	r := newLL(t, dir, false)
	for i := 0; i < 3; i++ {
		res := llRun(t, r, Spec{Dir: dir, TestFile: "reference/fresh.test.ts", Config: refConfig, Timeout: time.Minute})
		if shapeOf(res) != passed {
			t.Errorf("run %d: %+v", i, res)
		}
	}
}

// A config with a project in typecheck mode beside its runtime tests (remeda's: type tests in
// *.test-d.ts) is served by the long-lived process for the runtime files; only a file of the
// typecheck project runs in a fresh process, with the ProcessRunner's outcome. (Before, the
// whole config was refused: every run started vitest afresh, 1.6 s a file on remeda.)
func TestLongLivedTypecheckProject(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "vitest.projects.config.ts"), []byte(`import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export default defineConfig({
  test: {
    projects: [
      { ...base, test: { ...base.test, name: "runtime", include: ["reference/**/*.test.ts"] } },
      { test: { name: "types", include: ["reference/**/*.test-d.ts"], typecheck: { enabled: true, only: true } } },
    ],
  },
});
`), 0o644)
	os.WriteFile(filepath.Join(dir, "reference", "num.test-d.ts"), []byte(`import { expectTypeOf, test } from "vitest";

test("a number", () => {
  expectTypeOf(1).toEqualTypeOf<number>();
});
`), 0o644)
	var fell []string
	r := newLL(t, dir, true)
	r.OnFallback = func(s Spec, reason string) { fell = append(fell, s.TestFile+": "+reason) }
	for i := 0; i < 2; i++ {
		res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: "vitest.projects.config.ts", Timeout: time.Minute})
		if shapeOf(res) != passed {
			t.Errorf("runtime run %d: %+v", i, res)
		}
	}
	if st := r.Stats(); st.Runs != 2 || st.Fallbacks != 0 || st.Starts != 1 {
		t.Errorf("want the runtime file's 2 runs in one long-lived process; stats %+v, fallbacks %q", st, fell)
	}
	s := Spec{Dir: dir, TestFile: "reference/num.test-d.ts", Config: "vitest.projects.config.ts", Timeout: time.Minute}
	a := llRun(t, r, s)
	b := llRun(t, New(), s)
	if shapeOf(a) != shapeOf(b) || a.Executed() != b.Executed() {
		t.Errorf("type test: long-lived runner %s (%d executed), fresh process %s (%d)", shapeOf(a), a.Executed(), shapeOf(b), b.Executed())
	}
	if st := r.Stats(); st.Fallbacks != 1 || st.Starts != 1 || !strings.Contains(st.LastFallback, "typecheck mode") {
		t.Errorf("want the type test alone in a fresh process, the long-lived one kept; stats %+v", st)
	}
	if res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: "vitest.projects.config.ts", Timeout: time.Minute}); shapeOf(res) != passed {
		t.Errorf("runtime run after the type test: %+v", res)
	}
	if st := r.Stats(); st.Runs != 3 || st.Starts != 1 {
		t.Errorf("want the runtime file back on the same process; stats %+v", st)
	}
}

// One project with typecheck enabled beside its runtime tests (vercel/ai's config:
// `typecheck: { enabled: true }` in the only project, its *.test-d.ts files beside the
// *.test.ts ones): the runtime files, alone or jointly, are served by the long-lived process
// (their specifications run in the project's pool, as a fresh `vitest run` runs them); only
// a type test falls back to a fresh process. (Before, every run of such a config started
// vitest afresh: each of vercel/ai's gate runs paid vitest's start-up.)
func TestLongLivedTypecheckInOneProject(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "vitest.typecheck.config.ts"), []byte(`import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export default defineConfig({
  ...base,
  test: { ...base.test, include: ["reference/**/*.test.ts"], typecheck: { enabled: true, include: ["reference/**/*.test-d.ts"] } },
});
`), 0o644)
	os.WriteFile(filepath.Join(dir, "reference", "num.test-d.ts"), []byte(`import { expectTypeOf, test } from "vitest";

test("a number", () => {
  expectTypeOf(1).toEqualTypeOf<number>();
});
`), 0o644)
	os.WriteFile(filepath.Join(dir, "reference", "plain.test.ts"), []byte(`import { expect, test } from "vitest";

test("plain", () => {
  expect(1 + 1).toBe(2);
});
`), 0o644)
	var fell []string
	r := newLL(t, dir, true)
	r.OnFallback = func(s Spec, reason string) { fell = append(fell, s.TestFile+": "+reason) }
	const cfg = "vitest.typecheck.config.ts"
	for i := 0; i < 2; i++ {
		if res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: cfg, Timeout: time.Minute}); shapeOf(res) != passed {
			t.Errorf("runtime run %d: %+v", i, res)
		}
	}
	if st := r.Stats(); st.Runs != 2 || st.Fallbacks != 0 || st.Starts != 1 {
		t.Errorf("want the runtime file's 2 runs in one long-lived process; stats %+v, fallbacks %q", st, fell)
	}
	vitestSlots <- struct{}{}
	joint, err := r.RunJoint(context.Background(), Spec{Dir: dir, Config: cfg, Timeout: time.Minute}, []string{refOracle, "reference/plain.test.ts"})
	<-vitestSlots
	if err != nil {
		t.Fatal(err)
	}
	if len(joint) != 2 || shapeOf(joint[refOracle]) != passed || shapeOf(joint["reference/plain.test.ts"]) != passed {
		t.Errorf("want both runtime files in one joint run, passed; got %+v", joint)
	}
	s := Spec{Dir: dir, TestFile: "reference/num.test-d.ts", Config: cfg, Timeout: time.Minute}
	a := llRun(t, r, s)
	b := llRun(t, New(), s)
	if shapeOf(a) != shapeOf(b) || a.Executed() != b.Executed() {
		t.Errorf("type test: long-lived runner %s (%d executed), fresh process %s (%d)", shapeOf(a), a.Executed(), shapeOf(b), b.Executed())
	}
	if st := r.Stats(); st.Fallbacks != 1 || st.Starts != 1 || st.JointRuns != 1 || !strings.Contains(st.LastFallback, "typecheck mode") {
		t.Errorf("want the type test alone in a fresh process, the long-lived one kept; stats %+v", st)
	}
}

// A config the long-lived process cannot serve like a fresh one (globalSetup runs once per
// process) falls back to a process per run; so does a driver killed during a run. Outcomes
// are the ProcessRunner's.
func TestLongLivedFallsBack(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "reference", "gs.ts"), []byte("export default function () {}\n"), 0o644)
	cfg := readFile(t, filepath.Join(dir, refConfig))
	cfg = strings.Replace(cfg, "test: { ...base.test,", "test: { ...base.test, globalSetup: [\"./reference/gs.ts\"],", 1)
	os.WriteFile(filepath.Join(dir, "vitest.gs.config.ts"), []byte(cfg), 0o644)
	r := newLL(t, dir, true)
	for i := 0; i < 2; i++ {
		res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: "vitest.gs.config.ts", Timeout: time.Minute})
		if shapeOf(res) != passed {
			t.Errorf("globalSetup run %d: %+v", i, res)
		}
	}
	if st := r.Stats(); st.Fallbacks != 2 || st.Starts != 1 || !strings.Contains(st.LastFallback, "globalSetup") {
		t.Errorf("want one start, refused for globalSetup, and 2 fallbacks; stats %+v", st)
	}

	// The test kills its parent (the driver, or vitest in a fresh process).
	f := writeVariant(t, dir, "killer.test.ts", "    await processItem(...args);\n    expect(enrichItem).toHaveBeenCalled();", "    process.kill(process.ppid, \"SIGKILL\");")
	s := Spec{Dir: dir, TestFile: f, Config: refConfig, Timeout: time.Minute}
	a := llRun(t, r, s)
	b := llRun(t, New(), s)
	untimed(&a)
	untimed(&b)
	if !reflect.DeepEqual(a, b) || shapeOf(a) != broken {
		t.Errorf("killed driver: want the ProcessRunner's error\n  long-lived %+v\n  process    %+v", a, b)
	}
	if st := r.Stats(); st.Fallbacks != 3 || !strings.Contains(st.LastFallback, "exited during a run") {
		t.Errorf("want a fallback for the dead driver; stats %+v", st)
	}
	// The next run gets a new process.
	if res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}); shapeOf(res) != passed {
		t.Errorf("after the crash: %+v", res)
	}
	if st := r.Stats(); st.Fallbacks != 3 || st.Starts != 3 {
		t.Errorf("stats %+v", st)
	}
}

// vitest 5.1.1 on Node 22 (testdata/vitest5), when installed: the same switch.
func TestLongLivedVitest5(t *testing.T) {
	t.Parallel()
	src := sample(t)
	v5 := filepath.Join(src, "..", "vitest5", "node_modules")
	node := filepath.Join(v5, "node", "bin", "node")
	if _, err := os.Stat(filepath.Join(v5, "vitest", "vitest.mjs")); err != nil {
		testenv.Missing(t, "testdata/vitest5/node_modules is missing: scripts/test installs it")
	}
	dir := sandbox(t)
	os.Remove(filepath.Join(dir, "node_modules"))
	if err := os.Symlink(v5, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	orig := readFile(t, filepath.Join(dir, indexTS))
	r := newLL(t, dir, false)
	r.Node = node
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute, ReachedMarker: "m5"}
	marked := strings.Replace(orig, bodyStart, "  "+MarkerStatement("m5")+"\n"+bodyStart, 1)
	for i, st := range []struct {
		src     string
		want    shape
		reached bool
	}{{orig, passed, false}, {llMutants["guard-deleted"](marked), bodyFailed, true}, {orig, passed, false}, {marked, passed, true}} {
		if err := os.WriteFile(filepath.Join(dir, indexTS), []byte(st.src), 0o644); err != nil {
			t.Fatal(err)
		}
		res := llRun(t, r, spec)
		if shapeOf(res) != st.want || res.Reached != st.reached {
			t.Errorf("step %d: want %s reached=%v; got %+v", i, st.want, st.reached, res)
		}
	}
	if st := r.Stats(); st.Starts != 1 || st.Fallbacks != 0 {
		t.Errorf("stats %+v", st)
	}
}

// ORACLE_LL_BENCH=1: N=12 runs alternating the original and mutants, with a process per run
// and with one long-lived process; the outcomes must agree.
func TestLongLivedBenchmark(t *testing.T) {
	if os.Getenv("ORACLE_LL_BENCH") == "" {
		t.Skip("set ORACLE_LL_BENCH=1")
	}
	dir := sandbox(t)
	orig := readFile(t, filepath.Join(dir, indexTS))
	names := []string{"guard-deleted", "flag-inverted", "updateRecord-moved-under-guard", "updateRecord-removed", "selectTargets-removed", "extractMetadata-moved-under-guard"}
	var seq []string
	for i := 0; len(seq) < 12; i++ {
		seq = append(seq, "", names[i%len(names)])
	}
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	measure := func(r Runner) ([]shape, time.Duration, []time.Duration) {
		var sts []shape
		var per []time.Duration
		t0 := time.Now()
		for _, m := range seq {
			setIndex(t, dir, orig, m)
			s := time.Now()
			res, err := r.Run(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			per = append(per, time.Since(s))
			sts = append(sts, shapeOf(res))
		}
		return sts, time.Since(t0), per
	}
	ps, pt, pper := measure(New())
	ll := newLL(t, dir, false)
	ls, lt, lper := measure(ll)
	t.Logf("sequence:   %q", seq)
	t.Logf("process:    %v total %s per run %v", ps, pt.Round(time.Millisecond), roundAll(pper))
	t.Logf("long-lived: %v total %s per run %v", ls, lt.Round(time.Millisecond), roundAll(lper))
	t.Logf("ratio process/long-lived: %.2f", float64(pt)/float64(lt))
	if !reflect.DeepEqual(ps, ls) {
		t.Errorf("outcomes differ")
	}
}

func roundAll(ds []time.Duration) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Round(10*time.Millisecond).String())
	}
	return out
}

// A change to the config or a file it imports (vitest.config.ts, imported by the reference
// config) cannot be invalidated: the process is replaced.
func TestLongLivedConfigChangeRestarts(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: refOracle, Config: refConfig, Timeout: time.Minute}
	if res := llRun(t, r, spec); shapeOf(res) != passed {
		t.Fatalf("%+v", res)
	}
	// Exclude the oracle in the imported base config: a stale config would still run it.
	edit(t, dir, "vitest.config.ts", "  test: {\n", "  test: {\n    exclude: [\"reference/**\"],\n")
	if res := llRun(t, r, spec); !res.NoReport || !strings.Contains(res.Note, "no test file matched") {
		t.Errorf("with the oracle excluded: want no test file matched; got %+v", res)
	}
	if st := r.Stats(); st.Starts != 2 || st.Fallbacks != 0 {
		t.Errorf("want a restart for the config change; stats %+v", st)
	}
}

// A workspace package linked into node_modules (as the sandbox links them): vite holds its
// real path, which is what gets hashed and invalidated.
func TestLongLivedWorkspaceLink(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	// A node_modules of links to the sample's entries plus @ws/lib -> packages/lib.
	shared, _ := os.Readlink(filepath.Join(dir, "node_modules"))
	os.Remove(filepath.Join(dir, "node_modules"))
	nm := filepath.Join(dir, "node_modules")
	os.MkdirAll(filepath.Join(nm, "@ws"), 0o755)
	ents, err := os.ReadDir(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Symlink(filepath.Join(shared, e.Name()), filepath.Join(nm, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	lib := filepath.Join(dir, "packages", "lib")
	os.MkdirAll(lib, 0o755)
	os.WriteFile(filepath.Join(lib, "package.json"), []byte(`{"name":"@ws/lib","type":"module","exports":{".":"./index.ts"}}`), 0o644)
	write := func(v int) {
		os.WriteFile(filepath.Join(lib, "index.ts"), []byte(fmt.Sprintf("export function value(): number { return %d; }\n", v)), 0o644)
	}
	write(1)
	if err := os.Symlink("../../packages/lib", filepath.Join(nm, "@ws", "lib")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "reference", "ws.test.ts"), []byte(`import { expect, it } from "vitest";
import { value } from "@ws/lib";
it("value", () => { expect(value()).toBe(1); });
`), 0o644)
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: "reference/ws.test.ts", Config: refConfig, Timeout: time.Minute}
	for i, v := range []int{1, 2, 1, 3, 1} {
		write(v)
		want := passed
		if v != 1 {
			want = bodyFailed
		}
		if res := llRun(t, r, spec); shapeOf(res) != want {
			t.Errorf("step %d (value %d): want %s, got %+v", i, v, want, res)
		}
	}
	if st := r.Stats(); st.Starts != 1 || st.Fallbacks != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestLongLivedBrowserProject: a root config with a browser-mode project beside a node one
// (vuejs/core's and vueuse's: playwright's chromium for a few files) keeps the long-lived
// process and the joint runs for the node project's files; only a file a browser project
// runs falls back to a fresh `vitest run`, as the user's run would run it. (Before, the
// browser project refused the whole process: every baseline of vuejs/core and vueuse ran in
// a vitest process of its own, 20 minutes of baselines on a change every test loads.)
func TestLongLivedBrowserProject(t *testing.T) {
	t.Parallel()
	dir := sandbox(t)
	os.WriteFile(filepath.Join(dir, "vitest.browser.config.ts"), []byte(`import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: [
      { extends: true, test: { name: "node", include: ["reference/**/*.test.ts"], exclude: ["**/*.browser.test.ts"] } },
      { extends: true, test: { name: "chromium", include: ["reference/**/*.browser.test.ts"],
        browser: { enabled: true, headless: true, instances: [{ browser: "chromium" }] } } },
    ],
  },
});
`), 0o644)
	for _, f := range []string{"plain.test.ts", "page.browser.test.ts"} {
		os.WriteFile(filepath.Join(dir, "reference", f), []byte(`import { expect, test } from "vitest";

test("plain", () => {
  expect(1 + 1).toBe(2);
});
`), 0o644)
	}
	var fell []string
	r := newLL(t, dir, true)
	r.OnFallback = func(s Spec, reason string) { fell = append(fell, s.TestFile+": "+reason) }
	const cfg = "vitest.browser.config.ts"
	if res := llRun(t, r, Spec{Dir: dir, TestFile: refOracle, Config: cfg, Timeout: time.Minute}); shapeOf(res) != passed {
		t.Errorf("node project's file: %+v", res)
	}
	vitestSlots <- struct{}{}
	joint, err := r.RunJoint(context.Background(), Spec{Dir: dir, Config: cfg, Timeout: time.Minute},
		[]string{refOracle, "reference/plain.test.ts", "reference/page.browser.test.ts"})
	<-vitestSlots
	if err != nil {
		t.Fatal(err)
	}
	if len(joint) != 2 || shapeOf(joint[refOracle]) != passed || shapeOf(joint["reference/plain.test.ts"]) != passed {
		t.Errorf("want the node project's two files in one joint run, passed, the browser file left out; got %+v", joint)
	}
	if st := r.Stats(); st.Fallbacks != 0 || st.Starts != 1 || st.JointRuns != 1 {
		t.Errorf("want one long-lived process for the node project; stats %+v, fallbacks %q", st, fell)
	}
	s := Spec{Dir: dir, TestFile: "reference/page.browser.test.ts", Config: cfg, Timeout: 2 * time.Minute}
	a := llRun(t, r, s)
	b := llRun(t, New(), s)
	if shapeOf(a) != shapeOf(b) || a.Executed() != b.Executed() {
		t.Errorf("browser file: long-lived runner %s (%d executed), fresh process %s (%d)", shapeOf(a), a.Executed(), shapeOf(b), b.Executed())
	}
	if st := r.Stats(); st.Fallbacks != 1 || st.Starts != 1 || !strings.Contains(st.LastFallback, "browser") {
		t.Errorf("want the browser file alone in a fresh process, the long-lived one kept; stats %+v", st)
	}
}
