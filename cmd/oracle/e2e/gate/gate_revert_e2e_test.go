package gate

// A change no operator mutates on executed code (bench/trial26-27.md
// finding 5; issue 27 items 1-2): a statement deleted, a constructor or a
// callee replaced. Each gets a revert mutant, the base's code restored
// there: its tests still passing, nothing pins the change (was SKIP "no
// mutant could be built", exit 0). Every mutant is applied by hand (its
// diff, with git apply) and the suite run with vitest: the same outcome.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func TestGateRevert(t *testing.T) {
	nm := V4(t).NodeModules
	cart := "export interface Cart { items: string[]; total: number }\nexport function add(cart: Cart, item: string, price: number): Cart {\n  cart.items.push(item);\n  cart.total += price;\n  return cart;\n}\n"
	cartTest := func(assert string) string {
		return "import { expect, it } from \"vitest\";\nimport { add } from \"../src/cart\";\nit(\"adds\", () => {\n  const c = add({ items: [], total: 0 }, \"a\", 3);\n  expect(c.items).toEqual([\"a\"]);\n" + assert + "});\n"
	}
	query := "const EmptyObject = /* @__PURE__ */ (() => {\n  const C = function () {};\n  C.prototype = Object.create(null);\n  return C;\n})() as unknown as { new (): any };\n\nexport function parseQuery(input: string): Record<string, string> {\n  const object: Record<string, string> = new EmptyObject();\n  for (const pair of input.split(\"&\")) {\n    const [k, v] = pair.split(\"=\");\n    object[k] = v;\n  }\n  return object;\n}\n"
	queryHead := strings.Replace(strings.Replace(query, "new EmptyObject()", "Object.create(null)", 1),
		"const EmptyObject = /* @__PURE__ */ (() => {\n  const C = function () {};\n  C.prototype = Object.create(null);\n  return C;\n})() as unknown as { new (): any };\n",
		"// const EmptyObject = /* @__PURE__ */ (() => {\n//   const C = function () {};\n//   C.prototype = Object.create(null);\n//   return C;\n// })() as unknown as { new (): any };\n", 1)
	queryTest := func(assert string) string {
		return "import { expect, it } from \"vitest\";\nimport { parseQuery } from \"../src/query\";\nit(\"parses\", () => {\n  const q = parseQuery(\"a=1&b=2\");\n  expect(q.a).toBe(\"1\");\n" + assert + "});\n"
	}
	own := "export function copy(input: Record<string, unknown>): Record<string, unknown> {\n  const out: Record<string, unknown> = {};\n  for (const key in input) {\n    out[key] = input[key];\n  }\n  return out;\n}\n"
	ownTest := func(more string) string {
		return "import { expect, it } from \"vitest\";\nimport { copy } from \"../src/merge\";\nit(\"copies\", () => {\n  expect(copy({ a: 1 })).toEqual({ a: 1 });\n});\n" + more
	}
	inherited := "it(\"ignores inherited keys\", () => {\n  const input = Object.create({ inherited: 1 });\n  input.own = 2;\n  expect(Object.keys(copy(input))).toEqual([\"own\"]);\n});\n"
	for _, tc := range []struct {
		name       string
		base, head map[string]string
		code       int
		verdict    string
		mutants    []string // "target operator outcome", in order
	}{
		{name: "a statement deleted, no test sees it: the deletion reverted survives (was SKIP)",
			base: map[string]string{"src/cart.ts": cart, "test/cart.test.ts": cartTest("")},
			head: map[string]string{"src/cart.ts": strings.Replace(cart, "  cart.total += price;\n", "", 1)},
			code: 1, verdict: "FAIL",
			mutants: []string{"src/cart.ts#add Revert survived"}},
		{name: "a statement deleted, a test pins the new total: the revert is killed",
			base: map[string]string{"src/cart.ts": cart, "test/cart.test.ts": cartTest("  expect(c.total).toBe(0);\n")},
			head: map[string]string{"src/cart.ts": strings.Replace(cart, "  cart.total += price;\n", "", 1)},
			code: 0, verdict: "PASS",
			mutants: []string{"src/cart.ts#add Revert killed"}},
		{name: "new EmptyObject() replaced by Object.create(null) (ufo 31ea74c): every replaced token gets its revert (SPEC), the deleted class restored with it; no test tells them apart: it survives (was SKIP, no mutant)",
			base: map[string]string{"src/query.ts": query, "test/query.test.ts": queryTest("")},
			head: map[string]string{"src/query.ts": queryHead},
			code: 1, verdict: "FAIL",
			mutants: []string{"src/query.ts#parseQuery Revert survived"}},
		{name: "for-in replaced by for-of over own keys (defu 11ba022), the commit's test of inherited keys: the old header restored is killed (was SKIP, no mutant)",
			base: map[string]string{"src/merge.ts": own, "test/merge.test.ts": ownTest("")},
			head: map[string]string{"src/merge.ts": strings.Replace(own, "in input", "of Object.keys(input)", 1), "test/merge.test.ts": ownTest(inherited)},
			code: 0, verdict: "PASS",
			mutants: []string{"src/merge.ts#copy Revert killed"}},
		{name: "for-in replaced by for-of over own keys, no test of inherited keys: the revert survives",
			base: map[string]string{"src/merge.ts": own, "test/merge.test.ts": ownTest("")},
			head: map[string]string{"src/merge.ts": strings.Replace(own, "in input", "of Object.keys(input)", 1)},
			code: 1, verdict: "FAIL",
			mutants: []string{"src/merge.ts#copy Revert survived"}},
		{name: "an exported function renamed with its caller and test: the caller's revert would import the old name, gone (a TypeError, no kill): none, SKIP (was PASS 100% on that false kill)",
			base: map[string]string{"src/sum.ts": "export function total(xs: number[]): number {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s;\n}\n",
				"src/mean.ts":    "import { total } from \"./sum\";\nexport function mean(xs: number[]): number {\n  return xs.length ? total(xs) / xs.length : 0;\n}\n",
				"test/m.test.ts": "import { expect, it } from \"vitest\";\nimport { mean } from \"../src/mean\";\nimport { total } from \"../src/sum\";\nit(\"means\", () => {\n  expect(mean([1, 2, 3])).toBe(2);\n  expect(total([1, 2])).toBe(3);\n});\n"},
			head: map[string]string{"src/sum.ts": "export function sum(xs: number[]): number {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s;\n}\n",
				"src/mean.ts":    "import { sum } from \"./sum\";\nexport function mean(xs: number[]): number {\n  return xs.length ? sum(xs) / xs.length : 0;\n}\n",
				"test/m.test.ts": "import { expect, it } from \"vitest\";\nimport { mean } from \"../src/mean\";\nimport { sum } from \"../src/sum\";\nit(\"means\", () => {\n  expect(mean([1, 2, 3])).toBe(2);\n  expect(sum([1, 2])).toBe(3);\n});\n"},
			code: 0, verdict: "SKIP"},
		{name: "a logging call deleted: arid, no revert: SKIP, no mutant",
			base: map[string]string{"src/cart.ts": strings.Replace(cart, "  cart.total += price;\n", "  cart.total += price;\n  console.log(cart.total);\n", 1), "test/cart.test.ts": cartTest("")},
			head: map[string]string{"src/cart.ts": cart},
			code: 0, verdict: "SKIP"},
		{name: "a top-level statement deleted: <module>, the statement put back survives (was SKIP)",
			base: map[string]string{"src/names.ts": "export const names: string[] = [];\nnames.push(\"a\");\nnames.push(\"b\");\n",
				"test/names.test.ts": "import { expect, it } from \"vitest\";\nimport { names } from \"../src/names\";\nit(\"has a\", () => {\n  expect(names).toContain(\"a\");\n});\n"},
			head: map[string]string{"src/names.ts": "export const names: string[] = [];\nnames.push(\"a\");\n"},
			code: 1, verdict: "FAIL",
			mutants: []string{"src/names.ts#<module> Revert survived"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Repo{T: t, Dir: t.TempDir()}
			if err := os.Symlink(nm, filepath.Join(g.Dir, "node_modules")); err != nil {
				t.Fatal(err)
			}
			g.Git("init", "-q")
			base := map[string]string{".gitignore": "node_modules\n", "package.json": `{"name":"revert","private":true,"type":"module"}`}
			for f, s := range tc.base {
				base[f] = s
			}
			g.Commit("base", base)
			g.Commit("change", tc.head)
			outDir := t.TempDir()
			report, page := filepath.Join(outDir, "report.json"), filepath.Join(outDir, "gate.html")
			code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--report", report, "--html", page, "--root", g.Dir)
			var r struct {
				Verdict, Reason string
				Notes           []string
				Mutants         []struct {
					Target, File, MutatorName, Replacement, Outcome, Diff string
				}
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
			}
			var mutants []string
			for _, m := range r.Mutants {
				mutants = append(mutants, fmt.Sprintf("%s %s %s", m.Target, m.MutatorName, m.Outcome))
			}
			if code != tc.code || r.Verdict != tc.verdict {
				t.Errorf("exit %d %s %q, want exit %d %s\nnotes %q\n%s", code, r.Verdict, r.Reason, tc.code, tc.verdict, r.Notes, errs)
			}
			if !slices.Equal(mutants, tc.mutants) {
				t.Errorf("mutants\n%s\nwant\n%s", strings.Join(mutants, "\n"), strings.Join(tc.mutants, "\n"))
			}
			if len(tc.mutants) == 0 {
				return
			}
			// The report and the page carry it: its mutatorName is one the
			// mutation-testing-report schema accepts.
			ValidateReport(t, report)
			var doc struct {
				Files map[string]struct {
					Mutants []struct{ MutatorName string }
				}
			}
			b, _ := os.ReadFile(report)
			json.Unmarshal(b, &doc)
			var names []string
			for _, f := range doc.Files {
				for _, m := range f.Mutants {
					names = append(names, m.MutatorName)
				}
			}
			if !slices.Equal(names, []string{"Revert"}) {
				t.Errorf("the report's mutants are %q, want one Revert", names)
			}
			if b, _ := os.ReadFile(page); !strings.Contains(string(b), "Revert") {
				t.Error("the page has no Revert mutant")
			}
			for _, m := range r.Mutants {
				// The mutant applied by hand: its diff, with git apply.
				patch := filepath.Join(t.TempDir(), "m.diff")
				os.WriteFile(patch, []byte(m.Diff), 0o644)
				g.Git("apply", patch)
				vr := RunVitest(t, V4(t).Node, g.Dir)
				g.Git("checkout", "--", ".")
				byHand := "killed"
				if vr.Failures() == "" && vr.NumPassedTests > 0 {
					byHand = "survived"
				}
				if byHand != m.Outcome {
					t.Errorf("%s %s: the gate says %s, by hand it is %s\n%s", m.Target, m.MutatorName, m.Outcome, byHand, m.Diff)
				}
			}
			if st, _ := exec.Command("git", "-C", g.Dir, "status", "--porcelain").Output(); len(st) > 0 {
				t.Errorf("the checkout changed:\n%s", st)
			}
		})
	}
}
