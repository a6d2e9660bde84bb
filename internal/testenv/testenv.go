// Package testenv is what the tests of every package share (in the manner
// of Go's internal/testenv): a tool or install a test needs, which fails the
// test under CI (a missing install is a broken CI, never a green skip) and
// skips it elsewhere; a tree of files written for a test; git run in a
// test's repository; the repository's testdata.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// InCI reports whether the tests run under CI (.ci/run sets CI=1).
func InCI() bool { return os.Getenv("CI") != "" }

// Missing ends the test for a missing tool or install, msg saying what is
// missing and what to do: a failure under CI, a skip elsewhere.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if InCI() {
		t.Fatal(msg + " (under CI a missing install is a failure, never a skip)")
	}
	t.Skip(msg)
}

// NeedFile ends the test (Missing) unless path exists.
func NeedFile(t testing.TB, path, fix string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(t, path+" is missing: "+fix)
	}
}

// NeedTool returns the path of the program name on PATH, or ends the test
// (Missing).
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not on PATH")
	}
	return p
}

// Testdata is the absolute path of rel under the repository's testdata.
func Testdata(rel string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "testdata", filepath.FromSlash(rel))
}

// NeedSample returns the absolute path of testdata/name, ending the test
// (Missing) unless its npm packages are installed (scripts/deps).
func NeedSample(t testing.TB, name string) string {
	t.Helper()
	dir := Testdata(name)
	NeedFile(t, filepath.Join(dir, "node_modules", "vitest", "vitest.mjs"), "run scripts/deps (scripts/test installs it)")
	return dir
}

// WriteTree writes files (repo-relative slash paths → content) under root,
// making directories; a new temporary directory when root is "". It
// returns root.
func WriteTree(t testing.TB, root string, files map[string]string) string {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Git runs git in dir as a test's author (no signing, no user config
// needed) and returns what it printed; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	NeedTool(t, "git")
	cmd := exec.Command("git", append([]string{"-c", "user.email=test@oracle", "-c", "user.name=test", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Await polls cond until it holds. It has no deadline of its own: on a
// loaded machine (a 2-core machine at load 30) any fixed cap fails a correct
// program, so a wait that never ends is go test's -timeout, whose panic
// names the test that hung (scripts/gotestlog counts it as failed).
func Await(cond func() bool) {
	for !cond() {
		time.Sleep(50 * time.Millisecond)
	}
}

// Gone reports whether pid has exited (a zombie nobody reaps counts), as
// Linux's /proc says (no entry: gone).
func Gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(b), ')')
	return i >= 0 && strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z")
}

// NeedJest returns the absolute path of testdata/jest (jest 29 and
// ts-jest), ending the test (Missing) unless its npm packages are
// installed (scripts/deps).
func NeedJest(t testing.TB) string {
	t.Helper()
	dir := Testdata("jest")
	NeedFile(t, filepath.Join(dir, "node_modules", "jest", "bin", "jest.js"), "run scripts/deps (scripts/test installs it)")
	return dir
}
