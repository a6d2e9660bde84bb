package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/audit"
)

// tablesRepo is a repository with one ticket operation the code implements
// (tickets/a-good.yaml), a test of the function, and bad manifests beside
// the good one: one that does not parse, one that names a call the
// function does not make.
func tablesRepo(t *testing.T) string {
	t.Helper()
	op := "ticket: T-1\noperations:\n  - kind: conditional-skip\n    function: src/flags.ts#run\n    flag: opts.skip\n    wrap: %s\n    preserve: [save]\n    args: [1, {}]\n"
	return auditRepo(t, map[string]string{
		"package.json":  `{"name":"a","private":true,"type":"module"}`,
		"src/enrich.ts": "export function enrich(id: number) { return id; }\n",
		"src/save.ts":   "export function save(id: number) { return id; }\n",
		"src/flags.ts": `import { enrich } from "./enrich";
import { save } from "./save";
export function run(id: number, opts: {
  verbose?: boolean
  skip?: boolean // the flag: the second member, after a line break only
}) {
  if (!opts.skip) enrich(id);
  save(id);
}
`,
		"test/flags.test.ts":   "import { expect, test } from \"vitest\";\nimport { run } from \"../src/flags\";\ntest(\"runs\", () => { expect(run(1, {})).toBe(undefined); });\n",
		"tickets/a-good.yaml":  strings.Replace(op, "%s", "enrich", 1),
		"tickets/b-bad.yaml":   "ticket: T-2\noperations:\n  - kind: nope\n",
		"tickets/c-other.yaml": strings.Replace(op, "%s", "enrichh", 1),
	})
}

