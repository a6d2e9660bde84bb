package runner

import (
	"bufio"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/internal/nodeproc"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

//go:embed jest_driver.cjs
var jestDriver []byte

// JestLongLived runs jest's tests as JestRunner does (the same command line, test
// environment, report and markers, read by the same code), in one long-lived jest process
// per (package dir, jest, config, node): jest_driver.cjs keeps the repository's jest loaded
// and calls its runCLI once per run, in band, so a gate pays jest's start-up (and ts-jest's
// compiler) once per sandbox instead of once per mutant. A process that cannot start (a jest
// without runCLI), a run that throws and a process that dies during a run hand that run to
// the fresh JestRunner: never a different outcome, only a slower one. A time-out kills the
// process (and what its tests started); the next run starts a new one.
//
// Runs on one process are serialized; Close (or CloseDir) stops the processes: the runner
// must be closed.
type JestLongLived struct {
	// Fresh prepares every run (jest, its config, the environments) and runs what the
	// long-lived process cannot.
	Fresh *JestRunner
	// MaxRuns restarts a process after that many runs (jest's memory grows); 0 = 200.
	MaxRuns int
	// StartTimeout bounds a process's start-up; 0 = 2 minutes.
	StartTimeout time.Duration
	// OnFallback, when set, hears of every run handed to Fresh and why.
	OnFallback func(s Spec, reason string)

	mu     sync.Mutex
	procs  map[jestKey]*jestDriverProc
	failed map[jestKey]string // why a key's process cannot serve: its runs are fresh ones
	closed bool
}

// NewJestLongLived returns the long-lived jest runner.
func NewJestLongLived() *JestLongLived { return &JestLongLived{Fresh: NewJest()} }

type jestKey struct{ dir, cwd, jest, config, node string }

// jestDriverProc is one key's process; mu serializes its runs.
type jestDriverProc struct {
	mu     sync.Mutex
	key    jestKey
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	resp   chan llResponse // closed when fd 3 closes
	exited chan struct{}
	out    *llOutput
	tmp    string
	files  runFiles
	env    string // the test environment file (jest_env.cjs)
	runs   int
}

// Batches is false, as JestRunner's.
func (r *JestLongLived) Batches() bool { return false }

// PrepareMutant is JestRunner's.
func (r *JestLongLived) PrepareMutant(path string, src []byte) []byte {
	return r.Fresh.PrepareMutant(path, src)
}

// Run runs s.TestFile in its key's process (started when needed). A first time-out is run
// again once, as JestRunner's.
func (r *JestLongLived) Run(ctx context.Context, s Spec) (Result, error) {
	inv, err := r.Fresh.prepare(ctx, s)
	if err != nil {
		return Result{}, err
	}
	if s.ReachedMarker != "" || s.Coverage {
		if err := checkMarkerSupport(ctx, inv.node); err != nil {
			return Result{}, err
		}
	}
	key := jestKey{dir: filepath.Clean(s.Dir), cwd: inv.cwd, jest: inv.jest, config: inv.config, node: inv.node}
	p, why := r.acquire(key)
	if p == nil {
		if why == "" {
			return Result{}, ErrClosed
		}
		return r.fallback(ctx, s, why)
	}
	defer p.mu.Unlock()
	res, err := retryOnce(s, func() (Result, bool, error) { return r.once(ctx, p, s, inv) })
	if pe := r.unserved(key, err); pe != nil {
		return r.fallback(ctx, s, pe.msg)
	}
	return res, err
}

// unserved is err when the driver could not serve the run (an *llProtocolError), nil
// otherwise; when the driver says it cannot serve this jest at all, key's runs are fresh
// ones from then on.
func (r *JestLongLived) unserved(key jestKey, err error) *llProtocolError {
	var pe *llProtocolError
	if !errors.As(err, &pe) {
		return nil
	}
	if pe.unsupported {
		r.mu.Lock()
		r.failed[key] = pe.msg
		r.mu.Unlock()
	}
	return pe
}

func (r *JestLongLived) fallback(ctx context.Context, s Spec, reason string) (Result, error) {
	if r.OnFallback != nil {
		r.OnFallback(s, reason)
	}
	return r.Fresh.Run(ctx, s)
}

// acquire returns key's process, locked (not started yet when new), or nil and why its
// runs are fresh ones ("" once the runner is closed).
func (r *JestLongLived) acquire(key jestKey) (*jestDriverProc, string) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, ""
	}
	if why, ok := r.failed[key]; ok {
		r.mu.Unlock()
		return nil, why
	}
	if r.procs == nil {
		r.procs, r.failed = map[jestKey]*jestDriverProc{}, map[jestKey]string{}
	}
	p := r.procs[key]
	if p == nil {
		p = &jestDriverProc{key: key}
		r.procs[key] = p
	}
	r.mu.Unlock()
	p.mu.Lock()
	return p, ""
}

