package prove

// The jest twins of TestGenEndToEnd, TestProveCases and TestApplyThenProve:
// the seed scenario on jest 29 + ts-jest (testdata/jestpipeline, the shape of
// testdata/pipeline: a barrel, a tsconfig path alias (jest's
// moduleNameMapper), ".js" specifiers, a stateful database a fixture migrates
// after jest.resetModules(), a route test that stubs the whole pipeline
// module), testdata/jest's node_modules linked. The oracle gen writes is a
// jest file, run here with the sample's own jest and tsc; it passes on the
// real implementation and fails on each one broken by hand (breakings), and
// prove's verdicts and exit codes are vitest's.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/internal/testenv"
)

// jestSample is a copy of testdata/jestpipeline with testdata/jest's
// node_modules linked.
func jestSample(t *testing.T) string {
	t.Helper()
	return CopySample(t, "jestpipeline", filepath.Join(testenv.NeedJest(t), "node_modules"))
}

// runJest runs test files of a sample copy with its linked jest (node from
// PATH) and returns its JSON report (vitest's JSON reporter is jest's
// format).
func runJest(t *testing.T, dir string, files ...string) VitestReport {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	args := append([]string{filepath.Join(dir, "node_modules", "jest", "bin", "jest.js"), "--ci", "--watchman=false", "--json",
		"--outputFile=" + out, "--cacheDirectory=" + t.TempDir(), "--runTestsByPath"}, files...)
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // a failing run exits 1; the report says why
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("jest %v wrote no report: %v\n%s", files, err, stderr.String())
	}
	var r VitestReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("jest report: %v", err)
	}
	return r
}

// TestGenJestEndToEnd: on a repository whose tests run on jest, gen writes a
// jest oracle (the golden file: jest.mock factories on jest.requireActual,
// jest.fn, jest.spyOn, jest.mocked, jest's globals typed by @types/jest, no
// vitest), byte-identical when run again; it compiles under the sample's
// tsc, passes under its jest (ts-jest type-checks it) on the real
// implementation and fails on each implementation broken by hand, while the
// route test, which stubs the whole pipeline module, stays green.
func TestGenJestEndToEnd(t *testing.T) {
	dir := jestSample(t)
	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	code, out, errs := Oracle(t, "gen", "--root", dir, manifest)
	if code != 0 || !strings.Contains(out, "generated skip-enrichment") {
		t.Fatalf("gen exit %d\n%s%s", code, out, errs)
	}
	got, err := os.ReadFile(filepath.Join(dir, oracleFile))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden", "jest", filepath.Base(oracleFile))
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/oracle/e2e/prove -run TestGenJestEndToEnd -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("generated oracle differs from %s (rerun with -update after checking the change)", golden)
	}
	for _, s := range []string{"vi.", "vitest", "importOriginal"} {
		if bytes.Contains(got, []byte(s)) {
			t.Errorf("the jest oracle says %q", s)
		}
	}
	if code, out, errs := Oracle(t, "gen", "--root", dir, manifest); code != 0 || !strings.Contains(out, "unchanged") {
		t.Errorf("gen again: exit %d, want the oracle unchanged\n%s%s", code, out, errs)
	}

	tsc := exec.Command("node", filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", ".")
	tsc.Dir = dir
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Fatalf("tsc --noEmit: %v\n%s", err, out)
	}
	if r := only(runJest(t, dir, oracleFile), oracleFile); r.NumPassedTests != 2 || r.NumFailedTests != 0 {
		t.Fatalf("the oracle does not pass on the correct implementation: %d passed, %d failed\n%s", r.NumPassedTests, r.NumFailedTests, r.Failures())
	}
	for _, b := range breakings {
		t.Run(b.name, func(t *testing.T) {
			applyEdits(t, dir, []fileEdit{{"src/server/index.ts", b.old, b.new}})
			files := []string{oracleFile}
			if b.name == "guard deleted" {
				files = append(files, "test/routes.test.ts")
			}
			all := runJest(t, dir, files...)
			if r := only(all, oracleFile); r.NumFailedTests == 0 {
				t.Fatalf("the oracle stays green on a broken implementation (%d passed)\n%s", r.NumPassedTests, r.Failures())
			}
			if b.name == "guard deleted" {
				if rr := only(all, "test/routes.test.ts"); rr.NumFailedTests != 0 || rr.NumPassedTests == 0 {
					t.Errorf("route test: %d passed, %d failed: the sample no longer shows the blindness", rr.NumPassedTests, rr.NumFailedTests)
				}
			}
		})
	}
}

