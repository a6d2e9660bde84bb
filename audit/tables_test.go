package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
)

// mockOf parses a test file and returns it with its first vi.mock as a
// swapMock of module src/m.ts.
func mockOf(t *testing.T, src string) (*analyzer.Syntax, *swapMock) {
	t.Helper()
	f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
	if f == nil || len(f.Mocks) == 0 {
		t.Fatalf("no mock in %s", src)
	}
	m := f.Mocks[0]
	args := syn.NamedChildren(syn.Child(m.Node, "arguments"))
	return syn, &swapMock{test: "test/a.test.ts", module: "src/m.ts", spec: m.Specifier, line: m.Line, endLine: syn.Line(syn.End(m.Node)), node: m.Node, syn: syn, factory: m.Factory && len(args) >= 2}
}

func TestConstantsOnly(t *testing.T) {
	cases := []struct {
		factory string
		want    bool
	}{
		{`() => ({ VERSION: "0.0.0-test" })`, true},
		{`() => ({ VERSION: "1", LIMITS: { max: 3, names: ["a", null] }, on: true })`, true},
		{"() => { return { VERSION: `v1` }; }", true},
		{`() => ({ countRows: async () => ({ passed: true }) })`, false},
		{`() => ({ countRows: vi.fn() })`, false},
		{`() => ({ countRows: mockCount })`, false},
		{"() => ({ VERSION: `v${x}` })", false},
		{`() => ({ ...real })`, false},
		{`() => ({})`, false},
	}
	for _, c := range cases {
		syn, m := mockOf(t, `vi.mock("../src/m", `+c.factory+`);`)
		args := syn.NamedChildren(syn.Child(m.node, "arguments"))
		if got := constantsOnly(syn, args[1]); got != c.want {
			t.Errorf("constantsOnly(%s) = %v, want %v", c.factory, got, c.want)
		}
	}
}

