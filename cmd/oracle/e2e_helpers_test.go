package main

// The helpers the end-to-end tests share, on cmd/oracle/e2e/e2etest (each
// package under cmd/oracle/e2e has the same names in its helpers_test.go);
// here oracle runs in the test's own process.

import (
	"io"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func init() {
	e2etest.Run = func(input string, args []string, stdout, stderr io.Writer) int {
		defer func(r io.Reader) { stdin = r }(stdin)
		stdin = strings.NewReader(input)
		return run(args, stdout, stderr)
	}
}

func sample(t *testing.T, name string) string { t.Helper(); return e2etest.Sample(t, name) }

// toolchain is one vitest/node pair to run oracles under.
type toolchain struct{ name, node, nodeModules string }

func toolchains(t *testing.T) []toolchain {
	t.Helper()
	var tcs []toolchain
	for _, tc := range e2etest.Toolchains(t) {
		tcs = append(tcs, toolchain{tc.Name, tc.Node, tc.NodeModules})
	}
	return tcs
}

func v4(t *testing.T) toolchain { t.Helper(); return toolchains(t)[0] }

func copySample(t *testing.T, name, nodeModules string) string {
	t.Helper()
	return e2etest.CopySample(t, name, nodeModules)
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	e2etest.WriteFiles(t, root, files)
}

type gitRepo struct {
	t   *testing.T
	dir string
}

func (g gitRepo) git(args ...string) { g.t.Helper(); e2etest.Repo{T: g.t, Dir: g.dir}.Git(args...) }

func (g gitRepo) commit(msg string, files map[string]string) {
	g.t.Helper()
	e2etest.Repo{T: g.t, Dir: g.dir}.Commit(msg, files)
}

type (
	gateResult    = e2etest.GateResult
	hostileResult = e2etest.HostileResult
)

func gateJSON(t *testing.T, dir string, extra ...string) (int, hostileResult, string) {
	t.Helper()
	return e2etest.GateJSON(t, dir, extra...)
}

const gradeTS = e2etest.GradeTS

type vitestReport struct{ e2etest.VitestReport }

func (r vitestReport) failures() string { return r.Failures() }

func runVitest(t *testing.T, tc toolchain, dir string, args ...string) vitestReport {
	t.Helper()
	return vitestReport{e2etest.RunVitest(t, tc.node, dir, args...)}
}

func needTool(t *testing.T, path string) { t.Helper(); e2etest.NeedFile(t, path) }

func validateReport(t *testing.T, report string) { t.Helper(); e2etest.ValidateReport(t, report) }

func treeHash(t *testing.T, dir string) string { t.Helper(); return e2etest.TreeHash(t, dir) }

const totalTS = e2etest.TotalTS

func mergeFiles(ms ...map[string]string) map[string]string { return e2etest.MergeFiles(ms...) }

// auditRepo writes files to a temp directory with the vitest 4 install
// linked as its node_modules, and returns it.
func auditRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return e2etest.TempRepo(t, v4(t).nodeModules, files)
}

// newGateRepo is a git repository in a temp directory with the sample's
// vitest 4 linked in, and files as its first commit (with a package.json).
func newGateRepo(t *testing.T, files map[string]string) gitRepo {
	t.Helper()
	r := e2etest.NewRepo(t, v4(t).nodeModules, e2etest.MergeFiles(map[string]string{"package.json": `{"name":"red","private":true,"type":"module"}`}, files))
	return gitRepo{t, r.Dir}
}