// once is one run on p (p.mu held), started when it is not running.
func (r *JestLongLived) once(ctx context.Context, p *jestDriverProc, s Spec, inv jestInvocation) (res Result, timedOut bool, err error) {
	if err := r.ready(ctx, p, inv); err != nil {
		return res, false, err
	}
	p.runs++
	args := jestArgs(s, inv, p.files.report, p.env, jestCache(p.key.cwd), r.Fresh.ExtraArgs)[1:]
	sentinel, start, err := p.send(args)
	if err != nil {
		return res, false, err
	}
	return p.await(ctx, s, inv, start, sentinel)
}

// ready starts p's process (p.mu held) when it is not running, or has served MaxRuns.
func (r *JestLongLived) ready(ctx context.Context, p *jestDriverProc, inv jestInvocation) error {
	if p.cmd != nil && p.runs >= cmp.Or(r.MaxRuns, 200) {
		p.stop()
	}
	if p.cmd == nil {
		return r.start(ctx, p, inv)
	}
	return nil
}

// send asks p for run p.runs of jest's command line args (after jest.js), its files of the
// last run removed.
func (p *jestDriverProc) send(args []string) (sentinel string, start time.Time, err error) {
	for _, f := range []string{p.files.report, p.files.phases, p.files.reached, p.files.progress} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", start, fmt.Errorf("runner: %w", err)
		}
	}
	sentinel = "@@oracle-jest-" + randomHex() + "@@"
	p.out.Reset()
	req, _ := json.Marshal(map[string]any{"id": p.runs, "args": args, "sentinel": sentinel})
	start = time.Now()
	if _, err := p.stdin.Write(append(req, '\n')); err != nil {
		p.stop()
		return "", start, protoErr("cannot write to the jest driver: %v", err)
	}
	return sentinel, start, nil
}

// await waits for p's answer to run id p.runs, or for s's watchdog (the process is then
// killed: a loop in a test must not outlive the run), and reads the run of one file.
func (p *jestDriverProc) await(ctx context.Context, s Spec, inv jestInvocation, start time.Time, sentinel string) (res Result, timedOut bool, err error) {
	m, took, err := p.wait(ctx, s, inv, start)
	if err != nil {
		return res, false, err
	}
	if m == nil { // the watchdog's
		res.Duration = took
		res.TimedOut, res.ExitCode, res.Note = true, -1, timeoutDetail(s, res.Duration)
		res.readMarkers(p.files.reached, s.ReachedMarker)
		return res, true, nil
	}
	ev := evidence{output: p.out.waitFor(sentinel, 2*time.Second), rel: filepath.ToSlash(s.TestFile), clean: inv.clean, jest: true, exitCode: m.Exit}
	ev.testAbs = []string{inv.testAbs}
	if rp, err := filepath.EvalSymlinks(inv.testAbs); err == nil && rp != inv.testAbs {
		ev.testAbs = append(ev.testAbs, rp)
	}
	ev.report, _ = os.ReadFile(p.files.report)
	ev.phases, _ = os.ReadFile(p.files.phases)
	res = read(ev)
	res.Duration = took
	res.readMarkers(p.files.reached, s.ReachedMarker)
	return res, false, nil
}

// wait waits for p's answer to run id p.runs: its "done", or nil (and no error) when s's
// watchdog ended the run first (the process is killed: a loop in a test must not outlive
// the run). took is the run's time.
func (p *jestDriverProc) wait(ctx context.Context, s Spec, inv jestInvocation, start time.Time) (done *llResponse, took time.Duration, err error) {
	wd := watch(s, p.files.progress)
	defer wd.stop()
	var m llResponse
	select {
	case msg, ok := <-p.resp:
		if !ok {
			<-waitOr(p.exited, 3*time.Second)
			out := p.out.String()
			p.stop()
			return nil, 0, protoErr("the jest driver exited during a run%s", lastLineNote(inv.clean.line(out, true)))
		}
		m = msg
	case <-ctx.Done():
		p.stop()
		return nil, 0, ctx.Err()
	case <-wd.Done:
		took = time.Since(start)
		p.stop()
		return nil, took, nil
	}
	took = time.Since(start)
	switch {
	case m.Type == "done" && m.ID == p.runs:
		return &m, took, nil
	case m.Type == "error" && m.ID == p.runs:
		return nil, took, &llProtocolError{msg: "the jest run threw: " + inv.clean.line(m.Error, false), unsupported: m.Unsupported}
	default:
		p.stop()
		return nil, took, protoErr("unexpected message from the jest driver %.200q", m.raw)
	}
}