func TestInteractionIn(t *testing.T) {
	cases := []struct {
		name, src string
		names     []string
		want      string // a part of the evidence; "" none
	}{
		{"vi.mocked programs it", "vi.mock(\"../src/m\");\nvi.mocked(countRows).mockResolvedValue(1);", []string{"countRows"}, "test/a.test.ts:2: `vi.mocked(countRows`"},
		{"a setter on the import", "vi.mock(\"../src/m\");\ncountRows.mockReturnValue(1);", []string{"countRows"}, "countRows.mockReturnValue("},
		{"an expect of its calls", "vi.mock(\"../src/m\");\nexpect(countRows).toHaveBeenCalledWith([7]);", []string{"countRows"}, "expect(countRows).toHaveBeenCalled"},
		{"a namespace member's calls", "vi.mock(\"../src/m\");\nexpect(m.countRows).not.toHaveBeenCalled();", []string{"m"}, "expect(m.countRows).not.toHaveBeenCalled"},
		{"the hoisted vi.fn the factory places", "const { mockCount } = vi.hoisted(() => ({ mockCount: vi.fn() }));\nvi.mock(\"../src/m\", () => ({ countRows: mockCount }));\nmockCount.mockResolvedValue({});", nil, "mockCount.mockResolvedValue("},
		{"its calls read", "vi.mock(\"../src/m\");\nconst [args] = countRows.mock.calls;", []string{"countRows"}, "countRows.mock.calls"},
		{"a mocked class's method on an instance", "vi.mock(\"../src/m\", () => ({\n  Service: class {\n    finalize = vi.fn().mockResolvedValue({});\n  },\n}));\nexpect(service.finalize).toHaveBeenCalledWith(7);", []string{"Service"}, "test/a.test.ts:6: `expect(service.finalize).toHaveBeenCalled"},
		{"a factory key's mock read through an object", "vi.mock(\"../src/m\", () => ({ countRows: vi.fn() }));\nmocks.countRows.mockResolvedValueOnce(1);", nil, ".countRows.mockResolvedValueOnce("},
		{"a factory value set in the factory only", "vi.mock(\"../src/m\", () => ({ countRows: vi.fn().mockResolvedValue({}) }));\nawait countRows([1]);", []string{"countRows"}, ""},
		{"cast to jest's Mock", "vi.mock(\"../src/m\");\n(countRows as jest.Mock).mockReturnValue(1);", []string{"countRows"}, "(countRows as jest.Mock"},
		{"cast to MockedFunction", "vi.mock(\"../src/m\");\nconst f = (countRows as MockedFunction<typeof countRows>);", []string{"countRows"}, "(countRows as MockedFunction"},
		{"an old alias of the calls' matcher", "vi.mock(\"../src/m\");\nexpect(countRows).lastCalledWith(1);", []string{"countRows"}, "expect(countRows).lastCalledWith"},
		{"a vi.hoisted mock through its object", "const mocks = vi.hoisted(() => ({ countRows: vi.fn() }));\nvi.mock(\"../src/m\", () => ({ countRows: mocks.countRows }));\nexpect(mocks.countRows).toHaveBeenCalledOnce();", nil, "expect(mocks.countRows).toHaveBeenCalled"},
		{"only called", "vi.mock(\"../src/m\", () => ({ countRows: async () => ({}) }));\nawait countRows([1]);", []string{"countRows"}, ""},
		// nuxt/cli's listen-lazy.spec.ts: the factory records that it ran, the test reads it
		{"a factory recording into the test's state", "const evaluated = vi.hoisted(() => new Set<string>());\nvi.mock(\"../src/m\", () => {\n  evaluated.add(\"m\");\n  return { countRows: vi.fn(async () => false) };\n});\nit(\"loads m\", () => { expect(evaluated.has(\"m\")).toBe(true); });", nil, "test/a.test.ts:3: the factory records into `evaluated`"},
		{"a factory counting its loads", "let loads = 0;\nvi.mock(\"../src/m\", () => {\n  loads++;\n  return { countRows: async () => ({}) };\n});\nit(\"x\", () => { expect(loads).toBe(1); });", nil, "records into `loads`"},
		{"a factory's own state", "vi.mock(\"../src/m\", () => {\n  const seen = new Set();\n  let n = 0;\n  return { countRows: async (x) => { seen.add(x); n++; return {}; } };\n});\nit(\"x\", async () => { await countRows(1); });", []string{"countRows"}, ""},
		{"state the test never reads", "const log = [];\nvi.mock(\"../src/m\", () => {\n  log.push(\"m\");\n  return { countRows: async () => ({}) };\n});\nit(\"x\", async () => { await countRows(1); });", []string{"countRows"}, ""},
		{"another name's expect", "vi.mock(\"../src/m\", () => ({ countRows: async () => ({}) }));\nexpect(other).toHaveBeenCalled();", []string{"countRows"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			syn, m := mockOf(t, c.src)
			got := interactionIn(m.test, syn, m, c.names)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("interactionIn = %q, want %q", got, c.want)
			}
		})
	}
}

