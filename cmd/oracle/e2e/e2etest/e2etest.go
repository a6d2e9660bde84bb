// Package e2etest is what the end-to-end test packages under cmd/oracle/e2e
// share: the oracle binary, built once per test package (Main), run as a
// user runs it (Oracle, OracleIn), the samples' npm installs, and the
// prelude of a sample repository (NewRepo: git init, node_modules linked,
// ignored, committed). The packages are split so go test runs them in
// parallel; each is one test binary, so a test may t.Setenv as before
// (the oracle it runs inherits the environment).
package e2etest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/samplecopy"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// Exit codes of the oracle binary (SPEC "Exit codes"; cmd/oracle/exit.go).
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitUsage = 2
	ExitError = 3
)

// Endless is a TypeScript statement that never ends and blocks its thread
// as a busy loop does (no event, no message, no signal handler of its own
// runs), waiting in Atomics.wait rather than spinning: a run that hangs on
// it until a test interrupts or kills it does not burn a core meanwhile.
const Endless = "while (Date.now() > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);"

var bin string // the oracle binary Main built

// Main builds the oracle binary once for the test package, runs its tests
// and removes the binary: a test package's TestMain is
//
//	func TestMain(m *testing.M) { e2etest.Main(m) }
func Main(m *testing.M) {
	os.Exit(mainCode(m))
}

func mainCode(m *testing.M) int {
	dir, err := os.MkdirTemp("", "oracle-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2etest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "oracle")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = cmdDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2etest: go build ./cmd/oracle: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// cmdDir is cmd/oracle's directory.
func cmdDir() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..")
}

// Bin is the oracle binary Main built.
func Bin(t testing.TB) string {
	t.Helper()
	if bin == "" {
		t.Fatal("e2etest: no oracle binary: the package's TestMain must call e2etest.Main")
	}
	return bin
}

// Oracle runs oracle with args and returns its exit code, standard output
// and standard error.
func Oracle(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	return OracleIn(t, "", args...)
}

// Run, when set, runs oracle in the test's own process instead of the
// binary (cmd/oracle's tests, which are package main, set it).
var Run func(input string, args []string, stdout, stderr io.Writer) int

// OracleIn runs oracle with input as its standard input.
func OracleIn(t testing.TB, input string, args ...string) (int, string, string) {
	t.Helper()
	if Run != nil {
		var out, errb bytes.Buffer
		code := Run(input, args, &out, &errb)
		return code, out.String(), errb.String()
	}
	cmd := exec.Command(Bin(t), args...)
	cmd.Stdin = strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatalf("oracle %v: %v\n%s", args, err, errb.String())
	return -1, "", ""
}

// Sample is the absolute path of testdata/name.
func Sample(t testing.TB, name string) string {
	t.Helper()
	return testenv.Testdata(name)
}

// Toolchain is one vitest/node pair to run oracles under.
type Toolchain struct {
	Name        string
	Node        string // node binary
	NodeModules string // linked as a sample copy's node_modules
}

// Toolchains are vitest 4 on the PATH's node (testdata/pipeline's install)
// and vitest 5 on Node 22 (testdata/vitest5's); a missing install ends the
// test (testenv.Missing).
func Toolchains(t testing.TB) []Toolchain {
	t.Helper()
	v4 := testenv.Testdata("pipeline/node_modules")
	v5 := testenv.Testdata("vitest5/node_modules")
	for _, dir := range []string{v4, v5} {
		if _, err := os.Stat(filepath.Join(dir, "vitest", "package.json")); err != nil {
			testenv.Missing(t, fmt.Sprintf("%s has no vitest: scripts/test installs it", dir))
		}
	}
	return []Toolchain{
		{"vitest4-node20", "node", v4},
		{"vitest5-node22", filepath.Join(v5, "node", "bin", "node"), v5},
	}
}

// V4 is the vitest 4 toolchain.
func V4(t testing.TB) Toolchain { t.Helper(); return Toolchains(t)[0] }

// CopySample copies testdata/name (without node_modules) to a temporary
// directory and links node_modules to the given install.
func CopySample(t testing.TB, name, nodeModules string) string {
	t.Helper()
	dst := t.TempDir()
	if err := samplecopy.Copy(testenv.Testdata(name), dst, nodeModules); err != nil {
		t.Fatal(err)
	}
	return dst
}

// WriteFiles writes files (slash paths → content) under root.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	testenv.WriteTree(t, root, files)
}

// Repo is a git repository a test writes.
type Repo struct {
	T   testing.TB
	Dir string
}

// Git runs git in the repository; a failure fails the test.
func (r Repo) Git(args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=gate@test", "-c", "user.name=gate", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.T.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Commit writes files and commits everything (an empty commit if nothing
// changed).
func (r Repo) Commit(msg string, files map[string]string) {
	r.T.Helper()
	WriteFiles(r.T, r.Dir, files)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
}

// NewRepo is the prelude of a sample repository: a git repository in a new
// temporary directory, nodeModules linked as its node_modules (ignored),
// files committed as "base".
func NewRepo(t testing.TB, nodeModules string, files map[string]string) Repo {
	t.Helper()
	r := Repo{t, t.TempDir()}
	if err := os.Symlink(nodeModules, filepath.Join(r.Dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	r.Git("init", "-q")
	all := map[string]string{".gitignore": "node_modules\n"}
	for k, v := range files {
		all[k] = v
	}
	r.Commit("base", all)
	return r
}
