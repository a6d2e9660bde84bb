package runner

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/internal/nodeproc"
	"github.com/oracle-ts/oracle/internal/vitestenv"
	"github.com/oracle-ts/oracle/internal/warmnode"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

//go:embed longlived_driver.mjs
var longLivedDriver []byte

// LongLivedRunner keeps one vitest process per (repository, package dir, vitest install,
// config, node) and runs the test file on request in it (longlived_driver.mjs: createVitest,
// standalone once, then one run per request), so a prove (a baseline and its mutants, each a
// file rewritten in the sandbox between runs) pays vitest's start-up once.
//
// Every run behaves like a fresh `vitest run <file>` (the ProcessRunner's): before it, every
// file in vite's module graphs is hashed and the changed ones are invalidated (a mutant
// written between runs is re-transformed, and so is the restored original; the graph holds
// real paths, so a workspace package linked through node_modules is covered); the test
// file list is re-globbed (an oracle written since is found); the workers are fresh per run
// (module registry, vi.mock hoisting, globalThis); the same reporters write the same
// report, read by the same code. A config vitest cannot serve that way (globalSetup,
// browser mode, a custom pool, vitest < 2.1, vitest 2's vmThreads pool) and any protocol failure (the driver crashed,
// said something unreadable, the run threw) fall back to Fallback for that run, and so does a
// test file of a project in typecheck mode (the config's other files stay served): never a
// different outcome, only a slower one. Stats and OnFallback tell about them.
//
// Runs on one process are serialized; Close (or CloseDir) stops the processes, their
// workers included: the runner must be closed.
type LongLivedRunner struct {
	// Node is the node binary; "" = "node" from PATH.
	Node string
	// Fallback runs a Spec the long-lived process cannot; nil = a ProcessRunner with Node.
	Fallback Runner
	// MaxProcesses bounds the idle processes kept (least recently used first out); 0 = 2.
	MaxProcesses int
	// StartTimeout bounds a process's start-up (config load, vite server); 0 = 2 minutes.
	StartTimeout time.Duration
	// OnFallback, when set, hears of every run handed to Fallback and why.
	OnFallback func(s Spec, reason string)

	mu       sync.Mutex
	drivers  map[llKey]*llDriver
	disabled map[llKey]string
	closed   bool
	stats    LongLivedStats
	warm     *warmnode.Proc // Offer's, until a driver becomes it or Close kills it
}

// LongLivedStats counts what a LongLivedRunner did.
type LongLivedStats struct {
	Runs         int    // runs answered by a long-lived process
	Fallbacks    int    // runs handed to Fallback
	Starts       int    // processes started (the first one, and restarts after a time-out or crash)
	Invalidated  int    // files invalidated before runs (changed since the previous run)
	JointRuns    int    // runs of several test files at once (RunJoint), also counted in Runs
	JointFiles   int    // the files those runs attributed a result to
	Adopted      int    // drivers (of Starts) and plain runs of many files (RunTogetherOn) that became a process Offer gave (warmnode)
	LastFallback string // why the last fallback happened
}

// NewLongLived returns a LongLivedRunner with the defaults.
func NewLongLived() *LongLivedRunner { return &LongLivedRunner{} }

// Offer gives the runner a node process that has imported vitest's node
// API (testsuite's config probe, Options.KeepWarm): the first driver started
// for the same node binary and vitest package, or the first plain run of
// many files (RunTogetherOn), becomes it instead of starting node (warmnode,
// adopt), about 0.2 CPU seconds less per gate or audit. The runner owns it
// from now on: Close kills it when no driver took it.
func (r *LongLivedRunner) Offer(p *warmnode.Proc) {
	r.mu.Lock()
	old := r.warm
	r.warm = p
	if r.closed {
		old, r.warm = p, nil
	}
	r.mu.Unlock()
	old.Kill()
}

// WarmOffer is r's Offer when r is a LongLivedRunner, else nil: what a
// verb that reads the suite (testsuite.Options.KeepWarm) and then runs it
// with r passes on.
func WarmOffer(r Runner) func(*warmnode.Proc) {
	if ll, ok := r.(*LongLivedRunner); ok && ll != nil {
		return ll.Offer
	}
	return nil
}

