package prove

// The names the end-to-end tests of cmd/oracle call, on e2etest: a test
// file of cmd/oracle moves here with a git mv and its package clause
// (cmd/oracle/e2e_helpers_test.go has the same names, in process). oracle
// runs the binary TestMain built once for the package; a test may
// t.Setenv (the binary inherits the environment).

import (
	"testing"

	"github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/gate"
)

func TestMain(m *testing.M) { e2etest.Main(m) }

// The exit codes (cmd/oracle/main.go) and the gate's verdicts' (cmd/oracle/gate.go).
const (
	exitOK    = e2etest.ExitOK
	exitFail  = e2etest.ExitFail
	exitUsage = e2etest.ExitUsage
	exitError = e2etest.ExitError
)

var gateExit = map[gate.Verdict]int{gate.PASS: exitOK, gate.SKIP: exitOK, gate.FAIL: exitFail, gate.ERROR: exitError}

func oracle(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return e2etest.Oracle(t, args...)
}

// oracleBin is the oracle binary, for a test that runs it itself (to
// signal it).
func oracleBin(t *testing.T) string { t.Helper(); return e2etest.Bin(t) }

// repoFile is the absolute path of a file of the repository (slash path
// from its root).
func repoFile(rel string) string { return e2etest.RepoFile(rel) }

// oracleIn runs oracle with input as its standard input.
func oracleIn(t *testing.T, input string, args ...string) (int, string, string) {
	t.Helper()
	return e2etest.OracleIn(t, input, args...)
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
