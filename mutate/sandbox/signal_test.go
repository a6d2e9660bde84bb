//go:build unix

package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "ORACLE_SANDBOX_HELPER"

// TestHelperProcess is not a test: run by the interrupt tests as a child
// process, it makes a sandbox of $ORACLE_SANDBOX_REPO with the signal handler
// installed, writes mutants, prints the sandbox directory and "ready", and
// waits to be signalled.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process of the interrupt tests")
	}
	// As cmd/oracle does: an interrupt or a termination ends the run, the
	// sandboxes are closed (CloseAll), and the process exits 130 or 143.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	s, err := New(os.Getenv("ORACLE_SANDBOX_REPO"), Options{TempDir: os.Getenv("ORACLE_SANDBOX_TMP")})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
	for _, rel := range []string{"src/util.ts", "packages/core/src/x.ts", "src/readonly.ts", "ro/file.ts", "src/added/new.ts"} {
		if err := s.WriteFile(rel, []byte("mutant of "+rel)); err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
	}
	// A vite cache, as a test run leaves it.
	os.MkdirAll(filepath.Join(s.Root, "node_modules/.vite/vitest"), 0o755)
	fmt.Println("dir", s.Dir())
	fmt.Println("ready")
	code := 130
	if <-sig == syscall.SIGTERM {
		code = 143
	}
	if err := CloseAll(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
	}
	os.Exit(code)
}

// startHelper starts TestHelperProcess on the fixture and returns once it is
// ready, with the sandbox directory it made.
func startHelper(t *testing.T, f *fixture, tmp string) (*exec.Cmd, string, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "ORACLE_SANDBOX_REPO="+f.repo, "ORACLE_SANDBOX_TMP="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var dir string
	// No deadline of its own: a helper that never gets ready is go test's
	// -timeout, naming the test (a loaded machine makes any cap too short).
	for {
		line, ok := <-lines
		if !ok {
			t.Fatalf("helper exited before ready; stderr:\n%s", stderr.String())
		}
		if d, ok := strings.CutPrefix(line, "dir "); ok {
			dir = d
		}
		if strings.HasPrefix(line, "error:") {
			t.Fatal(line)
		}
		if line == "ready" {
			go func() { // drain
				for range lines {
				}
			}()
			return cmd, dir, &stderr
		}
	}
}

func TestInterruptRemovesSandbox(t *testing.T) {
	tests := []struct {
		name   string
		sig    syscall.Signal
		status int // -1: killed, the sandbox stays until SweepStale
	}{
		{"SIGINT", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
		{"SIGKILL", syscall.SIGKILL, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tmp := filepath.Join(f.base, "tmp")
			must(t, os.Mkdir(tmp, 0o755))
			before := hashTree(t, f.repo)
			cmd, dir, stderr := startHelper(t, f, tmp)
			if dir == "" || !strings.HasPrefix(dir, tmp) {
				t.Fatalf("helper reported sandbox %q", dir)
			}
			if got := readFile(t, filepath.Join(dir, filepath.Base(f.repo), "node_modules/@acme/core/src/x.ts")); got != "mutant of packages/core/src/x.ts" {
				t.Fatalf("mutant not in the sandbox: %q", got)
			}
			must(t, cmd.Process.Signal(tt.sig))
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.status {
				t.Fatalf("exit: %v, want status %d; stderr:\n%s", err, tt.status, stderr)
			}
			if tt.status == -1 {
				if _, err := os.Lstat(dir); err != nil {
					t.Fatalf("SIGKILL: the sandbox is already gone (%v): the test proves nothing", err)
				}
				removed, err := SweepStale(tmp, 0)
				must(t, err)
				if !slices.Equal(removed, []string{dir}) {
					t.Errorf("SweepStale removed %v, want [%s]", removed, dir)
				}
			}
			if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s is still there (err %v)", dir, err)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
				t.Errorf("left in %s: %v", tmp, entries)
			}
			if after := hashTree(t, f.repo); after != before {
				t.Error("the checkout changed")
			}
		})
	}
}

func TestSweepStaleKeepsLiveSandboxes(t *testing.T) {
	f := newFixture(t)
	tmp := filepath.Join(f.base, "tmp")
	must(t, os.Mkdir(tmp, 0o755))
	mine, err := New(f.repo, Options{TempDir: tmp})
	must(t, err)
	defer mine.Close()

	// A pid that is gone: a process that ran and was waited for.
	done := exec.Command(os.Args[0], "-test.run=^$")
	must(t, done.Run())
	deadPid := done.Process.Pid
	old := time.Now().Add(-2 * time.Hour)
	fake := func(name, owner string, mtime time.Time) string {
		dir := filepath.Join(tmp, name)
		must(t, os.MkdirAll(filepath.Join(dir, "repo/src"), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "repo/src/a.ts"), []byte("a"), 0o444))
		stamp := dir
		if owner != "" {
			stamp = filepath.Join(dir, ownerFile)
			must(t, os.WriteFile(stamp, []byte(owner), 0o644))
		}
		must(t, os.Chtimes(stamp, mtime, mtime))
		return dir
	}
	deadOld := fake(Prefix+"dead-old", fmt.Sprintf("pid %d\n", deadPid), old)
	deadNew := fake(Prefix+"dead-new", fmt.Sprintf("pid %d\n", deadPid), time.Now())
	liveOld := fake(Prefix+"live-old", fmt.Sprintf("pid %d\nstart %s\n", os.Getppid(), processStart(os.Getppid())), old)
	reused := fake(Prefix+"reused", fmt.Sprintf("pid %d\nstart 1\n", os.Getppid()), old) // pid alive but another process
	unmarkedOld := fake(Prefix+"unmarked-old", "", old)
	unmarkedNew := fake(Prefix+"unmarked-new", "", time.Now())
	other := fake("not-oracle", fmt.Sprintf("pid %d\n", deadPid), old)
	must(t, os.Symlink(f.repo, filepath.Join(tmp, Prefix+"link"))) // never followed

	removed, err := SweepStale(tmp, time.Hour)
	must(t, err)
	want := []string{deadOld, reused, unmarkedOld}
	if processStart(os.Getppid()) == "" { // no /proc: pid reuse is not detected
		want = []string{deadOld, unmarkedOld}
	}
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, dir := range []string{mine.Dir(), deadNew, liveOld, unmarkedNew, other} {
		if _, err := os.Lstat(dir); err != nil {
			t.Errorf("%s was removed", dir)
		}
	}
	if _, err := os.Lstat(filepath.Join(f.repo, "src/util.ts")); err != nil {
		t.Error("the sweep followed a link into the checkout")
	}
}