// adopted is an offered process that took a job (adopt): the caller's now.
type adopted struct {
	cmd    *exec.Cmd // started and waited for: exited says when it ended
	stdin  io.WriteCloser
	fd3    io.ReadCloser // the job's responses
	exited <-chan struct{}
}

// adopt hands job to the process Offer gave when it is node with the
// vitest package of vitest (its vitest.mjs; Proc.Fits) and the runner is
// open, counted in Stats.Adopted. nil when there is none that fits (it
// stays offered) or it could not take the job (it is killed): the caller
// starts node.
func (r *LongLivedRunner) adopt(node, vitest string, job warmnode.Job) *adopted {
	r.mu.Lock()
	w := r.warm
	if w == nil || r.closed || !w.Fits(node, filepath.Dir(vitest)) {
		r.mu.Unlock()
		return nil
	}
	r.warm = nil
	r.mu.Unlock()
	cmd, stdin, fd3, exited, err := w.Become(job)
	if err != nil {
		w.Kill()
		return nil
	}
	r.mu.Lock()
	r.stats.Adopted++
	r.mu.Unlock()
	return &adopted{cmd: cmd, stdin: stdin, fd3: fd3, exited: exited}
}

// ErrClosed is returned by Run on a closed LongLivedRunner.
var ErrClosed = errors.New("runner: the long-lived runner is closed")

type llKey struct {
	dir, cwd, vitest, config, node string
}

// maxCrashes: after this many protocol failures on one key, it is served by Fallback only.
const maxCrashes = 3

// Run runs s.TestFile in the long-lived process for its key (starting it when needed). A
// first time-out kills the process (and its workers), starts a new one and re-runs once, as
// ProcessRunner does.
func (r *LongLivedRunner) Run(ctx context.Context, s Spec) (Result, error) {
	pr := &ProcessRunner{Node: r.Node}
	inv, err := pr.prepare(s)
	if err != nil {
		return Result{}, err
	}
	if s.ReachedMarker != "" || s.Coverage {
		if err := checkMarkerSupport(ctx, inv.node); err != nil {
			return Result{}, err
		}
	}
	if s.TestName != "" {
		return r.fallback(ctx, s, "a run of one test runs in a fresh process")
	}
	if s.TestTimeout > 0 {
		// The process's config holds the repository's time-outs for every run.
		return r.fallback(ctx, s, "a run with vitest's test time-out raised runs in a fresh process")
	}
	key := llKey{dir: filepath.Clean(s.Dir), cwd: inv.cwd, vitest: inv.vitest, config: inv.config, node: inv.node}
	d, reason, err := r.acquire(key)
	if err != nil {
		return Result{}, err
	}
	if d == nil {
		return r.fallback(ctx, s, reason)
	}
	res, err := r.runOn(ctx, d, s, inv)
	d.mu.Unlock()
	var refused *llRunRefused
	if errors.As(err, &refused) {
		return r.fallback(ctx, s, refused.msg)
	}
	var pe *llProtocolError
	if errors.As(err, &pe) {
		if r.isClosed() {
			return Result{}, ErrClosed
		}
		r.mu.Lock()
		d.crashes++
		if pe.unsupported || d.crashes >= maxCrashes {
			r.disabled[key] = pe.msg
		}
		r.mu.Unlock()
		return r.fallback(ctx, s, pe.msg)
	}
	if err != nil {
		return Result{}, err
	}
	r.mu.Lock()
	r.stats.Runs++
	r.mu.Unlock()
	return res, nil
}

// runOn: the ProcessRunner's retry rule on one driver (held locked).
func (r *LongLivedRunner) runOn(ctx context.Context, d *llDriver, s Spec, inv invocation) (Result, error) {
	return retryOnce(s, func() (Result, bool, error) { return d.once(ctx, r, s, inv) })
}

