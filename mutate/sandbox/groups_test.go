//go:build linux

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/oracle-ts/oracle/internal/testenv"
)

// gone reports whether pid has exited (a zombie nobody reaps counts).
func gone(pid int) bool { return testenv.Gone(pid) }

// waitGone waits until pid is gone, without a deadline of its own (one that
// never goes is go test's -timeout, naming the test: testenv.Await).
func waitGone(pid int) {
	testenv.Await(func() bool { return gone(pid) })
}

// TestSweepStopsDeadRunsProcesses: a SIGKILLed oracle leaves vitest (the
// leader of its process group) and its workers running; the sweep stops
// the recorded groups of a dead owner's sandbox: the leader's whole group,
// and of a group whose leader exited, the members working inside the
// sandbox. A recorded group whose leader's pid now names another process
// (start time differs) working elsewhere is left alone.
func TestSweepStopsDeadRunsProcesses(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	tmp := t.TempDir()
	done := exec.Command(os.Args[0], "-test.run=^$")
	must(t, done.Run())
	dir := filepath.Join(tmp, Prefix+"killed")
	root := filepath.Join(dir, "repo")
	must(t, os.MkdirAll(root, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, ownerFile), []byte(fmt.Sprintf("pid %d\n", done.Process.Pid)), 0o644))

	start := func(cwd string, name string, args ...string) *exec.Cmd {
		cmd := exec.Command(name, args...)
		cmd.Dir = cwd
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
	}
	// The driver: a group leader working in the sandbox.
	leader := start(root, "sleep", "300")
	must(t, leader.Start())
	defer leader.Process.Kill()
	must(t, RecordProcessGroup(root, leader.Process.Pid))
	exited := make(chan struct{})
	go func() { leader.Wait(); close(exited) }()

	// A worker whose leader exited: it lives on in the group.
	sh := start(root, "sh", "-c", "sleep 300 & echo $!")
	out, err := sh.StdoutPipe()
	must(t, err)
	must(t, sh.Start())
	must(t, RecordProcessGroup(root, sh.Process.Pid))
	line, err := bufio.NewReader(out).ReadString('\n')
	must(t, err)
	sh.Wait()
	worker, err := strconv.Atoi(strings.TrimSpace(line))
	must(t, err)
	defer syscall.Kill(worker, syscall.SIGKILL)

	// A process elsewhere whose pid the record names with another start
	// time: pid reuse; it must survive.
	other := start(t.TempDir(), "sleep", "300")
	must(t, other.Start())
	defer other.Process.Kill()
	f, err := os.OpenFile(filepath.Join(dir, groupsFile), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	fmt.Fprintf(f, "group %d 1\n", other.Process.Pid)
	f.Close()

	removed, err := SweepStale(tmp, 0)
	must(t, err)
	if len(removed) != 1 || removed[0] != dir {
		t.Errorf("removed %v", removed)
	}
	<-exited         // the group leader (the long-lived vitest) ends after the sweep
	waitGone(worker) // the worker of an exited leader ends after the sweep
	if gone(other.Process.Pid) {
		t.Error("the sweep killed a process that reused a recorded pid")
	}
}

// TestRecordProcessGroupOutside: a path in no sandbox records nothing.
func TestRecordProcessGroupOutside(t *testing.T) {
	dir := t.TempDir()
	must(t, RecordProcessGroup(dir, os.Getpid()))
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%v", entries)
	}
}
