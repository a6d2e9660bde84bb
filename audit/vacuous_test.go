package audit

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/change"
)

// TestVacuousTest: a table of finding / no finding per sub-rule.
func TestVacuousTest(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "rule:line"
	}{
		{"asserting test", `it("a", () => { expect(f(1)).toBe(2); });`, nil},
		{"no assertion", `it("a", async () => { await f(1); });`, []string{"vacuous-test/no-assertion:1"}},
		{"assertion through a helper", "function check(x) { expect(x).toBe(1); }\nit(\"a\", () => { check(f()); });", nil},
		{"assertion through a helper of a helper", "const inner = (x) => expect(x).toBe(1);\nfunction check(x) { inner(x); }\nit(\"a\", () => { check(f()); });", nil},
		{"assert style", `test("a", () => { assert.equal(f(), 1); });`, nil},
		{"assertions after a return", "it(\"a\", () => {\n  return;\n  expect(f()).toBe(1);\n});", []string{"vacuous-test/no-assertion:1"}},
		{"constants only", `it("a", () => { expect(true).toBe(true); expect(1).toEqual(1); });`, []string{"vacuous-test/constant-assertion:1"}},
		{"constant and real (issue 20 item 6: info on the constant's line)", "it(\"a\", () => {\n  expect(true).toBe(true);\n  expect(f()).toBe(1);\n});", []string{"vacuous-test/constant-assertion:2:info"}},
		{"a failing constant among real ones marks a line never to reach", "it(\"a\", () => {\n  if (f()) expect(true).toBe(false);\n  expect(g()).toBe(1);\n});", nil},
		// item 5: self-comparison
		{"self-comparison toBe", "it(\"a\", () => {\n  const x = f();\n  expect(x).toBe(x);\n});", []string{"vacuous-test/self-comparison:3"}},
		{"self-comparison toEqual of a member", "it(\"a\", () => {\n  const r = f();\n  expect(g()).toBe(1);\n  expect(r.items).toEqual(r .items);\n});", []string{"vacuous-test/self-comparison:4"}},
		{"a getter's identity is a real check", `it("a", () => { const s = f(); expect(s.token).toBe(s.token); });`, nil},
		{"the same call twice is a determinism check", `it("a", () => { expect(f(1)).toEqual(f(1)); });`, nil},
		{"a negated self-comparison fails", `it("a", () => { const x = f(); expect(x).not.toBe(x); });`, nil},
		// item 7: swallowed by assignment
		{"the error recorded and never read", "it(\"a\", () => {\n  let lastError;\n  try {\n    expect(f()).toBe(1);\n  } catch (error) {\n    lastError = error;\n  }\n  expect(g()).toBe(2);\n});", []string{"vacuous-test/swallowed-assertion:3"}},
		{"the error recorded and read", "it(\"a\", () => {\n  let lastError;\n  try {\n    expect(f()).toBe(1);\n  } catch (error) {\n    lastError = error;\n  }\n  expect(lastError).toBeUndefined();\n});", nil},
		// item 8: callbacks that may never run
		{"an iteration of an array built empty", "it(\"a\", () => {\n  const items: number[] = [];\n  items.forEach((x) => expect(f(x)).toBe(1));\n});", []string{"vacuous-test/unchecked-callback:1"}},
		{"an iteration of a literal empty array", `it("a", () => { [].map((x) => expect(f(x)).toBe(1)); });`, []string{"vacuous-test/unchecked-callback:1"}},
		{"an iteration of an array that is filled", "it(\"a\", () => {\n  const items: number[] = [];\n  items.push(1);\n  items.forEach((x) => expect(f(x)).toBe(1));\n});", nil},
		{"a callback option never checked", `it("a", async () => { await run({ onDone: (r) => { expect(r).toBe(1); } }); });`, []string{"vacuous-test/unchecked-callback:1"}},
		{"a callback option behind a cast", `it("a", async () => { await run({ onDone: (r) => { expect(r).toBe(1); } } as any); });`, []string{"vacuous-test/unchecked-callback:1"}},
		{"a callback option, counted", `it("a", async () => { expect.assertions(1); await run({ onDone(r) { expect(r).toBe(1); } }); });`, nil},
		{"a callback option that settles the awaited promise", `it("a", async () => { await new Promise<void>((resolve) => run({ onDone: (r) => { expect(r).toBe(1); resolve(); } })); });`, nil},
		{"a callback option of vitest's own API", `it("a", async () => { await vi.waitFor({ check: () => { expect(f()).toBe(1); } }); });`, nil},
		{"a callback option of jest's own API", `it("a", async () => { await jest.isolateModulesAsync({ run: async () => { expect(f()).toBe(1); } }); });`, nil},
		{"a callback option beside a real assertion", `it("a", async () => { const r = await run({ onDone: (x) => { expect(x).toBe(1); } }); expect(r).toBe(2); });`, nil},
		// item 9: type tests are not no-assertion
		{"a type test", "it(\"types\", () => {\n  // @ts-expect-error\n  f(\"x\");\n});", nil},
		{"missing matcher", "it(\"a\", () => {\n  expect(f());\n  expect(g()).toBe(1);\n});", []string{"vacuous-test/missing-matcher:2"}},
		{"swallowed assertion", "it(\"a\", () => {\n  try {\n    expect(f()).toBe(1);\n  } catch (e) {\n    console.log(e);\n  }\n});", []string{"vacuous-test/swallowed-assertion:2"}},
		{"catch that rethrows", "it(\"a\", () => {\n  try {\n    expect(f()).toBe(1);\n  } catch (e) {\n    throw e;\n  }\n});", nil},
		{"catch that asserts the error", "it(\"a\", () => {\n  try {\n    f();\n    expect.fail(\"no throw\");\n  } catch (e) {\n    expect(e).toBeInstanceOf(Error);\n  }\n});", nil},
		{"a catch that records the error for a later assertion", "it(\"a\", () => {\n  const failures = [];\n  try { check(1); } catch (err) { failures.push(err); }\n  expect(failures).toEqual([]);\n});\nfunction check(x) { expect(x).toBe(1); }", nil},
		{"a type-level assertion helper", `test("a", () => { util.assertEqual<A, B>(true); });`, nil},
		{"assertions only in a then callback", `it("a", () => { f().then((r) => { expect(r).toBe(1); }); });`, []string{"vacuous-test/unchecked-callback:1"}},
		{"the same, counted", `it("a", () => { expect.assertions(1); return f().then((r) => { expect(r).toBe(1); }); });`, nil},
		{"a callback that runs", `it("a", () => { [1].forEach((x) => expect(f(x)).toBe(1)); });`, nil},
		{"an awaited then", `it("a", async () => { await f().then((r) => { expect(r).toBe(1); }); });`, nil},
		{"committed only", `it.only("a", () => { expect(f()).toBe(1); });`, []string{"vacuous-test/only:1:error"}},
		{"assertion in a callback", `it("a", () => { [1, 2].forEach((x) => expect(f(x)).toBeGreaterThan(0)); });`, nil},
		{"a table test on constants", "it.each([[1], [2]])(\"a %i\", (n) => {\n  expect(1).toBe(1);\n});", []string{"vacuous-test/constant-assertion:1"}},
		{"a table test on its rows", "test.each([[1], [2]])(\"a %i\", (n) => {\n  expect(f(n)).toBe(n);\n});", nil},
		{"a committed describe.only and fit", "describe.only(\"s\", () => {\n  fit(\"a\", () => { expect(f()).toBe(1); });\n});", []string{"vacuous-test/only:1:error", "vacuous-test/only:2:error"}},
		{"a skipped test is not checked", `it.skip("a", () => {}); xit("b", () => {});`, nil},
		{"a hook's assertions are not the test's", "beforeEach(() => { expect(f()).toBe(1); });\nit(\"a\", () => { g(); });", []string{"vacuous-test/no-assertion:2"}},
		{"a benchmark is not a test", `bench("a", () => { f(); });`, nil},
		{"an event callback that settles an awaited promise", "it(\"a\", async () => {\n  await new Promise<void>((resolve) => {\n    bus.once(\"e\", (m) => { expect(m).toBe(1); resolve(); });\n  });\n});", nil},
		{"a timer callback that settles a promise awaited later", "it(\"a\", async () => {\n  const p = new Promise<void>(resolve => {\n    setTimeout(() => { expect(f()).toBe(1); resolve(); }, 5);\n  });\n  await p;\n});", nil},
		// issue 29: eslint-plugin-vitest's no-standalone-expect
		{"an expect at the top level", "expect(f()).toBe(1);\nit(\"a\", () => { expect(g()).toBe(2); });", []string{"vacuous-test/standalone-expect:1"}},
		{"an expect in a describe body", "describe(\"s\", () => {\n  expect(f()).toBe(1);\n  it(\"a\", () => { expect(g()).toBe(2); });\n});", []string{"vacuous-test/standalone-expect:2"}},
		{"an expect in a describe.each body", "describe.each([1])(\"s %i\", (n) => {\n  expect(f(n)).toBe(1);\n  it(\"a\", () => { expect(g()).toBe(2); });\n});", []string{"vacuous-test/standalone-expect:2"}},
		{"an expect in a helper, a hook or a test is not standalone", "function check(x) { expect(x).toBe(1); }\nconst c2 = (x) => expect(x).toBe(2);\ndescribe(\"s\", () => {\n  beforeEach(() => { expect(f()).toBe(1); });\n  it(\"a\", () => { check(g()); c2(g()); });\n});", nil},
		{"expect.hasAssertions at the top level is no assertion", "expect.hasAssertions();\nit(\"a\", () => { expect(g()).toBe(2); });", nil},
		{"an event callback in a promise it does not settle", "it(\"a\", async () => {\n  await new Promise<void>((resolve) => {\n    bus.once(\"e\", (m) => { expect(m).toBe(1); });\n    resolve();\n  });\n});", []string{"vacuous-test/unchecked-callback:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, syn := analyzer.ParseSyntax("a.test.ts", []byte(tc.src))
			var got []string
			for _, f := range vacuousIn("a.test.ts", syn, analyzer.TestStructure(syn), map[string]bool{"vacuous-test/no-assertion": true}) {
				g := f.Rule + ":" + strconv.Itoa(f.Line)
				if f.Severity != Warning {
					g += ":" + string(f.Severity)
				}
				got = append(got, g)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSkippedTestsOfAChange: with a change (--base), a .skip/.todo in a
// test file that runs a touched function is an error; without, nothing.
func TestSkippedTestsOfAChange(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"src/a.ts":       "export function f() {\n  return 1;\n}\nexport function g() {\n  return 2;\n}\n",
		"test/a.test.ts": "import { it, expect } from 'vitest';\nimport { f } from '../src/a';\nit('f', () => { expect(f()).toBe(1); });\nit.skip('f later', () => { expect(f()).toBe(2); });\n",
	})
	for _, tc := range []struct {
		name   string
		change change.Change
		want   int
	}{
		{"f touched", change.Change{"src/a.ts": {{2, 2}}}, 1},
		{"only g touched", change.Change{"src/a.ts": {{5, 5}}}, 0},
		{"no change", nil, 0},
	} {
		rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}, Change: tc.change})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range rep.Findings {
			if f.Rule == "vacuous-test/skipped" && f.Severity == Error && f.Line == 4 {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("%s: %d skipped findings, want %d: %+v", tc.name, n, tc.want, rep.Findings)
		}
	}
}

