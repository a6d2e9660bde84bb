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
		{"constant and real", `it("a", () => { expect(true).toBe(true); expect(f()).toBe(1); });`, nil},
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
		{"committed only", `it.only("a", () => { expect(f()).toBe(1); });`, []string{"vacuous-test/only:1"}},
		{"assertion in a callback", `it("a", () => { [1, 2].forEach((x) => expect(f(x)).toBeGreaterThan(0)); });`, nil},
		{"a table test on constants", "it.each([[1], [2]])(\"a %i\", (n) => {\n  expect(1).toBe(1);\n});", []string{"vacuous-test/constant-assertion:1"}},
		{"a table test on its rows", "test.each([[1], [2]])(\"a %i\", (n) => {\n  expect(f(n)).toBe(n);\n});", nil},
		{"a committed describe.only and fit", "describe.only(\"s\", () => {\n  fit(\"a\", () => { expect(f()).toBe(1); });\n});", []string{"vacuous-test/only:1", "vacuous-test/only:2"}},
		{"a skipped test is not checked", `it.skip("a", () => {}); xit("b", () => {});`, nil},
		{"a hook's assertions are not the test's", "beforeEach(() => { expect(f()).toBe(1); });\nit(\"a\", () => { g(); });", []string{"vacuous-test/no-assertion:2"}},
		{"a benchmark is not a test", `bench("a", () => { f(); });`, nil},
		{"an event callback that settles an awaited promise", "it(\"a\", async () => {\n  await new Promise<void>((resolve) => {\n    bus.once(\"e\", (m) => { expect(m).toBe(1); resolve(); });\n  });\n});", nil},
		{"a timer callback that settles a promise awaited later", "it(\"a\", async () => {\n  const p = new Promise<void>(resolve => {\n    setTimeout(() => { expect(f()).toBe(1); resolve(); }, 5);\n  });\n  await p;\n});", nil},
		{"an event callback in a promise it does not settle", "it(\"a\", async () => {\n  await new Promise<void>((resolve) => {\n    bus.once(\"e\", (m) => { expect(m).toBe(1); });\n    resolve();\n  });\n});", []string{"vacuous-test/unchecked-callback:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, syn := analyzer.ParseSyntax("a.test.ts", []byte(tc.src))
			var got []string
			for _, f := range vacuousIn("a.test.ts", syn, analyzer.TestStructure(syn), map[string]bool{"vacuous-test/no-assertion": true}) {
				got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
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