func TestIntegrityIn(t *testing.T) {
	src := `describe("suite", () => {
  it("asserts", () => {
    expect(f()).toBe(1);
  });
  it.skip("skipped", () => {
    expect(f()).toBe(1);
  });
  it.todo("later");
  it("vacuous", () => {
    expect(true).toBe(true);
  });
  it("ignored", () => {
    expect(true).toBe(true);
  });
  it("an info", () => {
    expect(f()).toBe(1);
    expect(1).toBe(1);
  });
});
describe.skip("off", () => {
  test("inside", () => {
    expect(f()).toBe(2);
  });
});
`
	_, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
	findings := []Finding{
		{Rule: "vacuous-test/constant-assertion", Severity: Warning, File: "test/a.test.ts", Line: 9, Message: `test "vacuous" asserts only on constants`},
		{Rule: "vacuous-test/constant-assertion", Severity: Warning, File: "test/a.test.ts", Line: 12, Message: `test "ignored" asserts only on constants`, Ignored: "a smoke test"},
		{Rule: "vacuous-test/constant-assertion", Severity: Info, File: "test/a.test.ts", Line: 17, Message: "an info"},
		{Rule: "mock-drift/shape", Severity: Warning, File: "test/a.test.ts", Line: 3, Message: "not a vacuous test"},
		{Rule: "vacuous-test/only", Severity: Error, File: "test/b.test.ts", Line: 2, Message: "another file"},
	}
	rows := integrityIn("test/a.test.ts", syn, analyzer.TestStructure(syn), findings)
	want := []struct {
		name string
		line int
		cell Cell
		ev   string
	}{
		{"suite > asserts", 2, CellPass, ""},
		{"suite > skipped", 5, CellUnknown, "the test is skipped (it.skip)"},
		{"suite > later", 8, CellUnknown, "the test is todo (it.todo)"},
		{"suite > vacuous", 9, CellFail, `vacuous-test/constant-assertion: test "vacuous" asserts only on constants`},
		{"suite > ignored", 12, CellPass, ""},
		{"suite > an info", 15, CellPass, ""},
		{"off > inside", 21, CellUnknown, "the test is skipped (test)"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Test != "test/a.test.ts" || r.Name != w.name || r.Line != w.line || r.Integrity.Cell != w.cell || !strings.Contains(r.Integrity.Evidence, w.ev) {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
		if w.cell != CellPass && (r.Integrity.File != "test/a.test.ts" || r.Integrity.Line == 0) {
			t.Errorf("row %d: no file:line in its evidence: %+v", i, r.Integrity)
		}
	}
}

func TestSwapVerdict(t *testing.T) {
	nested := swapCall{Export: "countRows", Async: true, Kind: "object", Paths: []string{".details", ".details.count", ".details.passed", ".success"}}
	shallow := swapCall{Export: "countRows", Async: true, Kind: "object", Paths: []string{".passed"}}
	plain := nested
	plain.Async = false
	exports := func(xs ...string) swapCall { return swapCall{Exports: xs} }
	red := func(msg string) map[string]*swapOutcome {
		return map[string]*swapOutcome{"test/a.test.ts": {ran: true, failed: []failedTest{{"gate deploys", msg}}, failing: map[string]bool{"gate deploys": true}}}
	}
	green := map[string]*swapOutcome{"test/a.test.ts": {ran: true, failing: map[string]bool{}}}
	cases := []struct {
		name         string
		mocked, real []swapCall
		outMocked    map[string]*swapOutcome
		outReal      map[string]*swapOutcome
		cell         Cell
		want         []string
	}{
		{"passes unmocked", []swapCall{shallow}, []swapCall{nested}, green, green, CellPass, nil},
		{"property paths differ", []swapCall{exports("countRows"), shallow}, []swapCall{exports("countRows"), nested}, green, red("expected false to be true"),
			CellFail, []string{`test "gate deploys" (expected false to be true)`, "the mock (test/a.test.ts:3) makes countRows return a promise of { .passed }", "returns a promise of { .details, .details.count, .details.passed, .success }", "the real value has no .passed"}},
		{"sync or async", []swapCall{plain}, []swapCall{nested}, green, red("x.then is not a function"), CellFail, []string{"makes countRows return { .details", "one is a promise, the other not"}},
		{"an export the real module lacks", []swapCall{exports("countRows", "countAll")}, []swapCall{exports("countRows")}, green, red("countAll is not a function"), CellFail, []string{"has the export countAll, which src/m.ts does not export"}},
		{"the mock a part of the real shape", []swapCall{{Export: "countRows", Async: true, Kind: "object", Paths: []string{".details", ".details.passed"}}}, []swapCall{nested}, green, red("expected 2 to be 0"), CellUnknown, []string{"stages a scenario"}},
		{"null where the mock has an object", []swapCall{shallow}, []swapCall{{Export: "countRows", Async: true, Kind: "null"}}, green, red("cannot read properties of null"), CellUnknown, []string{"stages a scenario"}},
		{"an empty array where the mock has items", []swapCall{{Export: "list", Kind: "array", Paths: []string{"[].id"}}}, []swapCall{{Export: "list", Kind: "array"}}, green, red("expected 0 to be 1"), CellUnknown, []string{"stages a scenario"}},
		{"items of another shape", []swapCall{{Export: "list", Kind: "array", Paths: []string{"[].id"}}}, []swapCall{{Export: "list", Kind: "array", Paths: []string{"[].key"}}}, green, red("expected undefined to be 1"), CellFail, []string{"makes list return an array of { [].id }", "the real value has no [].id"}},
		{"an object where the real value is a string", []swapCall{shallow}, []swapCall{{Export: "countRows", Async: true, Kind: "string"}}, green, red("x"), CellFail, []string{"object against string"}},
		{"same shapes, other values", []swapCall{nested}, []swapCall{nested}, green, red("expected 2 to be 0"), CellUnknown, []string{"the mock stages a scenario the real module does not produce for these inputs", "expected 2 to be 0"}},
		{"one shape in common", []swapCall{shallow, nested}, []swapCall{nested}, green, red("expected 2 to be 0"), CellUnknown, []string{"stages a scenario"}},
		{"nothing recorded on both sides", []swapCall{exports("Service")}, []swapCall{exports("Service")}, green, red("expected 2 to be 0"), CellUnknown, []string{"the shapes cannot be compared"}},
		{"red with the mock too", []swapCall{shallow}, []swapCall{nested}, red("boom"), red("boom"), CellUnknown, []string{"fail with the mock too"}},
		{"a service", []swapCall{shallow}, nil, green, red("connect ECONNREFUSED 127.0.0.1:5432"), CellUnknown, []string{"for want of something outside the repository", "ECONNREFUSED"}},
		{"a key", []swapCall{shallow}, nil, green, red("Error: NOTIFY_API_KEY is not set"), CellUnknown, []string{"for want of something outside the repository"}},
		{"does not load", []swapCall{shallow}, nil, green, map[string]*swapOutcome{"test/a.test.ts": {ran: true, loadErr: "SyntaxError: Unexpected token"}}, CellUnknown, []string{"cannot run with the real module: SyntaxError"}},
		{"a module named env does not load", []swapCall{shallow}, nil, green, map[string]*swapOutcome{"test/a.test.ts": {ran: true, loadErr: "Error: Cannot find module '../src/env'"}}, CellUnknown, []string{"the test file cannot run with the real module: Error: Cannot find module '../src/env'"}},
		{"process.env", []swapCall{shallow}, nil, green, red("TypeError: process.env.DATABASE_URL is undefined"), CellUnknown, []string{"for want of something outside the repository"}},
		{"left out of the report", []swapCall{shallow}, nil, green, map[string]*swapOutcome{}, CellUnknown, []string{"did not run unmocked"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &swapMock{test: "test/a.test.ts", module: "src/m.ts", spec: "../src/m", line: 3, endLine: 5}
			for i := range c.mocked {
				c.mocked[i].Tag = "m0"
			}
			recs := [2]map[string][]swapCall{{"m0": c.mocked}, {"r0": c.real}}
			v := swapVerdict([]*swapMock{m}, []int{0}, 0, recs, [2]map[string]*swapOutcome{c.outMocked, c.outReal})
			if v.Cell != c.cell {
				t.Fatalf("cell %s, want %s: %s", v.Cell, c.cell, v.Evidence)
			}
			for _, w := range c.want {
				if !strings.Contains(v.Evidence, w) {
					t.Errorf("evidence %q lacks %q", v.Evidence, w)
				}
			}
			if v.Cell != CellPass && (v.File != "test/a.test.ts" || v.Line != 3) {
				t.Errorf("evidence at %s:%d, want the mock's line", v.File, v.Line)
			}
		})
	}
}

func TestShapeVerdict(t *testing.T) {
	m := &swapMock{test: "test/a.test.ts", module: "src/m.ts", spec: "../src/m", line: 3, endLine: 5}
	cases := []struct {
		name string
		f    Finding
		cell Cell
	}{
		{"in the factory", Finding{Rule: "mock-drift/shape", File: "test/a.test.ts", Line: 4, Message: "the mock of f returns { passed }"}, CellFail},
		{"a setter naming the mock", Finding{Rule: "mock-drift/async", File: "test/a.test.ts", Line: 20, Message: "the mock of f (../src/m) returns a promise"}, CellFail},
		{"a setter on another module", Finding{Rule: "mock-drift/async", File: "test/a.test.ts", Line: 20, Message: "the mock of g (../src/other) returns a promise", Related: []Location{{File: "src/other.ts", Line: 1}}}, CellPass},
		{"ignored", Finding{Rule: "mock-drift/shape", File: "test/a.test.ts", Line: 4, Ignored: "on purpose"}, CellPass},
		{"another file", Finding{Rule: "mock-drift/shape", File: "test/b.test.ts", Line: 4}, CellPass},
		{"another rule", Finding{Rule: "vacuous-test/only", File: "test/a.test.ts", Line: 4}, CellPass},
	}
	for _, c := range cases {
		if v := shapeVerdict(m, []Finding{c.f}); v.Cell != c.cell {
			t.Errorf("%s: %s, want %s", c.name, v.Cell, c.cell)
		}
	}
}

func TestWriteMarkdown(t *testing.T) {
	tb := &Tables{
		Requirements: []RequirementRow{{Manifest: "tickets/T-1.yaml", Operation: "op-1", Function: "src/a.ts#f",
			Implemented: Verdict{Cell: CellPass}, Oracle: Verdict{Cell: CellUnknown, File: "src/__oracles__/f.oracle.test.ts", Evidence: "no oracle"}, Proven: Verdict{Cell: CellFail, File: "src/a.ts", Line: 4, Evidence: "it passes\nwith the guard removed"}}},
		CrossComponent: []CrossRow{{Test: "test/a.test.ts", Module: "src/m.ts", Mock: "../src/m", Line: 3, WithReal: Verdict{Cell: CellPass}, Shape: Verdict{Cell: CellPass}}},
		Integrity:      []IntegrityRow{{Test: "test/a.test.ts", Name: "a | b", Line: 7, Integrity: Verdict{Cell: CellFail, File: "test/a.test.ts", Line: 8, Evidence: "vacuous"}}},
	}
	var b strings.Builder
	if err := tb.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| tickets/T-1.yaml > op-1 | src/a.ts#f | PASS | UNKNOWN | FAIL | [1] [2] |\n",
		"- [1] oracle UNKNOWN at src/__oracles__/f.oracle.test.ts: no oracle\n",
		"- [2] proven FAIL at src/a.ts:4: it passes with the guard removed\n",
		"| test/a.test.ts | src/m.ts | test/a.test.ts:3 | PASS | PASS |  |\n",
		`| test/a.test.ts > a \| b | 7 | FAIL | [3] |` + "\n",
		"- [3] integrity FAIL at test/a.test.ts:8: vacuous\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if !tb.Failed() || tb.Count()[CellPass] != 3 || tb.Count()[CellFail] != 2 || tb.Count()[CellUnknown] != 1 {
		t.Errorf("Failed %v, counts %v", tb.Failed(), tb.Count())
	}
	if got := strings.Join(tb.Failures(), "\n"); got != "requirements traceability: tickets/T-1.yaml > op-1: proven at src/a.ts:4: it passes with the guard removed\nintegration test integrity: test/a.test.ts > a | b: integrity at test/a.test.ts:8: vacuous" {
		t.Errorf("Failures:\n%s", got)
	}
	tb.Requirements = nil
	b.Reset()
	tb.WriteMarkdown(&b)
	if !strings.Contains(b.String(), "No ticket manifest: no requirement to trace.") || strings.Contains(b.String(), "| Requirement |") {
		t.Errorf("without manifests, a requirements table:\n%s", b.String())
	}
}

func TestMarkExpects(t *testing.T) {
	src := `import { expect, it } from "vitest";
it("a", () => {
  expect(1).toBe(1);
  expect.soft(2).toBe(2);
  if (x) expect<number>(f()).toBe(3);
});
`
	f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
	mf := markExpects(4, f, syn, analyzer.TestStructure(syn), nil)
	if mf == nil || len(mf.ids) != 2 {
		t.Fatalf("marked %+v, want the two expect calls", mf)
	}
	got := string(applyRepls(syn.Src(), mf.repls, expectMarker))
	for _, want := range []string{`  __oracleExpect("4:0", 1).toBe(1);`, `  expect.soft(2).toBe(2);`, `  if (x) __oracleExpect<number>("4:2", f()).toBe(3);`, "\nfunction __oracleExpect(id, ...a) {"} {
		if !strings.Contains(got, want) {
			t.Errorf("the marked file lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n")+2 {
		t.Errorf("the lines moved:\n%s", got)
	}
	// Nothing marked where the marker's expect would be another one.
	for _, other := range []string{
		"it(\"a\", () => { expect(1).toBe(1); });\n", // a global expect
		"import { expect, it } from \"vitest\";\nit(\"a\", ({ expect }) => { expect(1).toBe(1); });\n",
		"import { expect as e, it } from \"vitest\";\nit(\"a\", () => { e(1).toBe(1); });\n",
	} {
		f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(other))
		if mf := markExpects(0, f, syn, analyzer.TestStructure(syn), nil); mf != nil {
			t.Errorf("marked %q", other)
		}
	}
}

func TestNeverAsserted(t *testing.T) {
	src := `import { expect, it, describe } from "vitest";
describe("s", () => {
  it("ran", () => { expect(f()).toBe(1); });
  it("never ran", () => { if (x) expect(f()).toBe(1); });
  it("failed", () => { if (x) expect(f()).toBe(1); });
  it("dup", () => { if (x) expect(f()).toBe(1); });
  it("dup", () => { expect(f()).toBe(1); });
  it("helper", () => { if (x) { check(); expect(f()).toBe(1); } });
  it.each([1])("each %s", () => { if (x) expect(f()).toBe(1); });
});
function check() { expect(1).toBe(1); }
`
	f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
	tf := analyzer.TestStructure(syn)
	s := &Suite{Tests: []string{"test/a.test.ts"}, inputs: map[string]*TestInput{"test/a.test.ts": {File: f, Syntax: syn, Structure: tf}}}
	mf := markExpects(0, f, syn, tf, nil)
	asserted := map[string]bool{}
	for ai, a := range tf.Assertions {
		if a.Line == 3 || a.Line == 10 {
			asserted[mf.ids[ai]] = true
		}
	}
	passed := map[string]bool{"s ran": true, "s never ran": true, "s dup": true, "s helper": true, "s each 1": true}
	run := &assertedRun{marks: map[string]*markedFile{"test/a.test.ts": mf}, asserted: asserted,
		outcomes: map[string]*swapOutcome{"test/a.test.ts": {ran: true, passed: passed}}}
	got := s.neverAsserted(run)
	if len(got) != 1 || got[0].Line != 4 || got[0].Rule != "vacuous-test/never-asserted" || !strings.Contains(got[0].Message, `test "never ran" passed, and none of its 1 assertion(s) ran`) {
		t.Errorf("findings %+v, want the one of \"never ran\" at line 4", got)
	}
	if s.neverAsserted(nil) != nil {
		t.Error("findings without a run")
	}
}

// TestNeverAssertedConditional (issue 29: eslint-plugin-vitest's
// no-conditional-expect, by execution): in a test that passed and ran
// some of its assertions, one that never ran is a finding on its line,
// unless its construct (the other branch of its if, the catch of its try)
// asserted on the path taken, or it is a marker of a line never to reach.
func TestNeverAssertedConditional(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		ran        []int // the lines whose assertions ran
		want       []int // the lines of the findings
	}{
		{"a branch not taken", "  expect(f()).toBe(1);\n  if (x) {\n    expect(g()).toBe(2);\n  }\n", []int{3}, []int{5}},
		{"a ternary not taken", "  expect(f()).toBe(1);\n  x ? expect(g()).toBe(2) : null;\n", []int{3}, []int{4}},
		{"a && not taken", "  expect(f()).toBe(1);\n  x && expect(g()).toBe(2);\n", []int{3}, []int{4}},
		{"a callback never called", "  expect(f()).toBe(1);\n  on('e', (m) => expect(m).toBe(2));\n", []int{3}, []int{4}},
		{"a catch never reached", "  expect(f()).toBe(1);\n  try {\n    g();\n  } catch (e) {\n    expect(e).toBeDefined();\n  }\n", []int{3}, []int{7}},
		{"the other branch asserted", "  if (x) {\n    expect(f()).toBe(1);\n  } else {\n    expect(g()).toBe(2);\n  }\n", []int{4}, nil},
		{"a marker of a line never to reach", "  try {\n    g();\n    expect(true).toBe(false);\n  } catch (e) {\n    expect(e).toBeDefined();\n  }\n", []int{7}, nil},
		{"every assertion ran", "  expect(f()).toBe(1);\n  if (x) expect(g()).toBe(2);\n", []int{3, 4}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "import { expect, it } from \"vitest\";\nit(\"t\", () => {\n" + tc.body + "});\n"
			f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
			tf := analyzer.TestStructure(syn)
			s := &Suite{Tests: []string{"test/a.test.ts"}, inputs: map[string]*TestInput{"test/a.test.ts": {File: f, Syntax: syn, Structure: tf}}}
			mf := markExpects(0, f, syn, tf, nil)
			asserted := map[string]bool{}
			for ai, a := range tf.Assertions {
				if slices.Contains(tc.ran, a.Line) {
					asserted[mf.ids[ai]] = true
				}
			}
			run := &assertedRun{marks: map[string]*markedFile{"test/a.test.ts": mf}, asserted: asserted,
				outcomes: map[string]*swapOutcome{"test/a.test.ts": {ran: true, passed: map[string]bool{"t": true}}}}
			var got []int
			for _, x := range s.neverAsserted(run) {
				got = append(got, x.Line)
				if x.Rule != "vacuous-test/never-asserted" || !strings.Contains(x.Message, "never ran (measured)") {
					t.Errorf("finding %+v", x)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings on lines %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSwapVerdictGeneric (nuxt/cli's fetchJson<T>(url): Promise<T>): a
// function declared to return its type parameter returns its data's shape
// (the registry's document), not one of the module: other paths on the
// real side are no drift, the row is UNKNOWN naming why.
func TestSwapVerdictGeneric(t *testing.T) {
	root := writeRepo(t, map[string]string{"src/fetch.ts": "export async function fetchJson<T>(url: string): Promise<T> {\n  return (await fetch(url)).json() as T;\n}\n" +
		"export const read = <T extends object, U = T>(p: string): T => JSON.parse(p);\n" +
		"export function list<T>(xs: T[]): T[] {\n  return xs;\n}\n" +
		"export async function load(id: string): Promise<{ id: string }> {\n  return { id };\n}\n"})
	p, err := callgraph.NewProgram(root)
	if err != nil {
		t.Fatal(err)
	}
	got := genericReturns(p, "src/fetch.ts")
	if len(got) != 2 || got["fetchJson"] != "Promise<T>" || got["read"] != "T" {
		t.Errorf("generic returns %v, want fetchJson and read", got)
	}
	m := &swapMock{test: "test/a.test.ts", module: "src/fetch.ts", spec: "../src/fetch", line: 3, endLine: 5, generic: got}
	mocked := []swapCall{{Tag: "m0", Export: "fetchJson", Async: true, Kind: "object", Paths: []string{".versions", ".versions.1.0.0"}}}
	real := []swapCall{{Tag: "r0", Export: "fetchJson", Async: true, Kind: "object", Paths: []string{".versions", ".versions.0.3.0"}}}
	green := map[string]*swapOutcome{"test/a.test.ts": {ran: true, failing: map[string]bool{}}}
	red := map[string]*swapOutcome{"test/a.test.ts": {ran: true, failed: []failedTest{{"adds", "Cannot read properties of undefined (reading '1')"}}, failing: map[string]bool{"adds": true}}}
	v := swapVerdict([]*swapMock{m}, []int{0}, 0, [2]map[string][]swapCall{{"m0": mocked}, {"r0": real}}, [2]map[string]*swapOutcome{green, red})
	if v.Cell != CellUnknown || !strings.Contains(v.Evidence, "fetchJson is declared to return its type parameter (Promise<T>)") {
		t.Errorf("verdict %s: %s, want UNKNOWN naming fetchJson's type parameter", v.Cell, v.Evidence)
	}
	m.generic = nil
	if v := swapVerdict([]*swapMock{m}, []int{0}, 0, [2]map[string][]swapCall{{"m0": mocked}, {"r0": real}}, [2]map[string]*swapOutcome{green, red}); v.Cell != CellFail {
		t.Errorf("a function of its own shape: %s, want FAIL", v.Cell)
	}
}

// TestSwapCallShapeCapped: a value with hundreds of paths (a module
// namespace a function returns) is named by its first paths and a count,
// so that a footnote stays readable.
func TestSwapCallShapeCapped(t *testing.T) {
	var paths []string
	for i := range 300 {
		paths = append(paths, fmt.Sprintf(".k%03d", i))
	}
	got := swapCall{Kind: "object", Async: true, Paths: paths}.shape()
	if !strings.HasPrefix(got, "a promise of { .k000, .k001,") || !strings.HasSuffix(got, ".k015, … 284 more }") {
		t.Errorf("shape %q", got)
	}
	if got := (swapCall{Kind: "object", Paths: []string{".a", ".b"}}).shape(); got != "{ .a, .b }" {
		t.Errorf("shape %q", got)
	}
}

// TestNeverAssertedFails: an it.fails test reported as passed failed, so
// that its assertions did not all run says nothing.
func TestNeverAssertedFails(t *testing.T) {
	src := "import { expect, it } from \"vitest\";\nit.fails(\"t\", () => {\n  if (x) expect(f()).toBe(1);\n});\n"
	f, syn := analyzer.ParseSyntax("test/a.test.ts", []byte(src))
	tf := analyzer.TestStructure(syn)
	s := &Suite{Tests: []string{"test/a.test.ts"}, inputs: map[string]*TestInput{"test/a.test.ts": {File: f, Syntax: syn, Structure: tf}}}
	mf := markExpects(0, f, syn, tf, nil)
	run := &assertedRun{marks: map[string]*markedFile{"test/a.test.ts": mf}, asserted: map[string]bool{},
		outcomes: map[string]*swapOutcome{"test/a.test.ts": {ran: true, passed: map[string]bool{"t": true}}}}
	if got := s.neverAsserted(run); len(got) != 0 {
		t.Errorf("findings on an it.fails test: %+v", got)
	}
}

// TestIntegrityEachCases (issue 41): a .each test is a row per case, named
// as vitest names it (`name [case k]` when the source does not tell the
// title), each judged on its own: a case whose arguments keep every
// assertion from running is FAIL, the others PASS.
func TestIntegrityEachCases(t *testing.T) {
	src := `import { describe, expect, it, test } from "vitest";
it.each([[1, true], [2, false]])("checks %i", (n, check) => {
  if (check) expect(n).toBe(1);
});
test.each` + "`" + `
  a    | expected
  ${1} | ${"one"}
  ${2} | ${null}
` + "`" + `("names $a", ({ a, expected }) => {
  if (expected === null) return;
  expect(String(a)).toBe(expected);
});
describe.each([["fast"], ["slow"]])("mode %s", (mode) => {
  it("runs", () => {
    expect(mode).toBeTruthy();
  });
  it("only fast asserts", () => {
    mode === "fast" && expect(1).toBe(1);
  });
});
it.each([[1], [2]])(` + "`" + `title ${x}` + "`" + `, (n) => {
  expect(n > 1 ? 1 : 0).toBeDefined();
});
it.each(rows)("not in place %s", (n) => {
  expect(n).toBe(1);
});
it.each([[0], [1]])("a vacuous one %i", (n) => {
  expect(true).toBe(true);
});
it.each([[false]])("rebound %s", (check) => {
  check = !check;
  if (check) expect(1).toBe(1);
});
`
	_, syn := analyzer.ParseSyntax("test/e.test.ts", []byte(src))
	findings := []Finding{{Rule: "vacuous-test/constant-assertion", Severity: Warning, File: "test/e.test.ts", Line: 28, Message: "constants"}}
	rows := integrityIn("test/e.test.ts", syn, analyzer.TestStructure(syn), findings)
	var got []string
	for _, r := range rows {
		s := fmt.Sprintf("%s: %s", r.Name, r.Integrity.Cell)
		if r.Integrity.Cell != CellPass {
			s += fmt.Sprintf(" at %s:%d: %s", r.Integrity.File, r.Integrity.Line, r.Integrity.Evidence)
		}
		got = append(got, s)
	}
	want := []string{
		"checks 1: PASS",
		"checks 2: FAIL at test/e.test.ts:2: the case of line 2 reaches no assertion: `check` at line 3 is false for it (the assertion at line 3)",
		"names 1: PASS",
		"names 2: FAIL at test/e.test.ts:8: the case of line 8 reaches no assertion: `if (expected === null) return` at line 10 returns for it (the assertion at line 11)",
		"mode fast > runs: PASS",
		"mode slow > runs: PASS",
		"mode fast > only fast asserts: PASS",
		"mode slow > only fast asserts: FAIL at test/e.test.ts:13: the case of line 13 reaches no assertion: `mode === \"fast\"` at line 18 is false for it (the assertion at line 18)",
		"(the it.each at line 21) [case 1]: PASS",
		"(the it.each at line 21) [case 2]: PASS",
		"not in place %s: PASS",
		"a vacuous one 0: FAIL at test/e.test.ts:28: vacuous-test/constant-assertion: constants",
		"a vacuous one 1: FAIL at test/e.test.ts:28: vacuous-test/constant-assertion: constants",
		"rebound false: PASS",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