// TestNoAssertionSeesImportedHelpers (issue 20 item 9): with no-assertion
// enabled, a test asserting through a helper of an imported module asserts.
func TestNoAssertionSeesImportedHelpers(t *testing.T) {
	for _, tc := range []struct {
		name, helper string
		want         int
	}{
		{"the helper asserts", "import { expect } from 'vitest';\nexport function expectValid(x: unknown) {\n  expect(x).toBeTruthy();\n}\n", 0},
		{"the helper does not assert", "export function expectValid(x: unknown) {\n  console.log(x);\n}\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{
				"src/a.ts":        "export function f() {\n  return 1;\n}\n",
				"test/helpers.ts": tc.helper,
				"test/a.test.ts":  "import { it } from 'vitest';\nimport { f } from '../src/a';\nimport { expectValid } from './helpers';\nimport * as h from './helpers';\nit('named', () => { expectValid(f()); });\nit('namespace', () => { h.expectValid(f()); });\n",
			})
			rep, err := Audit(context.Background(), root, Options{Tests: []string{"test/a.test.ts"}, Fixtures: []string{"test/helpers.ts"}, Enable: []string{"vacuous-test/no-assertion"}})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range rep.Findings {
				if f.Rule == "vacuous-test/no-assertion" {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d no-assertion findings, want %d: %+v", n, tc.want, rep.Findings)
			}
		})
	}
}
