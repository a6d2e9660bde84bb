package e2etest

// What several end-to-end test packages read: oracle's JSON documents, a
// vitest run of a sample copy, the mutation report's schema check, a
// directory's hash, the sample sources more than one package commits.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// GateResult is the part of gate --json the tests read.
type GateResult struct {
	Schema, Verdict, Reason string
	Score, Threshold        float64
	Cached                  int
	Targets                 []struct {
		ID      string
		Tests   []string
		Skipped string
	}
	Mutants []struct {
		File, Outcome, MutatorName, Target string
		Line                               int
		CoveredBy                          []string
	}
}

// HostileResult is GateResult with the notes, the attribution, the
// identity and the change.
type HostileResult struct {
	GateResult
	Attribution string
	Notes       []string
	Identity    *struct{ Mutants, K, N int }
	Change      *struct{ Worktree bool }
	Timings     *struct{ Baseline float64 }
}

// GateJSON runs gate --json --timings --root dir with extra flags.
func GateJSON(t testing.TB, dir string, extra ...string) (int, HostileResult, string) {
	t.Helper()
	code, out, errs := Oracle(t, append([]string{"gate", "--json", "--timings", "--root", dir}, extra...)...)
	var r HostileResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("gate --json %v (exit %d): %v\n%s\n%s", extra, code, err, out, errs)
	}
	return code, r, errs
}

// GradeTS is a function with one branch, the source several gate tests
// commit.
const GradeTS = "export function grade(n: number): string {\n  if (n >= 50) {\n    return \"pass\";\n  }\n  return \"fail\";\n}\n"