// start launches p's driver (p.mu held) and waits for it to be ready.
func (r *JestLongLived) start(ctx context.Context, p *jestDriverProc, inv jestInvocation) error {
	tmp, err := os.MkdirTemp(sbox.TempDirFor(p.key.cwd), "oracle-jest-ll-")
	if err != nil {
		return fmt.Errorf("runner: temp dir: %w", err)
	}
	p.tmp, p.files, p.out, p.runs = tmp, filesIn(tmp), &llOutput{}, 0
	script := filepath.Join(tmp, "oracle-jest-driver.cjs")
	if err := os.WriteFile(script, jestDriver, 0o644); err != nil {
		p.stop()
		return fmt.Errorf("runner: %w", err)
	}
	if p.env, err = writeJestFiles(tmp); err != nil {
		p.stop()
		return err
	}
	env := jestRunEnv(inv, tmp, p.files)
	cmd := nodeproc.Command(nil, inv.node, inv.cwd, env, script, inv.jest)
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = p.out, p.out
	rd, wr, err := os.Pipe()
	if err != nil {
		p.stop()
		return fmt.Errorf("runner: %w", err)
	}
	cmd.ExtraFiles = []*os.File{wr} // fd 3: the responses
	if p.stdin, err = cmd.StdinPipe(); err == nil {
		err = cmd.Start()
	}
	wr.Close()
	if err != nil {
		rd.Close()
		p.stop()
		return fmt.Errorf("runner: cannot start node: %w", err)
	}
	_ = sbox.RecordProcessGroup(inv.cwd, cmd.Process.Pid) // a SIGKILLed oracle's next run stops the group
	p.cmd, p.resp, p.exited = cmd, make(chan llResponse, 4), make(chan struct{})
	go func(exited chan struct{}) {
		_ = cmd.Wait()
		close(exited)
	}(p.exited)
	go readDriver(rd, p.resp)
	return p.awaitReady(ctx, cmp.Or(r.StartTimeout, 2*time.Minute), inv)
}

// awaitReady waits for the started driver's "ready".
func (p *jestDriverProc) awaitReady(ctx context.Context, limit time.Duration, inv jestInvocation) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case m, ok := <-p.resp:
		switch {
		case ok && m.Type == "ready":
			return nil
		case !ok:
			<-waitOr(p.exited, 3*time.Second)
			out := p.out.String()
			p.stop()
			return &llProtocolError{msg: "the jest driver exited during start-up" + lastLineNote(inv.clean.line(out, true)), unsupported: true}
		default:
			p.stop()
			return &llProtocolError{msg: "jest driver start-up: " + inv.clean.line(m.Error+m.raw, false), unsupported: true}
		}
	case <-ctx.Done():
		p.stop()
		return ctx.Err()
	case <-timer.C:
		p.stop()
		return &llProtocolError{msg: fmt.Sprintf("the jest driver's start-up took more than %s", limit), unsupported: true}
	}
}

// readDriver passes a long-lived driver's responses (a JSON line each on fd 3: vitest's and
// jest's drivers) to resp and closes it at the pipe's end; a line that is no response is
// "garbage".
func readDriver(rd io.ReadCloser, resp chan<- llResponse) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var m llResponse
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Type == "" {
			m = llResponse{Type: "garbage"}
		}
		m.raw = string(sc.Bytes())
		resp <- m
	}
	rd.Close()
	close(resp)
}

// stop kills p's process group and removes its files (p.mu held, or Close's).
func (p *jestDriverProc) stop() {
	if p.cmd != nil {
		_ = p.stdin.Close()
		_ = nodeproc.Kill(p.cmd)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
		}
		_ = nodeproc.Kill(p.cmd) // stragglers
		p.cmd = nil
	}
	if p.tmp != "" {
		_ = os.RemoveAll(p.tmp)
		p.tmp = ""
	}
}

// CloseDir stops the processes of the repository dir (a sandbox being removed).
func (r *JestLongLived) CloseDir(dir string) {
	dir = filepath.Clean(dir)
	r.mu.Lock()
	var stop []*jestDriverProc
	for k, p := range r.procs {
		if k.dir == dir {
			stop = append(stop, p)
			delete(r.procs, k)
		}
	}
	r.mu.Unlock()
	for _, p := range stop {
		p.mu.Lock()
		p.stop()
		p.mu.Unlock()
	}
}

// Close stops every process and waits for them; later runs are fresh ones.
func (r *JestLongLived) Close() error {
	r.mu.Lock()
	r.closed = true
	procs := r.procs
	r.procs = nil
	r.mu.Unlock()
	for _, p := range procs {
		p.mu.Lock()
		p.stop()
		p.mu.Unlock()
	}
	return nil
}
