package tables

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/audit"
	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

type tablesDoc struct {
	Schema  string        `json:"schema"`
	Tables  *audit.Tables `json:"tables"`
	Timings audit.Timings `json:"timings"`
}

// lastSwapRuns are the vitest runs of the last auditTables' mock-swap run.
var lastSwapRuns int

// auditTables runs `oracle audit --json --tables` on dir and returns its
// exit code, its tables and the Markdown report.
func auditTables(t *testing.T, dir string, extra ...string) (int, *audit.Tables, string) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "validation-report.md")
	code, out, errs := Oracle(t, append([]string{"audit", "--json", "--timings", "--tables", report, "--root", dir}, extra...)...)
	var doc tablesDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Tables == nil || doc.Schema != "oracle.audit/v1" {
		t.Fatalf("audit --tables: exit %d %v\n%s\n%s", code, err, out, errs)
	}
	lastSwapRuns = doc.Timings.SwapRuns
	md, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	return code, doc.Tables, string(md)
}

// gateOn runs docs/validator-gate.sh on the report and returns its exit
// code and output.
func gateOn(t *testing.T, md string, args ...string) (int, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.md")
	if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	script := RepoFile("docs/validator-gate.sh")
	out, err := exec.Command("bash", append([]string{script, p}, args...)...).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

// TestAuditTablesDriftSample is the acceptance scenario of issue 29 on
// testdata/drift: the consumer reads .passed where the producer writes
// details.passed and its test mocks the producer with { passed }: every
// test is green, the cross-component table has a FAIL row naming the test
// and .passed, and the gate says INCOMPLETE. The other mocks give the
// other cells; fixing the consumer and its mock makes the row PASS.
//
// Both runs of the mock-swap use the vitest that listed the suite (found
// from the root), not one a directory of the test files holds (nuxt/cli: a
// package's own vitest for another vite): the copy has a vitest under test/
// that writes no report, which would make every row UNKNOWN (this was
// TestAuditTablesOneVitest, an audit of a copy of its own whose drift row
// the first audit here reads).
func TestAuditTablesDriftSample(t *testing.T) {
	dir := CopySample(t, "drift", V4(t).NodeModules)
	otherVitest(t, dir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer func() {
		if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
			t.Errorf("left in $TMPDIR by audit: %d entries (%s...)", len(entries), entries[0].Name())
		}
	}()
	code, tb, md := auditTables(t, dir)
	if code != ExitFail {
		t.Errorf("exit %d with a FAIL cell, want 1", code)
	}
	if lastSwapRuns != 2 {
		t.Errorf("the mock-swap run took %d vitest runs, want 2 (all the files with their mocks, then without)", lastSwapRuns)
	}
	type want struct {
		withReal, shape audit.Cell
		evidence        []string
	}
	check := func(tb *audit.Tables, wants map[string]want) {
		t.Helper()
		got := map[string]audit.CrossRow{}
		for _, r := range tb.CrossComponent {
			got[r.Test+" "+r.Module] = r
		}
		if len(got) != len(wants) {
			t.Errorf("%d cross-component rows, want %d: %+v", len(got), len(wants), tb.CrossComponent)
		}
		for k, w := range wants {
			r, ok := got[k]
			if !ok {
				t.Errorf("no cross-component row %s", k)
				continue
			}
			if r.WithReal.Cell != w.withReal || r.Shape.Cell != w.shape {
				t.Errorf("%s: with the real module %s, shape %s; want %s, %s (%s)", k, r.WithReal.Cell, r.Shape.Cell, w.withReal, w.shape, r.WithReal.Evidence)
			}
			for _, e := range w.evidence {
				if !strings.Contains(r.WithReal.Evidence, e) {
					t.Errorf("%s: evidence %q lacks %q", k, r.WithReal.Evidence, e)
				}
			}
		}
	}
	check(tb, map[string]want{
		"test/gate.test.ts src/actions/count.ts": {audit.CellFail, audit.CellFail, []string{`test "canDeploy deploys when every row passed"`, "expected false to be true",
			"the mock (test/gate.test.ts:4) makes countRows return a promise of { .passed }", "{ .details, .details.count, .details.passed, .success }", "the real value has no .passed"}},
		"test/interaction.test.ts src/actions/count.ts": {audit.CellUnknown, audit.CellPass, []string{"interaction test", "vi.mocked(countRows"}},
		"test/scenario.test.ts src/actions/count.ts":    {audit.CellUnknown, audit.CellPass, []string{"the mock stages a scenario the real module does not produce for these inputs"}},
		"test/announce.test.ts src/actions/notify.ts":   {audit.CellUnknown, audit.CellPass, []string{"for want of something outside the repository", "NOTIFY_API_KEY is not set"}},
		// The automock: the __mocks__ file's values recorded as the mock's;
		// mock-drift reads that file too (shape FAIL).
		"test/review.test.ts src/actions/lint.ts": {audit.CellFail, audit.CellFail, []string{`test "reviewRows says clean rows are clean"`, "makes lintRows return { .ok }, the real src/actions/lint.ts returns { .count, .report, .report.ok }: the real value has no .ok"}},
	})
	integrity := map[string]audit.Cell{}
	for _, r := range tb.Integrity {
		integrity[r.Test+" > "+r.Name] = r.Integrity.Cell
	}
	for name, cell := range map[string]audit.Cell{
		"test/gate.test.ts > canDeploy > deploys when every row passed":           audit.CellPass,
		"test/version.test.ts > describeRun names the version > names the commit": audit.CellUnknown,
		"test/version.test.ts > describeRun names the version > is vacuous":       audit.CellFail,
		// measured: its only expect is under an if that is false
		"test/never.test.ts > describeRun, checked on demand > names the rows":         audit.CellFail,
		"test/never.test.ts > describeRun, checked on demand > names the rows, always": audit.CellPass,
	} {
		if integrity[name] != cell {
			t.Errorf("integrity of %s: %q, want %s", name, integrity[name], cell)
		}
	}
	for _, r := range tb.Integrity {
		if r.Test == "test/never.test.ts" && r.Line == 5 && !strings.Contains(r.Integrity.Evidence, `vacuous-test/never-asserted: test "names the rows" passed, and none of its 1 assertion(s) ran (measured)`) {
			t.Errorf("the evidence of the test whose assertion never ran: %+v", r.Integrity)
		}
	}
	if tb.Requirements != nil {
		t.Errorf("a requirements table without a manifest: %+v", tb.Requirements)
	}
	if !strings.Contains(md, "| test/gate.test.ts | src/actions/count.ts | test/gate.test.ts:4 | FAIL | FAIL | [") || !strings.Contains(md, "the real value has no .passed") {
		t.Errorf("the report lacks the drift row:\n%s", md)
	}
	// The text output names the FAIL cells under its count.
	report := filepath.Join(t.TempDir(), "report.md")
	if code, out, errs := Oracle(t, "audit", "--tables", report, "--root", dir); code != ExitFail ||
		!strings.Contains(out, "\nTABLES 11 PASS, 6 FAIL, 4 UNKNOWN written to "+report+"\n") ||
		!strings.Contains(out, "\n  FAIL cross-component integrity: test/gate.test.ts > src/actions/count.ts: with the real module at test/gate.test.ts:4: test \"canDeploy deploys when every row passed\"") {
		t.Errorf("text output: exit %d\n%s%s", code, out, errs)
	}
	if c, out := gateOn(t, md); c != 1 || !strings.Contains(out, "INCOMPLETE") {
		t.Errorf("the gate on the drift: exit %d\n%s", c, out)
	}

	// The consumer fixed to read details.passed, its mock to the real
	// shape, and the vacuous test removed: the row is PASS, no cell FAIL,
	// exit 0, and the gate passes with the UNKNOWN gaps.
	edit := func(file, old, new string) {
		p := filepath.Join(dir, file)
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s lacks %q", file, old)
		}
		os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
	}
	edit("src/deploy/gate.ts", "type CountPayload = { passed: boolean };", "type CountPayload = { details: { passed: boolean } };")
	edit("src/deploy/gate.ts", "return payload.passed === true;", "return payload.details.passed === true;")
	edit("test/gate.test.ts", "({ passed: true })", "({ success: true, details: { passed: true, count: 3 } })")
	edit("src/deploy/review.ts", "as unknown as { ok: boolean };\n  return result.ok", ";\n  return result.report.ok")
	edit("src/actions/__mocks__/lint.ts", "(): { ok: boolean } {\n  return { ok: true };", "(): { report: { ok: boolean }; count: number } {\n  return { report: { ok: true }, count: 2 };")
	edit("test/never.test.ts", "if (process.env.CHECK_RUNS) {", "{")
	edit("test/version.test.ts", "expect(true).toBe(true);", "expect(await describeRun([])).toBe(\"v0.0.0-test: 0 of 0 rows\");")
	edit("test/version.test.ts", `it("is vacuous", () => {`, `it("is vacuous", async () => {`)
	code, tb, md = auditTables(t, dir)
	if code != ExitOK {
		t.Errorf("exit %d without a FAIL cell, want 0\n%s", code, md)
	}
	check(tb, map[string]want{
		"test/gate.test.ts src/actions/count.ts":        {audit.CellPass, audit.CellPass, nil},
		"test/interaction.test.ts src/actions/count.ts": {audit.CellUnknown, audit.CellPass, nil},
		"test/scenario.test.ts src/actions/count.ts":    {audit.CellUnknown, audit.CellPass, nil},
		"test/announce.test.ts src/actions/notify.ts":   {audit.CellUnknown, audit.CellPass, nil},
		"test/review.test.ts src/actions/lint.ts":       {audit.CellPass, audit.CellPass, nil},
	})
	if c, out := gateOn(t, md); c != 0 || !strings.Contains(out, "COMPLETE-WITH-GAPS") {
		t.Errorf("the gate on the fixed sample: exit %d\n%s", c, out)
	}
	if c, _ := gateOn(t, md, "--strict"); c != 1 {
		t.Errorf("the gate --strict with UNKNOWN cells: exit %d, want 1", c)
	}

	// --static runs nothing: the swapped mocks are UNKNOWN.
	_, tb, _ = auditTables(t, dir, "--static")
	if lastSwapRuns != 0 {
		t.Errorf("--static ran vitest %d times for the tables", lastSwapRuns)
	}
	for _, r := range tb.CrossComponent {
		if r.Test == "test/gate.test.ts" && (r.WithReal.Cell != audit.CellUnknown || !strings.Contains(r.WithReal.Evidence, "static audit")) {
			t.Errorf("--static: %+v", r.WithReal)
		}
	}
}