// VitestReport is the part of vitest's JSON reporter output the tests read.
type VitestReport struct {
	NumPassedTests int `json:"numPassedTests"`
	NumFailedTests int `json:"numFailedTests"`
	TestResults    []struct {
		Name             string `json:"name"` // the test file's absolute path
		Message          string `json:"message"`
		AssertionResults []struct {
			FullName        string   `json:"fullName"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failureMessages"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// Failures lists the failed files' messages and the failed tests' first
// lines.
func (r VitestReport) Failures() string {
	var b strings.Builder
	for _, f := range r.TestResults {
		if f.Message != "" {
			b.WriteString(f.Message + "\n")
		}
		for _, a := range f.AssertionResults {
			for _, m := range a.FailureMessages {
				first, _, _ := strings.Cut(m, "\n")
				b.WriteString(a.FullName + ": " + first + "\n")
			}
		}
	}
	return b.String()
}

// RunVitest runs test files of a sample copy with its linked vitest under
// node.
func RunVitest(t testing.TB, node, dir string, args ...string) VitestReport {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	cmdArgs := append([]string{filepath.Join(dir, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=json", "--outputFile=" + out}, args...)
	cmd := exec.Command(node, cmdArgs...)
	cmd.Dir = dir
	tmp := t.TempDir() // vite's $TMPDIR/<id>/ssr goes with the test
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1", "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // a failing run exits 1; the report says why
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("vitest %v wrote no report: %v\n%s", args, err, stderr.String())
	}
	var r VitestReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("vitest report: %v", err)
	}
	return r
}

// NeedFile ends the test (testenv.Missing) unless path exists.
func NeedFile(t testing.TB, path string) {
	t.Helper()
	testenv.NeedFile(t, path, "run scripts/test first")
}

// ValidateReport checks a mutation report against
// mutation-testing-report-schema.
func ValidateReport(t testing.TB, report string) {
	t.Helper()
	script := testenv.Testdata("node/validate-report.mjs")
	NeedFile(t, testenv.Testdata("node/node_modules/ajv/package.json"))
	out, err := exec.Command("node", script, report).CombinedOutput()
	if err != nil {
		t.Fatalf("the mutation report does not validate against mutation-testing-report-schema: %v\n%s", err, out)
	}
}

// TreeHash hashes every path, mode, link target and content under dir
// (node_modules links included, not followed).
func TreeHash(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s %v\n", strings.TrimPrefix(p, dir), info.Mode())
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintln(h, target)
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TotalTS is a function with one multiplication, the source several tests
// commit.
const TotalTS = "export function total(price: number, qty: number): number {\n  return price * qty;\n}\n"

// MergeFiles is the union of file sets, a later one winning.
func MergeFiles(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// TempRepo writes files to a new temporary directory with nodeModules
// linked as its node_modules (no git), and returns it.
func TempRepo(t testing.TB, nodeModules string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, files)
	if err := os.Symlink(nodeModules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// RepoFile is the absolute path of a file of this repository (slash path
// from its root).
func RepoFile(rel string) string {
	return filepath.Join(testenv.Testdata(""), "..", filepath.FromSlash(rel))
}

// AuditRepo is TempRepo with the vitest 4 install (V4) linked.
func AuditRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	return TempRepo(t, V4(t).NodeModules, files)
}

// NewGateRepo is NewRepo with the vitest 4 install (V4) linked, and a
// package.json unless files has one.
func NewGateRepo(t testing.TB, files map[string]string) Repo {
	t.Helper()
	return NewRepo(t, V4(t).NodeModules, MergeFiles(map[string]string{"package.json": `{"name":"red","private":true,"type":"module"}`}, files))
}

// GateExit is the exit code of each of the gate's verdicts
// (cmd/oracle/gate.go).
var GateExit = map[gate.Verdict]int{gate.PASS: ExitOK, gate.SKIP: ExitOK, gate.FAIL: ExitFail, gate.ERROR: ExitError}

// ViteApp is a repository shaped like a vite app whose modules a test
// reaches only as vite finds them: src/plugins/*.ts through an eager
// import.meta.glob (its `import` option, a `!` pattern), src/lazy/*.ts
// through a lazy one written from the vite root, and src/shared/round.ts
// through an alias whose replacement is root-relative ("@": "/src").
// ViteAppChange changes one function of each.
var ViteApp = map[string]string{
	"package.json":     `{"name":"viteapp","private":true,"type":"module"}`,
	"vitest.config.ts": "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ resolve: { alias: [{ find: \"@\", replacement: \"/src\" }] } });\n",
	"src/registry.ts": "import { round } from \"@/shared/round\";\n\n" +
		"const plugins = import.meta.glob<(n: number) => number>([\"./plugins/*.ts\", \"!./plugins/draft.ts\"], { eager: true, import: \"apply\" });\n" +
		"const lazy = import.meta.glob<{ fee: (n: number) => number }>(\"/src/lazy/*.ts\");\n\n" +
		"export function applyAll(n: number): number {\n  let v = n;\n  for (const k of Object.keys(plugins).sort()) {\n    v = plugins[k](v);\n  }\n  return round(v);\n}\n\n" +
		"export async function fee(name: string, n: number): Promise<number> {\n  const m = await lazy[`/src/lazy/${name}.ts`]();\n  return m.fee(n);\n}\n",
	"src/plugins/tax.ts":   "export function apply(n: number): number {\n  return n * 2;\n}\n",
	"src/plugins/draft.ts": "export function apply(n: number): number {\n  return n - 1000;\n}\n",
	"src/lazy/card.ts":     "export function fee(n: number): number {\n  return n + 3;\n}\n",
	"src/shared/round.ts":  "export function round(n: number): number {\n  return Math.round(n * 100) / 100;\n}\n",
	"test/registry.test.ts": "import { expect, it } from \"vitest\";\nimport { applyAll, fee } from \"../src/registry\";\n\n" +
		"it(\"applies the plugins\", () => {\n  expect(applyAll(1.255)).toBe(2.51);\n  expect(applyAll(10)).toBe(20);\n});\n\n" +
		"it(\"charges the fee\", async () => {\n  expect(await fee(\"card\", 10)).toBe(13);\n});\n",
}

// ViteAppChange is the change of ViteApp: the glob-loaded functions and
// the aliased one, each in a way its (updated) test tells apart.
var ViteAppChange = map[string]string{
	"src/plugins/tax.ts":  "export function apply(n: number): number {\n  return n * 3;\n}\n",
	"src/lazy/card.ts":    "export function fee(n: number): number {\n  return n + 4;\n}\n",
	"src/shared/round.ts": "export function round(n: number): number {\n  return Math.round(n * 10) / 10;\n}\n",
	"test/registry.test.ts": "import { expect, it } from \"vitest\";\nimport { applyAll, fee } from \"../src/registry\";\n\n" +
		"it(\"applies the plugins\", () => {\n  expect(applyAll(1.25)).toBe(3.8);\n  expect(applyAll(10)).toBe(30);\n});\n\n" +
		"it(\"charges the fee\", async () => {\n  expect(await fee(\"card\", 10)).toBe(14);\n});\n",
}

// JestPackage and JestTSConfig are a ts-jest repository's package.json
// and tsconfig.json (NewJestRepo's).
const (
	JestPackage  = `{"name":"jestrepo","private":true,"devDependencies":{"jest":"29.7.0","ts-jest":"29.4.6"},"jest":{"preset":"ts-jest","testEnvironment":"node"}}`
	JestTSConfig = `{"compilerOptions":{"strict":true,"target":"es2020","module":"commonjs","esModuleInterop":true,"types":["jest"]}}`
)

// NewJestRepo is NewRepo with the jest 29 + ts-jest install of
// testdata/jest linked, and JestPackage and JestTSConfig unless files has
// its own.
func NewJestRepo(t testing.TB, files map[string]string) Repo {
	t.Helper()
	env := testenv.NeedJest(t)
	return NewRepo(t, filepath.Join(env, "node_modules"), MergeFiles(map[string]string{"package.json": JestPackage, "tsconfig.json": JestTSConfig}, files))
}