func auditTablesJSON(t *testing.T, args ...string) (int, *audit.Tables, string) {
	t.Helper()
	code, out, errs := oracle(t, append([]string{"audit", "--json"}, args...)...)
	var doc struct {
		Tables *audit.Tables `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Tables == nil {
		t.Fatalf("exit %d %v\n%s\n%s", code, err, out, errs)
	}
	return code, doc.Tables, errs
}

// TestTablesBadManifestRow (issue 41): a manifest that cannot be read, or
// does not match the code, is a row of its own, FAIL in every cell with its
// error (file:line) as the note; the other manifests' rows and the other two
// tables are still written.
func TestTablesBadManifestRow(t *testing.T) {
	dir := tablesRepo(t)
	md := filepath.Join(t.TempDir(), "report.md")
	code, tb, errs := auditTablesJSON(t, "--static", "--tables", md, "--root", dir)
	if code != exitFail {
		t.Errorf("exit %d, want 1 (FAIL cells)\n%s", code, errs)
	}
	got := map[string]audit.RequirementRow{}
	for _, r := range tb.Requirements {
		got[r.Manifest+" > "+r.Operation] = r
	}
	if len(tb.Requirements) != 3 {
		t.Fatalf("requirements: %+v", tb.Requirements)
	}
	good := got["tickets/a-good.yaml > run-skip"]
	if good.Implemented.Cell != audit.CellPass || good.Function != "src/flags.ts#run" {
		t.Errorf("the good manifest's row: %+v", good)
	}
	for _, w := range []struct{ row, file, evidence string }{
		{"tickets/b-bad.yaml > " + manifestOperation, "tickets/b-bad.yaml:3", "operations[0].kind"},
		{"tickets/c-other.yaml > " + manifestOperation, "tickets/c-other.yaml:6", "no call enrichh in the body of run"},
	} {
		r, ok := got[w.row]
		if !ok {
			t.Errorf("no row %s: %+v", w.row, tb.Requirements)
			continue
		}
		for _, v := range []audit.Verdict{r.Implemented, r.Oracle, r.Proven} {
			at := v.File + ":" + itoa(v.Line)
			if v.Cell != audit.CellFail || at != w.file || !strings.Contains(v.Evidence, w.evidence) {
				t.Errorf("%s: %+v, want FAIL at %s: %s", w.row, v, w.file, w.evidence)
			}
		}
	}
	if len(tb.Integrity) != 1 || tb.Integrity[0].Integrity.Cell != audit.CellPass {
		t.Errorf("the integrity table: %+v", tb.Integrity)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| tickets/b-bad.yaml > (the manifest) |  | FAIL | FAIL | FAIL |", "at tickets/c-other.yaml:6: the manifest cannot be used", "## Cross-component integrity", "| test/flags.test.ts > runs | 3 | PASS |"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the report has no %q:\n%s", w, b)
		}
	}
}

// TestTablesInputsReadBeforeRuns (issue 41): audit --tables reads and
// checks its inputs before any test runs. A test file of the repository
// records that it ran and rewrites a ticket manifest into one that does not
// parse: a --tickets that is no directory, or a --tables path that cannot
// be written, stops the audit before it runs (exit 2, the test never ran),
// and the requirements table is the one the manifests made before the
// tests ran, not after.
func TestTablesInputsReadBeforeRuns(t *testing.T) {
	dir := tablesRepo(t)
	ran := filepath.Join(dir, "ran")
	good := filepath.Join(dir, "tickets/a-good.yaml")
	writeFiles(t, dir, map[string]string{"test/rewrite.test.ts": `import { writeFileSync } from "node:fs";
import { expect, test } from "vitest";
import { run } from "../src/flags";
writeFileSync(` + strconv.Quote(ran) + `, "yes");
writeFileSync(` + strconv.Quote(good) + `, "ticket: [broken\n");
test("rewrites", () => { expect(run(2, { skip: true })).toBe(undefined); });
`})
	md := filepath.Join(t.TempDir(), "report.md")
	code, out, errs := oracle(t, "audit", "--tables", md, "--tickets", filepath.Join(dir, "nope"), "--root", dir)
	if _, err := os.Stat(ran); code != exitUsage || err == nil {
		t.Fatalf("a --tickets that is no directory: exit %d (want 2), a test ran: %v\n%s%s", code, err == nil, out, errs)
	}
	code, out, errs = oracle(t, "audit", "--tables", t.TempDir(), "--root", dir)
	if _, err := os.Stat(ran); code != exitUsage || err == nil || !strings.Contains(errs, "is a directory") {
		t.Fatalf("a --tables that is a directory: exit %d (want 2), a test ran: %v\n%s%s", code, err == nil, out, errs)
	}
	if _, err := os.Stat(md); err == nil {
		t.Error("the report was written")
	}
	_, tb, errs := auditTablesJSON(t, "--tables", md, "--root", dir)
	if b, _ := os.ReadFile(good); !strings.Contains(string(b), "[broken") {
		t.Fatalf("the test that rewrites the manifest did not run:\n%s", errs)
	}
	var rows []string
	for _, r := range tb.Requirements {
		rows = append(rows, r.Manifest+" > "+r.Operation)
	}
	if want := "tickets/a-good.yaml > run-skip, tickets/b-bad.yaml > (the manifest), tickets/c-other.yaml > (the manifest)"; strings.Join(rows, ", ") != want {
		t.Errorf("requirements rows %q, want %q (the manifests as they were before the tests ran)", strings.Join(rows, ", "), want)
	}
}

// TestTablesOracleLimitsUnknown (issue 41): an operation gen cannot write
// an oracle for, because it cannot observe a call (a function of the
// function's own module) or has no fixture for it, is a limit of oracle,
// not a fault of the code: its oracle and proven cells are UNKNOWN with
// gen's reason, never FAIL; implemented is still judged.
func TestTablesOracleLimitsUnknown(t *testing.T) {
	dir := tablesRepo(t)
	op := "ticket: T-3\noperations:\n  - kind: conditional-skip\n    function: src/local.ts#go\n    flag: opts.skip\n    wrap: %s\n"
	writeFiles(t, dir, map[string]string{
		"src/local.ts":           "import { save } from \"./save\";\nfunction helper() {}\nexport function go(opts: { skip?: boolean }) {\n  if (!opts.skip) helper();\n  if (!opts.skip) save(1);\n}\n",
		"tickets/d-local.yaml":   strings.Replace(op, "%s", "helper", 1) + "    args: [{}]\n",
		"tickets/e-fixture.yaml": strings.Replace(op, "%s", "save", 1),
	})
	os.Remove(filepath.Join(dir, "tickets/b-bad.yaml"))
	os.Remove(filepath.Join(dir, "tickets/c-other.yaml"))
	_, tb, errs := auditTablesJSON(t, "--static", "--tables", filepath.Join(t.TempDir(), "r.md"), "--root", dir)
	want := map[string]string{
		"tickets/d-local.yaml":   "cannot observe helper",
		"tickets/e-fixture.yaml": "no fixture",
	}
	seen := 0
	for _, r := range tb.Requirements {
		w, ok := want[r.Manifest]
		if !ok {
			continue
		}
		seen++
		if r.Implemented.Cell != audit.CellPass {
			t.Errorf("%s: implemented %+v", r.Manifest, r.Implemented)
		}
		for _, v := range []audit.Verdict{r.Oracle, r.Proven} {
			if v.Cell != audit.CellUnknown || !strings.Contains(v.Evidence, w) || !strings.Contains(v.Evidence, "not the code's") {
				t.Errorf("%s: %+v, want UNKNOWN: %s", r.Manifest, v, w)
			}
		}
	}
	if seen != 2 {
		t.Errorf("rows: %+v\n%s", tb.Requirements, errs)
	}
}

// TestTablesEachRowsAreVitestsTests (issue 41): the integration test
// integrity table has a row per case of a .each test, named as vitest 4
// names it (`vitest list` prints the same "file > suite > test" names),
// each judged on its own: the case that never asserts is FAIL.
func TestTablesEachRowsAreVitestsTests(t *testing.T) {
	tc := v4(t)
	dir := auditRepo(t, map[string]string{
		"package.json": `{"name":"a","private":true,"type":"module"}`,
		"src/sum.ts":   "export function sum(a: number, b: number) { return a + b; }\n",
		"test/each.test.ts": `import { describe, expect, it, test } from "vitest";
import { sum } from "../src/sum";
it.each([[1, 2, 3], [-1, 0.5, -0.5]])("sum(%i, %f) = %s", (a, b, c) => {
  expect(sum(a, b)).toBe(c);
});
test.each` + "`" + `
  a    | b      | expected
  ${1} | ${"x"} | ${true}
  ${2} | ${"y"} | ${null}
` + "`" + `("$a and $b give $expected (%#)", ({ a, expected }) => {
  if (expected === null) return;
  expect(sum(a, 0) > 0).toBe(expected);
});
describe.each([["fast"], ["slow"]])("mode %s", (mode) => {
  it("asserts when fast", () => {
    if (mode === "fast") expect(sum(1, 1)).toBe(2);
  });
});
`,
	})
	_, tb, errs := auditTablesJSON(t, "--static", "--tables", filepath.Join(t.TempDir(), "r.md"), "--root", dir)
	var rows []string
	cells := map[string]audit.Cell{}
	for _, r := range tb.Integrity {
		rows = append(rows, r.Test+" > "+r.Name)
		cells[r.Name] = r.Integrity.Cell
	}
	list := exec.Command(filepath.Join(dir, "node_modules", ".bin", "vitest"), "list")
	list.Dir = dir
	list.Env = append(os.Environ(), "PATH="+filepath.Dir(tc.node)+string(os.PathListSeparator)+os.Getenv("PATH"), "CI=1", "NO_COLOR=1")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("vitest list: %v\n%s", err, out)
	}
	vitest := strings.Split(strings.TrimSpace(string(out)), "\n")
	slices.Sort(rows)
	slices.Sort(vitest)
	if strings.Join(rows, "\n") != strings.Join(vitest, "\n") {
		t.Errorf("integrity rows\n%s\nvitest's tests\n%s\n%s", strings.Join(rows, "\n"), strings.Join(vitest, "\n"), errs)
	}
	want := map[string]audit.Cell{
		"sum(1, 2) = 3": audit.CellPass, "sum(-1, 0.5) = -0.5": audit.CellPass,
		"1 and 'x' give true (0)": audit.CellPass, "2 and 'y' give null (1)": audit.CellFail,
		"mode fast > asserts when fast": audit.CellPass, "mode slow > asserts when fast": audit.CellFail,
	}
	for name, c := range want {
		if cells[name] != c {
			t.Errorf("%s: %s, want %s", name, cells[name], c)
		}
	}
}

// TestTablesProvenOutsideUnknown (issue 41, found on unjs/changelogen): an
// oracle that passes in the repository but fails in the proof's sandbox
// for want of what the sandbox, a copy of the repository's files, leaves
// out (a `git` command: the copy has no .git) proves nothing either way:
// proven is UNKNOWN naming the failure, not FAIL ("the oracle does not
// pass on the code as it is", of code that has the guard).
func TestTablesProvenOutsideUnknown(t *testing.T) {
	dir := newGateRepo(t, map[string]string{
		"src/ref.ts":       "import { execSync } from \"node:child_process\";\nexport function ref() {\n  return execSync(\"git rev-parse HEAD\", { encoding: \"utf8\" }).trim();\n}\n",
		"src/save.ts":      "export function save(id: number) { return id; }\n",
		"src/run.ts":       "import { ref } from \"./ref\";\nimport { save } from \"./save\";\nexport function run(opts: { skip?: boolean }) {\n  if (!opts.skip) ref();\n  save(1);\n}\n",
		"test/run.test.ts": "import { expect, test } from \"vitest\";\nimport { run } from \"../src/run\";\ntest(\"runs\", () => { expect(run({ skip: true })).toBe(undefined); });\n",
		"tickets/ref.yaml": "ticket: T-9\noperations:\n  - kind: conditional-skip\n    function: src/run.ts#run\n    flag: opts.skip\n    wrap: ref\n    preserve: [save]\n    args: [{}]\n",
	}).dir
	_, tb, errs := auditTablesJSON(t, "--tables", filepath.Join(t.TempDir(), "r.md"), "--root", dir)
	if len(tb.Requirements) != 1 {
		t.Fatalf("requirements: %+v\n%s", tb.Requirements, errs)
	}
	r := tb.Requirements[0]
	if r.Implemented.Cell != audit.CellPass {
		t.Errorf("implemented: %+v", r.Implemented)
	}
	if v := r.Proven; v.Cell != audit.CellUnknown || !strings.Contains(v.Evidence, "without .git") || !strings.Contains(v.Evidence, "git rev-parse HEAD") {
		t.Errorf("proven: %+v, want UNKNOWN naming the git command the sandbox cannot run\n%s", v, errs)
	}
}

// TestTablesTicketsOutsideRepo (issue 41): a --tickets directory outside
// the repository is a usage error naming the flag, before any test runs,
// with or without manifests in it (the manifests are named by their path
// in the repository; one outside was refused naming the file, and an
// empty directory outside was silently no table).
func TestTablesTicketsOutsideRepo(t *testing.T) {
	dir := tablesRepo(t)
	full, empty := t.TempDir(), t.TempDir()
	writeFiles(t, full, map[string]string{"t.yaml": "ticket: T-1\noperations: []\n"})
	for _, out := range []string{full, empty} {
		code, stdout, errs := oracle(t, "audit", "--static", "--tables", filepath.Join(t.TempDir(), "r.md"), "--tickets", out, "--root", dir)
		if code != exitUsage || !strings.Contains(errs, "--tickets "+out+": outside the repository") {
			t.Errorf("--tickets %s: exit %d, want 2 naming the flag\n%s%s", out, code, stdout, errs)
		}
	}
}