// TestValidatorGate: docs/validator-gate.sh reads the verdict cells of the
// table rows only: exit 1 on a FAIL, 0 with UNKNOWN gaps (1 with
// --strict), 2 with no report or no verdict.
func TestValidatorGate(t *testing.T) {
	written := func(cells ...audit.Cell) string {
		tb := &audit.Tables{}
		for i, c := range cells {
			v := audit.Verdict{Cell: c}
			if c != audit.CellPass {
				v.File, v.Line, v.Evidence = "test/a.test.ts", i+1, "a FAIL | PASS in the evidence"
			}
			tb.Integrity = append(tb.Integrity, audit.IntegrityRow{Test: "test/a.test.ts", Name: "FAIL | t", Line: i + 1, Integrity: v})
		}
		var b strings.Builder
		tb.WriteMarkdown(&b)
		return b.String()
	}
	cases := []struct {
		name   string
		report string
		args   []string
		code   int
		says   string
	}{
		{"all PASS", written(audit.CellPass, audit.CellPass), nil, 0, "2 PASS, 0 FAIL, 0 UNKNOWN\nCOMPLETE\n"},
		{"a FAIL", written(audit.CellPass, audit.CellFail), nil, 1, "INCOMPLETE: 1 FAIL"},
		{"UNKNOWN gaps", written(audit.CellPass, audit.CellUnknown), nil, 0, "COMPLETE-WITH-GAPS: 1 UNKNOWN"},
		{"UNKNOWN --strict", written(audit.CellUnknown), []string{"--strict"}, 1, "INCOMPLETE: 1 UNKNOWN"},
		{"FAIL only in the notes", "| t | PASS |\n\n- [1] FAIL at a.ts:1: x\nFAIL\n", nil, 0, "1 PASS, 0 FAIL"},
		{"an escaped pipe", "| a \\| FAIL | PASS |\n", nil, 0, "1 PASS, 0 FAIL"},
		{"no verdict", "# Validation report\n\nnothing\n", nil, 2, "no verdict"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := gateOn(t, c.report, c.args...)
			if code != c.code || !strings.Contains(out, c.says) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s\n%s", code, c.code, c.says, out, c.report)
			}
		})
	}
	script := RepoFile("docs/validator-gate.sh")
	if out, err := exec.Command("bash", script, filepath.Join(t.TempDir(), "none.md")).CombinedOutput(); err == nil || !strings.Contains(string(out), "cannot read") {
		t.Errorf("no report: %v %s", err, out)
	}
}

