//go:build unix

package warmnode

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func node(t *testing.T) string {
	t.Helper()
	n, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	return n
}

// first is a first job: it sets a global and an environment variable of
// its own, keeps the process.argv it saw (as a module it imports may: cac,
// vitest's CLI parser, does), answers on fd 3 and waits (Tail).
const first = `
import { writeSync } from "node:fs";
globalThis.firstJob = true;
globalThis.argvSeenByFirst = process.argv;
process.env.SET_BY_FIRST = "1";
writeSync(3, JSON.stringify({ argv: process.argv.slice(2) }) + "\n");
` + Tail

// second reports what a fresh process would see, on fd 3 (the caller's
// responses now) and on stdout.
const second = `
import { writeSync } from "node:fs";
import { tmpdir } from "node:os";
console.log("printed by the second job");
writeSync(3, JSON.stringify({
  cwd: process.cwd(), argv: process.argv.slice(2), execArgv: process.execArgv, tmp: tmpdir(),
  only: process.env.ONLY_FIRST ?? null, setByFirst: process.env.SET_BY_FIRST ?? null, mine: process.env.MINE ?? null,
  global: globalThis.firstJob ?? null, kept: globalThis.argvSeenByFirst.slice(2),
}) + "\n");
`

func scripts(t *testing.T) (dir, a, b string) {
	dir = t.TempDir()
	a, b = filepath.Join(dir, "first.mjs"), filepath.Join(dir, "second.mjs")
	if err := os.WriteFile(a, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, a, b
}

// The second job sees its own working directory, environment (nothing of
// the first's left), argv and node arguments (none), and writes where the
// new owner reads; what the first job's modules set in the process itself
// (a global) is all that stays.
func TestBecome(t *testing.T) {
	n := node(t)
	dir, a, b := scripts(t)
	p, err := Start(n, dir, dir, append(os.Environ(), "ONLY_FIRST=1"), a, "x", "y")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	line, _, err := p.Answer(time.Hour, nil)
	if err != nil || string(line) != `{"argv":["x","y"]}` {
		t.Fatalf("answer %q, %v", line, err)
	}
	cwd, tmp := t.TempDir(), t.TempDir()
	var out bytes.Buffer
	cmd, stdin, rd, exited, err := p.Become(Job{Script: b, Args: []string{"a1"}, Cwd: cwd, Env: []string{"PATH=" + os.Getenv("PATH"), "MINE=2", "TMPDIR=" + tmp}, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var got struct {
		Cwd, Tmp         string
		Argv, ExecArgv   []string
		Kept             []string
		Only, SetByFirst *string
		Mine             string
		Global           *bool
	}
	if err := json.NewDecoder(rd).Decode(&got); err != nil {
		t.Fatal(err)
	}
	<-exited
	if !cmd.ProcessState.Success() {
		t.Errorf("the second job's exit: %v", cmd.ProcessState)
	}
	if got.Cwd != cwd || got.Tmp != tmp || !slices.Equal(got.Argv, []string{"a1"}) || len(got.ExecArgv) != 0 {
		t.Errorf("cwd %s (want %s), tmp %s (want %s), argv %v, execArgv %v", got.Cwd, cwd, got.Tmp, tmp, got.Argv, got.ExecArgv)
	}
	if !slices.Equal(got.Kept, []string{"a1"}) {
		t.Errorf("the argv a module of the first job kept is %v: a CLI it imported would parse the first job's arguments", got.Kept)
	}
	if got.Only != nil || got.SetByFirst != nil || got.Mine != "2" {
		t.Errorf("environment: the first's %v, set by the first %v, the second's %q", got.Only, got.SetByFirst, got.Mine)
	}
	if got.Global == nil || !*got.Global {
		t.Errorf("the first job's global is gone: the second did not run in the same process")
	}
	if !strings.Contains(out.String(), "printed by the second job") {
		t.Errorf("the second job's stdout went elsewhere: %q", out.String())
	}
	if _, _, _, _, err := p.Become(Job{Script: b, Cwd: cwd}); err == nil {
		t.Error("a process became a third job")
	}
	p.Kill() // a no-op: it is the caller's
}

// A first job that exits without answering: Answer returns its exit error
// and what it printed, as exec would.
func TestNoAnswer(t *testing.T) {
	n := node(t)
	dir := t.TempDir()
	s := filepath.Join(dir, "fails.mjs")
	os.WriteFile(s, []byte(`console.error("config must export an object"); process.exit(3);`), 0o644)
	p, err := Start(n, dir, dir, os.Environ(), s)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	_, printed, err := p.Answer(time.Hour, nil)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(printed), "config must export an object") {
		t.Fatalf("answer: %v, printed %q", err, printed)
	}
}

// A closed stop ends the wait for the answer at once, and the process
// with it (a terminal's Ctrl-C does not reach its process group).
func TestStopped(t *testing.T) {
	n := node(t)
	dir := t.TempDir()
	s := filepath.Join(dir, "slow.mjs")
	os.WriteFile(s, []byte(`setTimeout(() => {}, 60_000);`), 0o644)
	p, err := Start(n, dir, dir, os.Environ(), s)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	time.AfterFunc(100*time.Millisecond, func() { close(stop) })
	// ErrStopped, not Answer's own time-out: the stop ended the wait (no
	// assertion on the time it took, which a loaded machine stretches).
	if _, _, err := p.Answer(time.Hour, stop); !errors.Is(err, ErrStopped) {
		t.Fatalf("answer: %v", err)
	}
	if err := syscall.Kill(p.Pid(), 0); err == nil {
		t.Errorf("process %d still runs", p.Pid())
	}
}

// Kill ends the waiting process and whatever it started; the end of its
// stdin (its owner gone) ends it too.
func TestKillAndStdinEnd(t *testing.T) {
	n := node(t)
	dir, a, _ := scripts(t)
	for _, how := range []string{"kill", "stdin"} {
		p, err := Start(n, dir, dir, os.Environ(), a)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Answer(time.Hour, nil); err != nil {
			t.Fatal(err)
		}
		pid := p.Pid()
		if how == "kill" {
			p.Kill()
		} else {
			p.stdin.Close()
			<-p.exited // the end of stdin ends the process (a hang is go test's -timeout)
			p.Kill()
		}
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("%s: process %d still runs", how, pid)
		}
		if _, _, _, _, err := p.Become(Job{Script: a, Cwd: dir}); err == nil {
			t.Errorf("%s: a killed process became a second job", how)
		}
	}
}
