package runner

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/vitestenv"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed phases.mjs
var phasesReporter []byte

// ProcessRunner runs every Spec in a fresh vitest process (simple and always correct: the
// mutated file is read from disk by a process that never saw another version of it).
type ProcessRunner struct {
	// Node is the node binary; "" = "node" from PATH.
	Node string
	// ExtraArgs are appended to the vitest command line (tests, debugging).
	ExtraArgs []string
}

// New returns the one-process-per-run Runner.
func New() *ProcessRunner { return &ProcessRunner{} }

// Close does nothing: every run's process ends with the run.
func (r *ProcessRunner) Close() error { return nil }

// outputCap bounds the stdout+stderr kept for diagnostics.
const outputCap = 64 << 10

// Run runs s.TestFile with the repository's vitest. A first time-out is re-run once (a
// loaded machine makes false ones); a second one is reported as TimedOut with both durations.
func (r *ProcessRunner) Run(ctx context.Context, s Spec) (Result, error) {
	inv, err := r.prepare(s)
	if err != nil {
		return Result{}, err
	}
	return runFresh(ctx, s, inv.node, func() (Result, bool, error) { return r.once(ctx, s, inv) })
}

// runFresh runs a fresh test runner's process for s (once, by node): a
// run that carries markers first checks node can run them, and a run
// that times out runs once more (retryOnce). Vitest's and jest's.
func runFresh(ctx context.Context, s Spec, node string, once func() (Result, bool, error)) (Result, error) {
	if s.ReachedMarker != "" || s.Coverage {
		if err := checkMarkerSupport(ctx, node); err != nil {
			return Result{}, err
		}
	}
	return retryOnce(s, once)
}

// retryOnce is both runners' rule for a time-out: a first one is run again
// (a loaded machine makes false ones) unless the spec says Once; a second
// one is reported with both durations.
func retryOnce(s Spec, once func() (Result, bool, error)) (Result, error) {
	res, timedOut, err := once()
	if err != nil || !timedOut || s.Once {
		res.Attempts = 1
		return res, err
	}
	first := res.Duration
	res, timedOut, err = once()
	res.Attempts = 2
	if err != nil || !timedOut {
		return res, err
	}
	res.Note = fmt.Sprintf("timed out after %s, twice (run 1: %s, run 2: %s)", s.Timeout, round(first), round(res.Duration))
	return res, nil
}

func round(d time.Duration) string { return d.Round(10 * time.Millisecond).String() }

// testFileOf is s's test file, absolute: a file of the repository s.Dir.
func testFileOf(s Spec) (string, error) {
	abs, err := repoFile(s.Dir, s.TestFile)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		return "", fmt.Errorf("runner: test file %s not found in the repository", s.TestFile)
	}
	return abs, nil
}

// invocation is what prepare worked out once for a Spec.
type invocation struct {
	node    string
	vitest  string // .../node_modules/vitest/vitest.mjs
	cwd     string // where vitest runs (workDir)
	testAbs string
	config  string // absolute, or ""
	clean   *cleaner
}

func (r *ProcessRunner) prepare(s Spec) (invocation, error) {
	var inv invocation
	abs, err := testFileOf(s)
	if err != nil {
		return inv, err
	}
	inv.testAbs = abs
	if inv.vitest, err = FindVitest(s.Dir, s.TestFile); err != nil {
		return inv, err
	}
	inv.cwd = workDir(filepath.Clean(s.Dir), filepath.Dir(abs), s.Config != "")
	if s.Config != "" {
		if inv.config, err = configFile(s.Dir, s.Config); err != nil {
			return inv, err
		}
		inv.cwd = VitestDir(filepath.Clean(s.Dir), s.Config)
	}
	inv.node = r.Node
	if inv.node == "" {
		inv.node = "node"
	}
	if inv.node, err = exec.LookPath(inv.node); err != nil {
		return inv, fmt.Errorf("node is not installed (or not on PATH): %v", err)
	}
	inv.clean = newCleaner(s.Dir, inv.cwd)
	return inv, nil
}

