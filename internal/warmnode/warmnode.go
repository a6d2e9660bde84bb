// Package warmnode lets a node process that has done one job do a second
// instead of exiting. testsuite's config probe spends most of its time
// starting node and importing vitest's node API (about 0.2 of its 0.27 CPU
// seconds); the runner's long-lived driver for a sandbox would spend the same
// again. With a Proc, the probe's process, its answer given, waits; the
// driver becomes that process (Become) and finds the API already imported.
//
// The second job runs as a fresh process would: its own working directory,
// its environment (the whole of it replaced), its argv, its stdout and
// stderr; the first job's vitest instance was closed. What stays is node
// itself and the modules the first job imported (the same files: the caller
// adopts a Proc only for the same node binary and vitest package).
//
// The protocol: the first job's script (file, not -e: vitest hands
// process.execArgv to its workers) writes its answer as one line on fd 3 and
// ends with Tail, which reads one JSON line on stdin naming the next job
// ({"script", "args", "cwd", "env"}) and imports the script, or exits at the
// end of stdin. The process is in a process group of its own from the start.
package warmnode

import (
	"bufio"
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
)

// Tail ends a first job's script (an ES module): it waits for the next job.
const Tail = `
{
  const { createInterface } = await import("node:readline");
  const { pathToFileURL } = await import("node:url");
  const rl = createInterface({ input: process.stdin });
  const line = await new Promise((resolve) => {
    rl.once("line", resolve);
    rl.once("close", () => resolve(null));
  });
  rl.close();
  if (line === null) process.exit(0);
  const job = JSON.parse(line);
  for (const k of Object.keys(process.env)) delete process.env[k];
  for (const kv of job.env) {
    const i = kv.indexOf("=");
    if (i > 0) process.env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  process.chdir(job.cwd);
  // In place: a module imported by the first job may hold the array
  // (cac, vitest's CLI parser, reads the process.argv it saw at import).
  process.argv.splice(0, process.argv.length, process.argv[0], job.script, ...job.args);
  await import(pathToFileURL(job.script).href);
}
`

// Proc is a started node process doing its first job, or waiting for its
// second. Whoever holds it either adopts it (Become) or Kills it.
type Proc struct {
	// Node is the real path of the node binary; Vitest the real path of the
	// vitest package whose node API the first job imported.
	Node, Vitest string

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	fd3    *os.File
	resp   *bufio.Reader
	out    *switchWriter
	exited chan struct{}

	mu     sync.Mutex
	become bool // Become was called: the process is the caller's now
}

// Start starts node on script (args after it) in dir with env, in a process
// group of its own, its stdout and stderr kept until Answer or Become.
func Start(node, vitest, dir string, env []string, script string, args ...string) (*Proc, error) {
	p := &Proc{Node: real(node), Vitest: real(vitest), out: &switchWriter{}, exited: make(chan struct{})}
	cmd := nodeproc.Command(nil, node, dir, env, append([]string{script}, args...)...)
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = p.out, p.out
	rd, wr, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{wr}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		rd.Close()
		wr.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		rd.Close()
		wr.Close()
		return nil, err
	}
	wr.Close()
	p.cmd, p.fd3, p.resp = cmd, rd, bufio.NewReaderSize(rd, 64<<10)
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// ErrStopped: Answer's stop was closed first (the caller was interrupted);
// the process was killed.
var ErrStopped = errors.New("warmnode: stopped before the answer")

// Answer is the first job's answer: its line on fd 3. When the process
// exits without one, Answer waits for it and returns the error of its exit
// (an *exec.ExitError, or nil for exit 0) with everything it printed on
// stdout and stderr, as exec.Cmd.Output and its Stderr would. A closed
// stop (nil: never) kills the process and returns ErrStopped: it is in a
// process group of its own, so a terminal's Ctrl-C does not reach it.
func (p *Proc) Answer(timeout time.Duration, stop <-chan struct{}) (line []byte, printed []byte, err error) {
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		l, err := p.resp.ReadBytes('\n')
		got <- read{l, err}
	}()
	select {
	case r := <-got:
		if r.err == nil {
			return r.line[:len(r.line)-1], p.out.taken(), nil
		}
		<-p.exited
		return nil, p.out.taken(), exitError(p.cmd)
	case <-time.After(timeout):
		p.Kill()
		return nil, p.out.taken(), fmt.Errorf("no answer in %s", timeout)
	case <-stop:
		p.Kill()
		return nil, p.out.taken(), ErrStopped
	}
}

func exitError(cmd *exec.Cmd) error {
	if cmd.ProcessState == nil {
		return errors.New("node did not exit")
	}
	if cmd.ProcessState.Success() {
		return nil
	}
	return &exec.ExitError{ProcessState: cmd.ProcessState}
}

// Job is the second job: script with args, in cwd, with env (the whole of
// it), stdout and stderr to out.
type Job struct {
	Script string
	Args   []string
	Cwd    string
	Env    []string
	Out    io.Writer
}

// Become hands the process the second job. From then on the caller owns it:
// cmd (already started and waited for: Exited says when it ended, never
// call Wait), stdin, and fd 3 (responses), whose buffered reader is passed
// on as it is.
func (p *Proc) Become(j Job) (cmd *exec.Cmd, stdin io.WriteCloser, fd3 io.ReadCloser, exited <-chan struct{}, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.become {
		return nil, nil, nil, nil, errors.New("warmnode: the process already has its second job")
	}
	select {
	case <-p.exited:
		return nil, nil, nil, nil, errors.New("warmnode: the process exited")
	default:
	}
	msg, err := json.Marshal(map[string]any{"script": j.Script, "args": j.Args, "cwd": j.Cwd, "env": j.Env})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	p.out.set(j.Out)
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("warmnode: %w", err)
	}
	p.become = true
	return p.cmd, p.stdin, readCloser{p.resp, p.fd3}, p.exited, nil
}

// Kill ends the process and its group unless Become gave it away.
func (p *Proc) Kill() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.become {
		return
	}
	p.become = true // nobody adopts a killed process
	_ = p.stdin.Close()
	_ = nodeproc.Kill(p.cmd)
	<-p.exited
	p.fd3.Close()
}

// Fits says whether the process is node binary node that imported the
// vitest package in directory vitest (compared by real path): whether a
// job for them may become it.
func (p *Proc) Fits(node, vitest string) bool {
	return p.Node == real(node) && p.Vitest == real(vitest)
}

// Pid is the process's id (a caller records its group).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// switchWriter keeps what is written until set gives it a writer of its own.
type switchWriter struct {
	mu  sync.Mutex
	buf []byte
	w   io.Writer
}

func (s *switchWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w != nil {
		return s.w.Write(b)
	}
	s.buf = append(s.buf, b...)
	return len(b), nil
}

// taken returns what was kept and forgets it.
func (s *switchWriter) taken() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buf
	s.buf = nil
	return b
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w == nil {
		w = io.Discard
	}
	s.buf, s.w = nil, w
}

func real(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