func (r *LongLivedRunner) fallback(ctx context.Context, s Spec, reason string) (Result, error) {
	if r.isClosed() {
		return Result{}, ErrClosed
	}
	r.mu.Lock()
	r.stats.Fallbacks++
	r.stats.LastFallback = reason
	r.mu.Unlock()
	if r.OnFallback != nil {
		r.OnFallback(s, reason)
	}
	fb := r.Fallback
	if fb == nil {
		fb = &ProcessRunner{Node: r.Node}
	}
	return fb.Run(ctx, s)
}

func (r *LongLivedRunner) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// acquire returns the key's driver, locked, or nil and the reason to fall back.
func (r *LongLivedRunner) acquire(key llKey) (*llDriver, string, error) {
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, "", ErrClosed
		}
		if why, ok := r.disabled[key]; ok {
			r.mu.Unlock()
			return nil, why, nil
		}
		if r.drivers == nil {
			r.drivers = map[llKey]*llDriver{}
			r.disabled = map[llKey]string{}
		}
		d := r.drivers[key]
		if d == nil {
			d = &llDriver{key: key}
			r.drivers[key] = d
			r.evictLocked(d)
		}
		d.lastUse = time.Now()
		r.mu.Unlock()
		d.mu.Lock()
		if !d.gone {
			return d, "", nil
		}
		d.mu.Unlock()
	}
}

// evictLocked stops the least recently used idle drivers beyond MaxProcesses (r.mu held).
func (r *LongLivedRunner) evictLocked(keep *llDriver) {
	limit := r.MaxProcesses
	if limit <= 0 {
		limit = 2
	}
	for len(r.drivers) > limit {
		var lru *llDriver
		for _, d := range r.drivers {
			if d != keep && (lru == nil || d.lastUse.Before(lru.lastUse)) && d.mu.TryLock() {
				if lru != nil {
					lru.mu.Unlock()
				}
				lru = d
			}
		}
		if lru == nil {
			return // all busy: allow more for now
		}
		delete(r.drivers, lru.key)
		lru.gone = true
		lru.stop()
		lru.mu.Unlock()
	}
}

// Stats returns the counters so far.
func (r *LongLivedRunner) Stats() LongLivedStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// CloseDir stops the processes serving the repository dir (a sandbox about to be removed).
func (r *LongLivedRunner) CloseDir(dir string) {
	dir = filepath.Clean(dir)
	r.mu.Lock()
	var ds []*llDriver
	for k, d := range r.drivers {
		if k.dir == dir {
			ds = append(ds, d)
			delete(r.drivers, k)
		}
	}
	r.mu.Unlock()
	for _, d := range ds {
		d.stop() // a run in progress ends now, and falls back
		d.mu.Lock()
		d.gone = true
		d.stop()
		d.mu.Unlock()
	}
}

// Close stops every process (and its workers) and waits for them. Runs in progress end
// with ErrClosed; later ones too.
func (r *LongLivedRunner) Close() error {
	r.mu.Lock()
	r.closed = true
	ds := r.drivers
	r.drivers = nil
	warm := r.warm
	r.warm = nil
	r.mu.Unlock()
	warm.Kill()
	for _, d := range ds {
		d.stop()
	}
	for _, d := range ds {
		d.mu.Lock()
		d.gone = true
		d.stop()
		d.mu.Unlock()
	}
	return nil
}

// llProtocolError: the long-lived process could not answer; the run falls back.
// llRunRefused: the driver cannot run this test file like a fresh process (it belongs to a
// project in typecheck mode) and ran nothing; the process serves the other files.
type llRunRefused struct{ msg string }

func (e *llRunRefused) Error() string { return "runner: " + e.msg }

type llProtocolError struct {
	msg         string
	unsupported bool // this key can never be served: do not try again
}

func (e *llProtocolError) Error() string { return "long-lived vitest: " + e.msg }

func protoErr(format string, a ...any) error {
	return &llProtocolError{msg: fmt.Sprintf(format, a...)}
}

// llDriver is one key's process, restarted as needed. mu serializes runs (and is held by
// whoever uses proc); gone says the driver left the runner's map.
type llDriver struct {
	key     llKey
	mu      sync.Mutex
	gone    bool
	lastUse time.Time // under the runner's mu
	crashes int       // under the runner's mu

	pmu  sync.Mutex // guards proc against stop() from Close
	proc *llProc
}

type llProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	resp   chan llResponse // closed when fd 3 closes
	exited <-chan struct{} // closed when the process was reaped
	out    *llOutput
	tmp    string
	nextID int

	removeReporter func() // the phases reporter's directory, in vitest's root
}

type llResponse struct {
	ID          int     `json:"id"`
	Type        string  `json:"type"`
	Exit        int     `json:"exit"`
	Invalidated int     `json:"invalidated"`
	Error       string  `json:"error"`
	Unsupported bool    `json:"unsupported"`
	Version     string  `json:"version"`
	Ms          float64 `json:"ms"`
	raw         string
}

func (p *llProc) path(name string) string { return filepath.Join(p.tmp, name) }

// stop kills the process group (the driver and every worker) and removes its files.
func (d *llDriver) stop() {
	d.pmu.Lock()
	p := d.proc
	d.proc = nil
	d.pmu.Unlock()
	if p == nil {
		return
	}
	_ = p.stdin.Close()
	_ = nodeproc.Kill(p.cmd)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
	}
	_ = nodeproc.Kill(p.cmd) // stragglers
	_ = os.RemoveAll(p.tmp)
	p.removeReporter()
}

// start launches the driver and waits for it to be ready (d.mu held).
func (d *llDriver) start(ctx context.Context, r *LongLivedRunner) (*llProc, error) {
	tmp, err := os.MkdirTemp(sbox.TempDirFor(d.key.cwd), "oracle-ll-")
	if err != nil {
		return nil, fmt.Errorf("runner: temp dir: %w", err)
	}
	p := &llProc{tmp: tmp, resp: make(chan llResponse, 16), out: &llOutput{}}
	fail := func(err error) (*llProc, error) {
		os.RemoveAll(tmp)
		return nil, err
	}
	script := p.path("oracle-ll-driver.mjs")
	if err := os.WriteFile(script, longLivedDriver, 0o644); err != nil {
		return fail(fmt.Errorf("runner: %w", err))
	}
	reporter, removeReporter, err := writeReporter(d.key.cwd, tmp) // in vitest's root, as for a fresh process
	if err != nil {
		return fail(err)
	}
	p.removeReporter = removeReporter
	fail = func(err error) (*llProc, error) {
		removeReporter()
		os.RemoveAll(tmp)
		return nil, err
	}
	args := []string{filepath.Dir(d.key.vitest), d.key.config, p.path("report.json"), reporter}
	env := vitestenv.For(d.key.cwd, tmp,
		ReachedEnv+"="+p.path("reached"), // the workers inherit it: the file is emptied before each run
		"ORACLE_PHASES="+p.path("phases.json"),
		ProgressEnv+"="+p.path("progress"),
	)
	if a := r.adopt(d.key.node, d.key.vitest, warmnode.Job{Script: script, Args: args, Cwd: d.key.cwd, Env: env, Out: p.out}); a != nil {
		p.cmd, p.stdin, p.exited = a.cmd, a.stdin, a.exited
		return d.started(ctx, r, p, a.fd3)
	}
	cmd := nodeproc.Command(nil, d.key.node, d.key.cwd, env, append([]string{script}, args...)...)
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = p.out, p.out // one pipe: the sentinel orders them
	rd, wr, err := os.Pipe()
	if err != nil {
		return fail(fmt.Errorf("runner: %w", err))
	}
	cmd.ExtraFiles = []*os.File{wr} // fd 3: the responses
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		rd.Close()
		wr.Close()
		return fail(fmt.Errorf("runner: %w", err))
	}
	if r.isClosed() {
		rd.Close()
		wr.Close()
		return fail(ErrClosed)
	}
	if err := cmd.Start(); err != nil {
		rd.Close()
		wr.Close()
		return fail(fmt.Errorf("runner: cannot start node: %w", err))
	}
	wr.Close()
	p.cmd = cmd
	exited := make(chan struct{})
	p.exited = exited
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return d.started(ctx, r, p, rd)
}