func newCleaner(dirs ...string) *cleaner {
	c := &cleaner{}
	seen := map[string]bool{}
	add := func(list *[]string, p string) {
		p = filepath.Clean(p)
		if p == "/" || p == "." || seen[p] {
			return
		}
		seen[p] = true
		*list = append(*list, p)
		if rp, err := filepath.EvalSymlinks(p); err == nil && !seen[rp] {
			seen[rp] = true
			*list = append(*list, rp)
		}
	}
	for _, d := range dirs {
		add(&c.roots, d)
	}
	add(&c.temps, os.TempDir())
	// Longest first, so a package dir inside the sandbox is cut before the sandbox.
	sort.Slice(c.roots, func(i, j int) bool { return len(c.roots[i]) > len(c.roots[j]) })
	return c
}

// once runs vitest one time. timedOut reports that s.Timeout killed it.
func (r *ProcessRunner) once(ctx context.Context, s Spec, inv invocation) (res Result, timedOut bool, err error) {
	tmp, err := os.MkdirTemp(sbox.TempDirFor(inv.cwd), "oracle-run-")
	if err != nil {
		return res, false, fmt.Errorf("runner: temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	files := filesIn(tmp)
	reportPath, phasesPath, reachedPath := files.report, files.phases, files.reached
	reporterPath, removeReporter, err := writeReporter(inv.cwd, tmp)
	if err != nil {
		return res, false, err
	}
	defer removeReporter()

	args := []string{inv.vitest, "run", inv.testAbs,
		"--reporter=json", "--reporter=" + reporterPath, "--outputFile=" + reportPath,
		"--no-cache", // the results cache lives in node_modules/.vite, which the sandbox links to the real repository
		"--watch=false",
	}
	if inv.config != "" {
		args = append(args, "--config="+inv.config)
	}
	args = append(args, timeoutArgs(s)...)
	if s.TestName != "" {
		// vitest matches -t against a test's full name: its describe titles
		// and its own, joined by spaces (Test.Name).
		args = append(args, "--testNamePattern=^"+regexp.QuoteMeta(s.TestName)+"$")
	}
	args = append(args, r.ExtraArgs...)

	progressPath := files.progress
	env := vitestenv.For(inv.cwd, tmp,
		ReachedEnv+"="+reachedPath,
		"ORACLE_PHASES="+phasesPath,
		ProgressEnv+"="+progressPath,
	)
	var out tailBuffer
	wd, runErr := execWatched(ctx, s, progressPath, func(runCtx context.Context) *exec.Cmd {
		cmd := nodeproc.Command(runCtx, inv.node, inv.cwd, env, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		return cmd
	}, &res.Duration)

	return settle(ctx, s, wd, runErr, evidence{output: out.String(), rel: filepath.ToSlash(s.TestFile), clean: inv.clean}, inv.testAbs, res.Duration, files)
}

// runFiles are the files one run writes in its temp dir: the runner's
// JSON report, the phases of its failed tests, the markers' lines (and
// the stall watch's progress), which settle reads.
type runFiles struct{ report, phases, reached, progress string }

// filesIn are the run files of the temp dir tmp.
func filesIn(tmp string) runFiles {
	return runFiles{report: filepath.Join(tmp, "report.json"), phases: filepath.Join(tmp, "phases.json"), reached: filepath.Join(tmp, "reached"), progress: filepath.Join(tmp, "progress")}
}

// settle is what one run of the test runner established, from what it
// left in its run files (f): the
// watchdog fired (a time-out: the markers it wrote still count), or it
// exited and its report says what ran (read, from ev with the exit code
// and the test file's paths added), and the markers. An error is a run
// that could not start (or the context's end).
func settle(ctx context.Context, s Spec, wd *watchdog, runErr error, ev evidence, testAbs string, took time.Duration, f runFiles) (res Result, timedOut bool, err error) {
	reachedPath := f.reached
	res.Duration = took
	if ctx.Err() != nil {
		return res, false, ctx.Err()
	}
	if wd.fired() {
		res.TimedOut, res.ExitCode, res.Note = true, -1, timeoutDetail(s, took)
		res.readMarkers(reachedPath, s.ReachedMarker)
		return res, true, nil
	}
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return res, false, fmt.Errorf("runner: cannot run %s: %w", ev.tool(), runErr)
		}
		ev.exitCode = ee.ExitCode()
	}
	ev.testAbs = []string{testAbs}
	if rp, err := filepath.EvalSymlinks(testAbs); err == nil && rp != testAbs {
		ev.testAbs = append(ev.testAbs, rp)
	}
	ev.report, _ = os.ReadFile(f.report)
	ev.phases, _ = os.ReadFile(f.phases)
	res = read(ev)
	res.Duration = took
	res.readMarkers(reachedPath, s.ReachedMarker)
	return res, false, nil
}

// execWatched starts the command cmd builds (given the run's context) in a
// process group of its own, recorded in its sandbox, and waits for it: the
// whole group is killed when ctx ends or s's watchdog fires (Spec.Timeout,
// Spec.Stall on the file progress), and after it exits (stragglers: a worker
// that outlived the main process). took is set to the run's time; the
// watchdog, stopped, tells whether it fired; the error is cmd's (Start's or
// Wait's). Every test process the runners start (vitest's, jest's) runs so.
func execWatched(ctx context.Context, s Spec, progress string, build func(context.Context) *exec.Cmd, took *time.Duration) (*watchdog, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	wd := watch(s, progress)
	defer wd.stop()
	go func() {
		select {
		case <-wd.Done:
			cancel()
		case <-runCtx.Done():
		}
	}()
	cmd := build(runCtx) // a nodeproc.Command: its group killed with runCtx
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	runErr := cmd.Start()
	if runErr == nil {
		_ = sbox.RecordProcessGroup(cmd.Dir, cmd.Process.Pid) // a SIGKILLed oracle's next run stops the group
		runErr = cmd.Wait()
	}
	*took = time.Since(start)
	_ = nodeproc.Kill(cmd) // stragglers (a worker that outlived the main process)
	wd.stop()
	return wd, runErr
}

// timeoutArgs are the vitest options of s.TestTimeout: vitest's own time-out of each test
// and of each hook, in milliseconds (at least 1: 0 would turn it off).
func timeoutArgs(s Spec) []string {
	if s.TestTimeout <= 0 {
		return nil
	}
	ms := max(s.TestTimeout.Milliseconds(), 1)
	return []string{fmt.Sprintf("--testTimeout=%d", ms), fmt.Sprintf("--hookTimeout=%d", ms)}
}

// writeReporter writes the phases reporter that vitest is given by path, and
// returns its path and what removes it. vitest loads a reporter through vite,
// and vite 6 (vitest 3.1) refuses a file outside its root's workspace
// (server.fs.strict: "Failed to load url ... Does the file exist?"), so in a
// sandbox it goes in a new dot-directory of cwd, vitest's root (a dot-directory
// matches no test pattern and leaves with the run, and with the sandbox if the
// run is killed); outside a sandbox, in tmp, never in the user's checkout.
func writeReporter(cwd, tmp string) (path string, remove func(), err error) {
	dir, remove := tmp, func() {}
	if sbox.Within(cwd) {
		if dir, err = os.MkdirTemp(cwd, ".oracle-reporter-"); err != nil {
			return "", nil, fmt.Errorf("runner: %w", err)
		}
		remove = func() { os.RemoveAll(dir) }
	}
	path = filepath.Join(dir, "oracle-phases.mjs")
	if err := os.WriteFile(path, phasesReporter, 0o644); err != nil {
		remove()
		return "", nil, fmt.Errorf("runner: %w", err)
	}
	return path, remove, nil
}

// readMarkers reads what the markers of the run whose reached file is path wrote (the
// file read once), for the mutant marked id: Reached and Markers (markersSeen),
// ReachedIn and ReachedOutside (ranBy), HitLimit and HitsOver (hitsSeen). No file: none.
func (res *Result) readMarkers(path, id string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	lines := strings.Split(string(b), "\n")
	res.Reached, res.Markers = markersSeen(lines, id)
	res.ReachedIn, res.ReachedOutside = ranBy(lines, id)
	res.HitLimit, res.HitsOver = hitsSeen(lines, id)
}

// hitsSeen reads the lines HitCounter wrote for id among the reached file's lines: the
// limit that stopped a test (0: none) and the greatest count a test reached (0: none
// recorded).
func hitsSeen(lines []string, id string) (limit, over int64) {
	if id == "" {
		return 0, 0
	}
	for _, l := range lines {
		hid, kind, n, ok := hitLine(l)
		switch {
		case !ok || hid != id:
		case kind == "@h":
			limit = max(limit, n)
		default:
			over = max(over, n)
		}
	}
	return limit, over
}

// markersSeen reads the reached file's lines: whether id is in them, and every distinct
// id in them, sorted. A line "<test file>\t<id>" (FileMarkersStatement) counts as id.
func markersSeen(lines []string, id string) (bool, []string) {
	seen := map[string]bool{}
	for _, l := range lines {
		if _, _, _, ok := hitLine(l); ok {
			continue
		} else if rid, _, _, ok := ranLine(l); ok {
			l = rid
		} else if _, after, ok := strings.Cut(l, "\t"); ok {
			l = after
		}
		if l != "" {
			seen[l] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for l := range seen {
		ids = append(ids, l)
	}
	sort.Strings(ids)
	return id != "" && seen[id], ids
}

// ranBy reads the reached file's lines for those RanMarkerStatement wrote for id: the
// tests that executed it (full names), and the suites in whose beforeAll or afterAll hooks,
// or the file ("") while it loaded, it ran; each distinct, sorted.
func ranBy(lines []string, id string) (in, outside []string) {
	if id == "" {
		return nil, nil
	}
	for _, l := range lines {
		rid, test, name, ok := ranLine(l)
		if !ok || rid != id {
			continue
		}
		if test {
			in = append(in, name)
		} else {
			outside = append(outside, name)
		}
	}
	sort.Strings(in)
	sort.Strings(outside)
	return slices.Compact(in), slices.Compact(outside)
}

// CheckMarkerSupport is checkMarkerSupport for the node on PATH: an error
// when its markers could not record anything.
func CheckMarkerSupport(ctx context.Context) error {
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("node is not installed (or not on PATH): %v", err)
	}
	return checkMarkerSupport(ctx, node)
}

// checkMarkerSupport: MarkerStatement needs process.getBuiltinModule (Node >= 20.16, 22.3).
// Without it every mutant would look unreached, so refuse instead (cached per node binary).
func checkMarkerSupport(ctx context.Context, node string) error {
	markerMu.Lock()
	defer markerMu.Unlock()
	if err, ok := markerOK[node]; ok {
		return err
	}
	// One node process: its version (for the message) and the check.
	v, e := nodeproc.Command(ctx, node, "", nil, "-e", `process.stdout.write(process.version); process.exit(typeof process.getBuiltinModule === "function" ? 0 : 3)`).Output()
	if e != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	err := markerSupport(strings.TrimSpace(string(v)), e == nil)
	markerOK[node] = err
	return err
}

func markerSupport(version string, builtin bool) error {
	if builtin {
		return nil
	}
	return fmt.Errorf("node %s lacks process.getBuiltinModule, which the reached-marker needs: use Node >= 20.16 (or >= 22.3)", version)
}

// KnowMarkerSupport records what the node on PATH said of itself elsewhere
// (testsuite's config probe: Config.Node), so that the first run with a
// marker does not start it again to ask (checkMarkerSupport). It is
// recorded under "node" (how a runner without Node names it) and under
// its path on PATH.
func KnowMarkerSupport(version string, builtin bool) {
	names := []string{"node"}
	if p, err := exec.LookPath("node"); err == nil {
		names = append(names, p)
	}
	knowMarkerSupport(version, builtin, names...)
}

// knowMarkerSupport records the check's answer for the node binaries
// named (nothing when version is empty: nobody answered).
func knowMarkerSupport(version string, builtin bool, nodes ...string) {
	if version == "" {
		return
	}
	markerMu.Lock()
	defer markerMu.Unlock()
	for _, n := range nodes {
		if _, ok := markerOK[n]; !ok {
			markerOK[n] = markerSupport(version, builtin)
		}
	}
}

var (
	markerMu sync.Mutex
	markerOK = map[string]error{}
)

// tailBuffer keeps the last outputCap bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 2*outputCap {
		b := t.buf.Bytes()[t.buf.Len()-outputCap:]
		nb := make([]byte, len(b), 2*outputCap)
		copy(nb, b)
		t.buf = *bytes.NewBuffer(nb)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
