package audit

import (
	"strconv"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/analyzer"
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
		{"committed only", `it.only("a", () => { expect(f()).toBe(1); });`, []string{"vacuous-test/only:1"}},
		{"assertion in a callback", `it("a", () => { [1, 2].forEach((x) => expect(f(x)).toBeGreaterThan(0)); });`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, syn := analyzer.ParseSyntax("a.test.ts", []byte(tc.src))
			var got []string
			for _, f := range vacuousIn("a.test.ts", syn, map[string]bool{"vacuous-test/no-assertion": true}) {
				got = append(got, f.Rule+":"+strconv.Itoa(f.Line))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