// TestProveJestCases: prove on the jest sample says what it says on the
// vitest one: PASS with every run killed (on the gate's long-lived jest, each
// mutant alone) and a valid mutation report; the guard deleted, FAIL
// [implementation] naming the wrapped call, exit 1, then `oracle apply`
// writes the guard back and the checkout is the sample that proves PASS; the
// preserved write moved under the guard, FAIL naming it (a fresh jest per
// run: --runner process). An oracle path
// jest's roots leave out is no oracle: gen says so (exit 1, the file and
// `out:` named, nothing written) and prove FAILs it [oracle]. Prove never
// changes the checkout.
func TestProveJestCases(t *testing.T) {
	dir := jestSample(t)
	sample := TreeHash(t, dir)
	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	prove := func(t *testing.T, w proveWant, args ...string) {
		t.Helper()
		before := TreeHash(t, dir)
		code, r, errs := proveJSON(t, dir, args...)
		checkProve(t, w, code, r, errs)
		if TreeHash(t, dir) != before {
			t.Error("prove changed the checkout")
		}
	}
	t.Run("as it is", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.json")
		prove(t, asPassing, "--report", report)
		ValidateReport(t, report)
	})
	t.Run("preserved write moved under the guard, process runner", func(t *testing.T) {
		applyEdits(t, dir, []fileEdit{{proveIndex, breakings[1].old, breakings[1].new}})
		prove(t, proveWant{code: 1, verdict: "FAIL", attribution: "implementation", reason: "updateRecord", baseline: "failed"}, "--runner", "process")
	})
	t.Run("guard deleted, then applied", func(t *testing.T) {
		index := filepath.Join(dir, proveIndex)
		guarded, _ := os.ReadFile(index)
		os.WriteFile(index, bytes.Replace(guarded, []byte(breakings[0].old), []byte(breakings[0].new), 1), 0o644)
		t.Cleanup(func() { os.WriteFile(index, guarded, 0o644) })
		prove(t, guardDeleted)
		if code, out, errs := Oracle(t, "apply", "--root", dir, manifest); code != 0 || !strings.Contains(out, "applied") {
			t.Fatalf("apply: exit %d\n%s%s", code, out, errs)
		}
		if TreeHash(t, dir) != sample {
			t.Fatal("after apply, the checkout is not the sample as it is (which proves PASS)")
		}
	})
	t.Run("an oracle path jest does not run", func(t *testing.T) {
		applyEdits(t, dir, []fileEdit{{"package.json", `"testEnvironment": "node",`, `"testEnvironment": "node", "roots": ["<rootDir>/test"],`}})
		before := TreeHash(t, dir)
		code, out, errs := Oracle(t, "gen", "--root", dir, manifest)
		if code != 1 || !strings.Contains(out, "jest would not run the oracle "+oracleFile) || !strings.Contains(out, "out:") || strings.Contains(errs, "goroutine") {
			t.Errorf("gen: exit %d, want 1 naming the oracle and out:\n%s%s", code, out, errs)
		}
		if TreeHash(t, dir) != before {
			t.Error("gen wrote an oracle jest does not run")
		}
		prove(t, proveWant{code: 1, verdict: "FAIL", attribution: "oracle", reason: "jest would not run the oracle"})
	})
}

// TestAuditTablesJest: audit --tables on the jest sample decides its
// requirement's oracle and proven cells as on vitest: with the oracle gen
// writes committed, implemented, oracle and proven PASS (the oracle, run on
// jest in the sandbox, passes on the code and fails with the guard removed);
// the oracle edited by hand, its oracle cell FAIL (stale).
func TestAuditTablesJest(t *testing.T) {
	dir := jestSample(t)
	if code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")); code != 0 {
		t.Fatalf("gen exit %d\n%s%s", code, out, errs)
	}
	row := "| tickets/PROJ-142.yaml > skip-enrichment | src/server/index.ts#processItem |"
	tables := func(t *testing.T) string {
		t.Helper()
		md := filepath.Join(t.TempDir(), "tables.md")
		code, out, errs := Oracle(t, "audit", "--enable", "vacuous-test/no-assertion", "--tables", md, "--root", dir)
		if code == ExitError || code == ExitUsage {
			t.Fatalf("audit exit %d\n%s%s", code, out, errs)
		}
		b, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, row) {
				return strings.TrimSpace(strings.TrimPrefix(l, row))
			}
		}
		t.Fatalf("no row %q in\n%s", row, b)
		return ""
	}
	if got := tables(t); !strings.HasPrefix(got, "PASS | PASS | PASS |") {
		t.Errorf("requirement cells (implemented, oracle, proven): %q, want PASS | PASS | PASS |", got)
	}
	applyEdits(t, dir, []fileEdit{{oracleFile, "// GENERATED", "// edited by hand\n// GENERATED"}})
	if got := tables(t); !strings.HasPrefix(got, "PASS | FAIL") {
		t.Errorf("a stale oracle's cells: %q, want PASS | FAIL ...", got)
	}
}

