package gate

// Refactors are not new code; every replaced token gets its revert (issue
// 41; SPEC "oracle gate", the change's own code). A change that changes
// no behaviour has no mutant: an exported function nothing reads,
// deleted; a local renamed; a function moved within its file: each SKIP,
// where each was FAIL (a Revert or an operator's mutant "surviving"). A
// changed literal an operator mutates too keeps its revert: `* 1.2` →
// `* 1.25` tested only by `> 20` is FAIL (was PASS 100%), the old value
// restored surviving.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func TestGateRefactor(t *testing.T) {
	price := "export function total(price: number, qty: number): number {\n  const gross = price * qty;\n  return gross * 1.2;\n}\n"
	priceTest := "import { expect, it } from \"vitest\";\nimport { total } from \"../src/price\";\nit(\"adds the tax\", () => {\n  expect(total(10, 2)).toBeGreaterThan(20);\n});\n"
	twoFns := "export function net(price: number): number {\n  if (price > 100) {\n    return price - 10;\n  }\n  return price;\n}\n\nexport function double(n: number): number {\n  return n * 2;\n}\n"
	moved := "export function double(n: number): number {\n  return n * 2;\n}\n\nexport function net(price: number): number {\n  if (price > 100) {\n    return price - 10;\n  }\n  return price;\n}\n"
	twoTest := "import { expect, it } from \"vitest\";\nimport { net, double } from \"../src/price\";\nit(\"nets\", () => {\n  expect(net(50)).toBe(50);\n  expect(double(2)).toBeGreaterThan(0);\n});\n"
	cart := "export class Cart {\n  total = 0;\n  add(price: number): this {\n    if (price > 0) {\n      this.total += price;\n    }\n    return this;\n  }\n  clear(): this {\n    this.total = 0;\n    return this;\n  }\n}\n"
	cartMoved := "export class Cart {\n  total = 0;\n  clear(): this {\n    this.total = 0;\n    return this;\n  }\n  add(price: number): this {\n    if (price > 0) {\n      this.total += price;\n    }\n    return this;\n  }\n}\n"
	cartTest := "import { expect, it } from \"vitest\";\nimport { Cart } from \"../src/price\";\nit(\"adds\", () => {\n  expect(new Cart().add(2).clear().total).toBeGreaterThanOrEqual(0);\n});\n"
	for _, tc := range []struct {
		name       string
		base, head map[string]string
		code       int
		verdict    string
		reason     string   // what the reason holds
		mutants    []string // "target operator replacement outcome", in order
	}{
		{name: "an exported function nothing reads, deleted: SKIP (was FAIL, its Revert surviving)",
			base: map[string]string{"src/price.ts": twoFns, "test/price.test.ts": strings.Replace(strings.Replace(twoTest, ", double", "", 1), "  expect(double(2)).toBeGreaterThan(0);\n", "", 1)},
			head: map[string]string{"src/price.ts": strings.Replace(twoFns, "\nexport function double(n: number): number {\n  return n * 2;\n}\n", "", 1)},
			code: 0, verdict: "SKIP", reason: "changes no behaviour"},
		{name: "a local renamed, binding and uses: SKIP (was FAIL, operators on the renamed expression)",
			base: map[string]string{"src/price.ts": price, "test/price.test.ts": strings.Replace(priceTest, "toBeGreaterThan(20)", "toBeGreaterThan(0)", 1)},
			head: map[string]string{"src/price.ts": strings.ReplaceAll(price, "gross", "subtotal")},
			code: 0, verdict: "SKIP", reason: "changes no behaviour"},
		{name: "a function moved within its file: SKIP (was FAIL, gated as written anew)",
			base: map[string]string{"src/price.ts": twoFns, "test/price.test.ts": twoTest},
			head: map[string]string{"src/price.ts": moved},
			code: 0, verdict: "SKIP", reason: "changes no behaviour"},
		{name: "a method moved within its class: SKIP (was FAIL, gated as written anew)",
			base: map[string]string{"src/price.ts": cart, "test/price.test.ts": cartTest},
			head: map[string]string{"src/price.ts": cartMoved},
			code: 0, verdict: "SKIP", reason: "method Cart.add moved"},
		{name: "a changed literal tested by `> 20` only: its revert 1.25 → 1.2 survives, FAIL (was PASS 100%)",
			base: map[string]string{"src/price.ts": price, "test/price.test.ts": priceTest},
			head: map[string]string{"src/price.ts": strings.Replace(price, "1.2;", "1.25;", 1)},
			code: 1, verdict: "FAIL",
			mutants: []string{"src/price.ts#total ArithmeticOperator / killed", "src/price.ts#total InlineConstant 1 killed", "src/price.ts#total Revert 1.2 survived"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGateRepo(t, MergeFiles(map[string]string{".gitignore": "node_modules\n"}, tc.base))
			g.Commit("change", tc.head)
			code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", g.Dir)
			var r struct {
				Verdict, Reason string
				Notes           []string
				Mutants         []struct{ Target, MutatorName, Replacement, Outcome string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
			}
			var mutants []string
			for _, m := range r.Mutants {
				mutants = append(mutants, fmt.Sprintf("%s %s %s %s", m.Target, m.MutatorName, m.Replacement, m.Outcome))
			}
			if code != tc.code || r.Verdict != tc.verdict || !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("exit %d %s %q, want exit %d %s (%q)\nnotes %q\nmutants %q\n%s", code, r.Verdict, r.Reason, tc.code, tc.verdict, tc.reason, r.Notes, mutants, errs)
			}
			if !slices.Equal(mutants, tc.mutants) {
				t.Errorf("mutants\n%s\nwant\n%s", strings.Join(mutants, "\n"), strings.Join(tc.mutants, "\n"))
			}
		})
	}
}
