package audit

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestAuditJestMockSwap (issue 45): the cross-component table on jest. Each whole-module
// jest.mock of a repository module is swapped for the real module (jest.requireActual) and
// its test file run again on jest: a mock whose value has another shape than the real
// module's hides a failure (with the real module FAIL, naming the test and the shapes); a
// mock the real module can stand in for is PASS; a test that programs its mock
// (jest.mocked(...).mockReturnValue) is an interaction test, not swapped (UNKNOWN); an
// automock served by a __mocks__ file is recorded through that file. Nothing is written in
// the repository.
func TestAuditJestMockSwap(t *testing.T) {
	t.Parallel()
	g := NewJestRepo(t, map[string]string{
		"src/rate.ts":  "export function rate(n: number): number {\n  return n / 2;\n}\n",
		"src/total.ts": "import { rate } from \"./rate\";\nexport function total(n: number): number {\n  return n * (rate(n) as any).value;\n}\n",
		"src/ship.ts":  "export function ship(n: number): number {\n  return n + 5;\n}\n",
		"src/order.ts": "import { ship } from \"./ship\";\nexport function order(n: number): number {\n  ship(n);\n  return n + 1;\n}\n",
		"src/fee.ts":   "export function fee(n: number): number {\n  return n * 3;\n}\n",
		"src/bill.ts":  "import { fee } from \"./fee\";\nexport function bill(n: number): number {\n  return n + fee(n);\n}\n",
		"test/total.test.ts": "import { total } from \"../src/total\";\njest.mock(\"../src/rate\", () => ({ rate: jest.fn(() => ({ value: 2 })) }));\n\n" +
			"it(\"totals\", () => {\n  expect(total(3)).toBe(6);\n});\n",
		"test/order.test.ts": "import { order } from \"../src/order\";\njest.mock(\"../src/ship\", () => ({ ship: jest.fn(() => 1) }));\n\nit(\"orders\", () => {\n  expect(order(3)).toBe(4);\n});\n",
		"test/bill.test.ts": "import { bill } from \"../src/bill\";\nimport { fee } from \"../src/fee\";\njest.mock(\"../src/fee\", () => ({ fee: jest.fn() }));\n\n" +
			"it(\"bills\", () => {\n  jest.mocked(fee).mockReturnValue(1);\n  expect(bill(3)).toBe(4);\n});\n",
	})
	before := TreeHash(t, g.Dir)
	code, out, errs := Oracle(t, "audit", "--json", "--tables", t.TempDir()+"/tables.md", "--root", g.Dir)
	var rep struct {
		Tables struct {
			CrossComponent []struct {
				Test, Module string
				WithReal     struct {
					Cell, Evidence string
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("audit --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	got := map[string]string{}
	for _, r := range rep.Tables.CrossComponent {
		got[r.Test+" "+r.Module] = r.WithReal.Cell + ": " + r.WithReal.Evidence
	}
	for key, want := range map[string][]string{
		"test/total.test.ts src/rate.ts": {"FAIL: ", `test "totals"`, "{ .value }"},
		"test/order.test.ts src/ship.ts": {"PASS: "},
		"test/bill.test.ts src/fee.ts":   {"UNKNOWN: ", "interaction test", "jest.mocked(fee"},
	} {
		for _, w := range want {
			if !strings.Contains(got[key], w) {
				t.Errorf("%s: %q, want %q in it", key, got[key], w)
			}
		}
	}
	if len(got) != 3 {
		t.Errorf("rows: %v", got)
	}
	if code != ExitFail {
		t.Errorf("exit %d, want 1 for the FAIL cell\n%s", code, errs)
	}
	if TreeHash(t, g.Dir) != before {
		t.Error("audit wrote in the repository")
	}
}