// started records the started (or adopted) driver p, whose responses come
// on rd, and waits for it to be ready.
func (d *llDriver) started(ctx context.Context, r *LongLivedRunner, p *llProc, rd io.ReadCloser) (*llProc, error) {
	_ = sbox.RecordProcessGroup(d.key.cwd, p.cmd.Process.Pid) // a SIGKILLed oracle's next run stops the group
	go readDriver(rd, p.resp)
	d.pmu.Lock()
	d.proc = p
	d.pmu.Unlock()
	r.mu.Lock()
	r.stats.Starts++
	r.mu.Unlock()
	return d.awaitReady(ctx, r, p)
}

// awaitReady waits for the started driver p to say it is ready, stopping it
// when it exits, fails, says anything else, ctx ends or start-up takes longer
// than r.StartTimeout (2 minutes by default).
func (d *llDriver) awaitReady(ctx context.Context, r *LongLivedRunner, p *llProc) (*llProc, error) {
	limit := r.StartTimeout
	if limit <= 0 {
		limit = 2 * time.Minute
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case m, ok := <-p.resp:
			switch {
			case !ok:
				<-waitOr(p.exited, 3*time.Second)
				d.stop()
				return nil, protoErr("the driver exited during start-up%s", lastLineNote(r.clean(d).line(p.out.String(), true)))
			case m.Type == "ready":
				return p, nil
			case m.Type == "fatal":
				d.stop()
				return nil, &llProtocolError{msg: "start-up: " + r.clean(d).line(m.Error, false), unsupported: m.Unsupported}
			default:
				d.stop()
				return nil, protoErr("unexpected start-up message %.200q", m.raw)
			}
		case <-ctx.Done():
			d.stop()
			return nil, ctx.Err()
		case <-timer.C:
			d.stop()
			return nil, &llProtocolError{msg: fmt.Sprintf("start-up took more than %s", limit), unsupported: true}
		}
	}
}

func (r *LongLivedRunner) clean(d *llDriver) *cleaner { return newCleaner(d.key.dir, d.key.cwd) }

func waitOr(ch <-chan struct{}, d time.Duration) <-chan struct{} {
	out := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-time.After(d):
		}
		close(out)
	}()
	return out
}

// once runs the test file one time on the (started if needed) process; timedOut reports
// that s.Timeout expired (the process is then killed). d.mu held.
func (d *llDriver) once(ctx context.Context, r *LongLivedRunner, s Spec, inv invocation) (res Result, timedOut bool, err error) {
	err = d.onProcess(ctx, r, func(p *llProc) (stale bool, err error) {
		res, timedOut, stale, err = d.request(ctx, r, p, s, inv)
		return stale, err
	})
	return res, timedOut, err
}

// onProcess calls do with the driver's process, started if needed; when do
// says the process is stale (the config changed under it), once more on a
// new one. d.mu held.
func (d *llDriver) onProcess(ctx context.Context, r *LongLivedRunner, do func(p *llProc) (stale bool, err error)) error {
	for restarts := 0; ; restarts++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		d.pmu.Lock()
		p := d.proc
		d.pmu.Unlock()
		if p == nil {
			var err error
			if p, err = d.start(ctx, r); err != nil {
				return err
			}
		}
		stale, err := do(p)
		if stale && restarts == 0 {
			d.stop()
			continue
		}
		if stale {
			return protoErr("the config keeps changing")
		}
		return err
	}
}

// send clears the run's files (report, phases, reached, progress) and
// writes request fields to the driver with a new id and sentinel, which it
// returns with the time it sent them.
func (d *llDriver) send(p *llProc, fields map[string]any) (id int, sentinel string, start time.Time, err error) {
	for _, f := range []string{p.path("report.json"), p.path("phases.json"), p.path("reached"), p.path("progress")} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, "", start, fmt.Errorf("runner: %w", err)
		}
	}
	p.nextID++
	id = p.nextID
	sentinel = "@@oracle-ll-" + randomHex() + "@@"
	p.out.Reset()
	fields["id"], fields["sentinel"] = id, sentinel
	req, _ := json.Marshal(fields)
	start = time.Now()
	if _, err := p.stdin.Write(append(req, '\n')); err != nil {
		d.stop()
		return 0, "", start, protoErr("cannot write to the driver: %v", err)
	}
	return id, sentinel, start, nil
}