// TestAuditTablesRequirements: the requirements traceability table of the
// class sample's PROJ-201, column by column: implemented (apply's dry run
// makes no change), oracle (on disk with gen's bytes), proven (the oracle
// passes on the code and fails with the guard removed: two vitest runs).
func TestAuditTablesRequirements(t *testing.T) {
	dir := CopySample(t, "services", V4(t).NodeModules)
	one := filepath.Join(dir, "t201")
	os.Mkdir(one, 0o755)
	b, _ := os.ReadFile(filepath.Join(dir, "tickets/PROJ-201.yaml"))
	os.WriteFile(filepath.Join(one, "PROJ-201.yaml"), b, 0o644)
	oracleFile := "src/orders/__oracles__/OrderService.finalize.skip-quote.oracle.test.ts"
	type want struct {
		implemented, oracle, proven audit.Cell
		evidence                    string // in some cell's evidence
	}
	step := func(name string, w want, extra ...string) {
		t.Helper()
		_, tb, md := auditTables(t, dir, append([]string{"--tickets", one}, extra...)...)
		if len(tb.Requirements) != 1 {
			t.Fatalf("%s: %d requirement rows, want 1:\n%s", name, len(tb.Requirements), md)
		}
		r := tb.Requirements[0]
		if r.Manifest != "t201/PROJ-201.yaml" || r.Operation != "skip-quote" || r.Function != "src/orders/service.ts#OrderService.finalize" {
			t.Errorf("%s: row %+v", name, r)
		}
		if r.Implemented.Cell != w.implemented || r.Oracle.Cell != w.oracle || r.Proven.Cell != w.proven {
			t.Errorf("%s: implemented %s, oracle %s, proven %s; want %s, %s, %s\n%s", name, r.Implemented.Cell, r.Oracle.Cell, r.Proven.Cell, w.implemented, w.oracle, w.proven, md)
		}
		if ev := r.Implemented.Evidence + "\n" + r.Oracle.Evidence + "\n" + r.Proven.Evidence; !strings.Contains(ev, w.evidence) {
			t.Errorf("%s: evidence lacks %q:\n%s", name, w.evidence, ev)
		}
	}
	// By default, every manifest under tickets/: their proofs share one
	// sandbox.
	_, tb, md := auditTables(t, dir)
	var ops []string
	for _, r := range tb.Requirements {
		ops = append(ops, r.Manifest+" > "+r.Operation)
		if r.Operation == "skip-quote" && (r.Oracle.File != oracleFile || !strings.Contains(r.Oracle.Evidence, "no oracle: `oracle gen` would write "+oracleFile)) {
			t.Errorf("the oracle cell of skip-quote: %+v", r.Oracle)
		}
		if r.Implemented.Cell != audit.CellPass || r.Oracle.Cell != audit.CellFail || r.Proven.Cell != audit.CellPass {
			t.Errorf("%s > %s: implemented %s, oracle %s, proven %s; want PASS, FAIL (no oracle), PASS\n%s", r.Manifest, r.Operation, r.Implemented.Cell, r.Oracle.Cell, r.Proven.Cell, md)
		}
	}
	if got := strings.Join(ops, ", "); got != "tickets/PROJ-201.yaml > skip-quote, tickets/PROJ-202.yaml > count-only, tickets/PROJ-203.yaml > silent-cancel" {
		t.Errorf("the requirements of tickets/: %s", got)
	}
	if code, out, errs := Oracle(t, "gen", "--root", dir, filepath.Join(one, "PROJ-201.yaml")); code != 0 {
		t.Fatalf("gen: exit %d\n%s%s", code, out, errs)
	}
	step("generated", want{audit.CellPass, audit.CellPass, audit.CellPass, ""})
	step("static: not run", want{audit.CellPass, audit.CellPass, audit.CellUnknown, "static audit: the oracle was not run"}, "--static")
	p := filepath.Join(dir, oracleFile)
	b, _ = os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("// edited by hand\n")...), 0o644)
	step("stale", want{audit.CellPass, audit.CellFail, audit.CellPass, "differs from what `oracle gen` writes now (stale)"})
	svc := filepath.Join(dir, "src/orders/service.ts")
	b, _ = os.ReadFile(svc)
	unguarded := strings.Replace(string(b), "    if (!opts.skipQuote) {\n      quote = await this.pricing.quote(order);\n    }\n", "    quote = await this.pricing.quote(order);\n", 1)
	if unguarded == string(b) {
		t.Fatal("the guard of finalize is not where the test expects it")
	}
	os.WriteFile(svc, []byte(unguarded), 0o644)
	step("the guard removed", want{audit.CellFail, audit.CellFail, audit.CellFail, "the oracle does not pass on the code as it is"})

	if code, _, errs := Oracle(t, "audit", "--static", "--tables", filepath.Join(t.TempDir(), "r.md"), "--tickets", filepath.Join(dir, "none"), "--root", dir); code != ExitUsage || !strings.Contains(errs, "--tickets") {
		t.Errorf("--tickets of no directory: exit %d %s", code, errs)
	}
	if code, _, errs := Oracle(t, "audit", "--static", "--tickets", one, "--root", dir); code != ExitUsage || !strings.Contains(errs, "--tickets needs --tables") {
		t.Errorf("--tickets without --tables: exit %d %s", code, errs)
	}
	if code, _, errs := Oracle(t, "audit", "--static", "--tables", filepath.Join(dir, "no", "r.md"), "--root", dir); code != ExitUsage || !strings.Contains(errs, "no directory") {
		t.Errorf("--tables in no directory: exit %d %s", code, errs)
	}
}

// otherVitest writes under dir/test/node_modules a vitest that writes no
// report (it says "another vitest" and exits 7).
func otherVitest(t *testing.T, dir string) {
	t.Helper()
	other := filepath.Join(dir, "test", "node_modules", "vitest")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(other, "package.json"), []byte(`{"name": "vitest", "version": "0.0.0-other"}`), 0o644)
	os.WriteFile(filepath.Join(other, "vitest.mjs"), []byte("console.error('another vitest');\nprocess.exit(7);\n"), 0o644)
}