// TestGenJestMethods: a method's oracle on jest, its callees written through `this`
// observed on the receiver (receiver-spy: this.audit, a protected method) and on the
// object a field holds (instance-spy: this.pricing.quote, this.mailer.send): the oracle
// type-checks under ts-jest (a member spy's type takes the spy jest.spyOn returns), passes
// on the code, and prove says PASS; the preserved send dropped with the guard, prove FAILs
// [implementation] naming it.
func TestGenJestMethods(t *testing.T) {
	g := NewJestRepo(t, map[string]string{
		"oracle.yaml":   "fixtures:\n  - name: orders\n    file: test/fixtures/orders.fixture.ts\n",
		"src/mailer.ts": "export class Mailer {\n  sent: string[] = [];\n  send(message: string): void {\n    this.sent.push(message);\n  }\n}\n",
		"src/orders.ts": "import { Mailer } from \"./mailer\";\n\nexport class Pricing {\n  quote(n: number): number {\n    return n * 2;\n  }\n}\n\n" +
			"export class OrderService {\n  constructor(\n    private readonly pricing: Pricing,\n    private readonly mailer: Mailer,\n  ) {}\n\n" +
			"  finalize(n: number, opts: { skip?: boolean } = {}): number {\n    let total = n;\n    if (!opts.skip) {\n      total = this.pricing.quote(n);\n    }\n    this.mailer.send(`order ${total}`);\n    this.audit(total);\n    return total;\n  }\n\n" +
			"  protected audit(total: number): void {\n    void total;\n  }\n}\n",
		"test/fixtures/orders.fixture.ts": "import { Mailer } from \"../../src/mailer\";\nimport { OrderService, Pricing } from \"../../src/orders\";\n\n" +
			"export const arrange = {\n  \"OrderService.finalize\": async () => ({\n    self: new OrderService(new Pricing(), new Mailer()),\n    args: [10, {}] as [number, { skip?: boolean }],\n  }),\n};\n",
		"test/orders.test.ts": "import { Mailer } from \"../src/mailer\";\nimport { OrderService, Pricing } from \"../src/orders\";\n\n" +
			"it(\"quotes\", () => {\n  expect(new OrderService(new Pricing(), new Mailer()).finalize(10)).toBe(20);\n});\n",
		"tickets/PROJ-201.yaml": "ticket: PROJ-201\noperations:\n  - kind: conditional-skip\n    id: skip-quote\n    function: src/orders.ts#OrderService.finalize\n" +
			"    flag: opts.skip\n    wrap: this.pricing.quote\n    preserve: [this.mailer.send, this.audit]\n",
	})
	manifest := filepath.Join(g.Dir, "tickets/PROJ-201.yaml")
	code, out, errs := Oracle(t, "gen", "--root", g.Dir, manifest)
	if code != 0 || !strings.Contains(out, "instance-spy") || !strings.Contains(out, "receiver-spy") {
		t.Fatalf("gen exit %d\n%s%s", code, out, errs)
	}
	const oracle = "src/__oracles__/OrderService.finalize.skip-quote.oracle.test.ts"
	if r := only(runJest(t, g.Dir, oracle), oracle); r.NumPassedTests != 2 || r.NumFailedTests != 0 {
		t.Fatalf("the oracle does not pass on the code: %d passed, %d failed\n%s", r.NumPassedTests, r.NumFailedTests, r.Failures())
	}
	prove := func(w proveWant) {
		t.Helper()
		code, out, errs := Oracle(t, "prove", "--json", "--root", g.Dir, manifest)
		var r proveResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("prove --json (exit %d): %v\n%s\n%s", code, err, out, errs)
		}
		checkProve(t, w, code, r, errs)
	}
	prove(proveWant{code: 0, verdict: "PASS", baseline: "passed"})
	applyEdits(t, g.Dir, []fileEdit{{"src/orders.ts", "    }\n    this.mailer.send(`order ${total}`);\n", "      this.mailer.send(`order ${total}`);\n    }\n"}})
	prove(proveWant{code: 1, verdict: "FAIL", attribution: "implementation", reason: "this.mailer.send", baseline: "failed"})
}