func (d *llDriver) request(ctx context.Context, r *LongLivedRunner, p *llProc, s Spec, inv invocation) (res Result, timedOut, stale bool, err error) {
	reportPath, phasesPath, reachedPath := p.path("report.json"), p.path("phases.json"), p.path("reached")
	id, sentinel, start, err := d.send(p, map[string]any{"file": inv.testAbs})
	if err != nil {
		return res, false, false, err
	}
	wd := watch(s, p.path("progress"))
	defer wd.stop()
	timeout := wd.Done
	var m llResponse
wait:
	for {
		select {
		case msg, ok := <-p.resp:
			if !ok {
				<-waitOr(p.exited, 3*time.Second)
				out := p.out.String()
				d.stop()
				return res, false, false, protoErr("the driver exited during a run%s", lastLineNote(r.clean(d).line(out, true)))
			}
			if msg.ID != id {
				d.stop()
				return res, false, false, protoErr("unexpected message %.200q", msg.raw)
			}
			m = msg
			break wait
		case <-ctx.Done():
			d.stop()
			return res, false, false, ctx.Err()
		case <-timeout:
			res.Duration = time.Since(start)
			d.stop() // the whole group: a worker spinning in a loop must not outlive the run
			res.TimedOut = true
			res.ExitCode = -1
			res.Note = timeoutDetail(s, res.Duration)
			res.readMarkers(reachedPath, s.ReachedMarker)
			return res, true, false, nil
		}
	}
	res.Duration = time.Since(start)
	ev := evidence{rel: filepath.ToSlash(s.TestFile), clean: inv.clean}
	switch m.Type {
	case "done":
		ev.exitCode = m.Exit
		ev.report, _ = os.ReadFile(reportPath)
		ev.phases, _ = os.ReadFile(phasesPath)
		r.mu.Lock()
		r.stats.Invalidated += m.Invalidated
		r.mu.Unlock()
	case "nomatch":
		// `vitest run` writes an empty report and exits 1 (no test files found).
		ev.exitCode = 1
		ev.report = []byte(`{"numTotalTests":0,"success":false,"testResults":[]}`)
	case "stale":
		return res, false, true, nil
	case "unsupported":
		// Nothing ran, and the process stays: this one file runs in a fresh process.
		return res, false, false, &llRunRefused{msg: m.Error}
	case "error":
		d.stop()
		return res, false, false, protoErr("the run threw: %s", r.clean(d).line(m.Error, false))
	default:
		d.stop()
		return res, false, false, protoErr("unexpected message %.200q", m.raw)
	}
	ev.output = p.out.waitFor(sentinel, 2*time.Second)
	ev.testAbs = []string{inv.testAbs}
	if rp, err := filepath.EvalSymlinks(inv.testAbs); err == nil && rp != inv.testAbs {
		ev.testAbs = append(ev.testAbs, rp)
	}
	dur := res.Duration
	res = read(ev)
	res.Duration = dur
	res.readMarkers(reachedPath, s.ReachedMarker)
	return res, false, false, nil
}

func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// llOutput is the process's stdout+stderr since the last Reset, capped like tailBuffer.
type llOutput struct {
	mu  sync.Mutex
	buf []byte
}

func (o *llOutput) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, b...)
	if len(o.buf) > 2*outputCap {
		o.buf = append([]byte(nil), o.buf[len(o.buf)-outputCap:]...)
	}
	return len(b), nil
}

func (o *llOutput) Reset() {
	o.mu.Lock()
	o.buf = nil
	o.mu.Unlock()
}

func (o *llOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return string(o.buf)
}

// waitFor waits (at most d) for the sentinel line and returns the output before it.
func (o *llOutput) waitFor(sentinel string, d time.Duration) string {
	deadline := time.Now().Add(d)
	for {
		s := o.String()
		if i := strings.Index(s, sentinel); i >= 0 {
			return s[:i]
		}
		if time.Now().After(deadline) {
			return s
		}
		time.Sleep(5 * time.Millisecond)
	}
}
