package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestAuditJest (issue 45): audit on a repository whose tests run on jest (ts-jest)
// measures its tests with jest's runner: a function its test file loads and never runs,
// and one reached only through a jest.mock, are blind-function (measured); a test that
// asserts nothing is found (and fails its integrity cell: exit 1); a jest.mock factory
// whose jest.fn returns a promise for a sync function is mock-drift/async; the report says
// what reads jest's tests, and --tables has a cross-component row per jest.mock (their swap:
// TestAuditJestMockSwap); its requirement's cells are decided as anywhere: implemented
// PASS, oracle FAIL (none is committed: gen would write a jest oracle), proven PASS (that
// oracle, run on jest in the sandbox, passes on the code and fails with the guard removed).
// Nothing is written in the repository.
func TestAuditJest(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/price.ts": "export function price(n: number, vip: boolean): number {\n  if (vip) {\n    return n * 0.9;\n  }\n  return n;\n}\nexport function tax(n: number): number {\n  return n * 0.2;\n}\n",
		"src/order.ts": "import { ship } from \"./ship\";\nexport function order(n: number, opts: { quick?: boolean }): number {\n  if (!opts.quick) ship(n);\n  return n + 1;\n}\n",
		"src/ship.ts":  "export function ship(n: number): number {\n  return n + 5;\n}\n",
		"src/rate.ts":  "export function rate(n: number): number {\n  return n * 0.2;\n}\n",
		"src/bill.ts":  "import { rate } from \"./rate\";\nexport function bill(n: number): number {\n  return n + rate(n);\n}\n",
		"test/bill.test.ts": "import { bill } from \"../src/bill\";\njest.mock(\"../src/rate\", () => ({ rate: jest.fn(async () => 1) }));\n\n" +
			"it(\"bills\", () => {\n  expect(bill(3)).toBeDefined();\n});\n",
		"test/price.test.ts": "import { price } from \"../src/price\";\n\nit(\"discounts vips\", () => {\n  expect(price(100, true)).toBe(90);\n});\n\n" +
			"it(\"does nothing\", () => {\n  price(1, false);\n});\n",
		"test/order.test.ts": "import { order } from \"../src/order\";\njest.mock(\"../src/ship\", () => ({ ship: jest.fn(() => 1) }));\n\nit(\"orders\", () => {\n  expect(order(3, {})).toBe(4);\n});\n",
		"tickets/T-1.yaml":   "ticket: T-1\noperations:\n  - kind: conditional-skip\n    function: src/order.ts#order\n    flag: opts.quick\n    wrap: ship\n    args: [3, {}]\n",
	})
	before := TreeHash(t, g.Dir)
	tables := filepath.Join(t.TempDir(), "tables.md")
	code, out, errs := Oracle(t, "audit", "--enable", "vacuous-test/no-assertion", "--tables", tables, "--root", g.Dir)
	if code != ExitFail || !strings.Contains(out, "FAIL integration test integrity: test/price.test.ts > does nothing") {
		t.Fatalf("exit %d, want 1 for the vacuous test's integrity FAIL:\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"src/price.ts:7 tax: no test executes it (measured): loaded by test/price.test.ts, which does not run it",
		"src/ship.ts:1 ship: no test executes it (measured): reached only through jest.mock(\"../src/ship\") at test/order.test.ts:2",
		"test/price.test.ts:7 test \"does nothing\" asserts nothing",
		"note: this repository's tests run on jest (package.json \"jest\"): blind-function, the vacuous-test rules, mock-drift (its jest.mock factories, jest.fn and jest.mocked implementations) and the cross-component table's mock swap (its jest.mock calls, run on jest) read and run its tests",
		"test/bill.test.ts:2 the mock of rate (../src/rate) returns a promise, but src/rate.ts#rate is synchronous (src/rate.ts:1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "src/price.ts:1 price") || strings.Contains(out, "src/order.ts:2 order") {
		t.Errorf("a function its test runs reported blind:\n%s", out)
	}
	md, err := os.ReadFile(tables)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(md), "No test mocks a module") || !strings.Contains(string(md), "| test/order.test.ts | src/ship.ts | test/order.test.ts:2 | PASS |") {
		t.Errorf("the cross-component table:\n%s", md)
	}
	if !strings.Contains(string(md), "| tickets/T-1.yaml > ") || !strings.Contains(string(md), "| PASS | FAIL | PASS |") || !strings.Contains(string(md), "no oracle: `oracle gen` would write src/__oracles__/order.order-quick.oracle.test.ts") {
		t.Errorf("the requirements table:\n%s", md)
	}
	if TreeHash(t, g.Dir) != before {
		t.Error("audit wrote in the repository")
	}
}
