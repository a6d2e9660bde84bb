package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

// TestGateDryRun: `gate --dry-run` runs the baselines and prints the lab's
// plan, no mutant: each mutant's test files (those whose coverage run
// reached it; a module's code carries no coverage marker: its job's test
// files), batched or alone and why (module code has no schema switch),
// what stops its loops; exit 0, the same text twice, the checkout
// and the cache untouched. The gate that follows runs that plan: the
// mutant the plan sends alone ran alone for the reason the plan gave.
func TestGateDryRun(t *testing.T) {
	t.Parallel()
	g := NewGateRepo(t, map[string]string{
		"src/price.ts": "export const RATE = 2;\nexport function price(n: number): number {\n  return n;\n}\n",
		"src/other.ts": "export function other(n: number): number {\n  return n;\n}\n",
		"test/price.test.ts": "import { expect, it } from \"vitest\";\nimport { price, RATE } from \"../src/price\";\n" +
			"it(\"prices\", () => {\n  expect(price(2)).toBe(4);\n  expect(RATE).toBe(3);\n});\n",
		"test/other.test.ts": "import { expect, it } from \"vitest\";\nimport { other } from \"../src/other\";\nit(\"others\", () => {\n  expect(other(1)).toBe(1);\n});\n",
	})
	g.Commit("double", map[string]string{"src/price.ts": "export const RATE = 1 + 2;\nexport function price(n: number): number {\n  return n * 2;\n}\n"})
	before := TreeHash(t, g.Dir)
	code, out, errs := Oracle(t, "gate", "--dry-run", "--root", g.Dir)
	if code != ExitOK || !strings.HasPrefix(out, "GATE DRY RUN: ") || !strings.Contains(out, "; no mutant ran\nplan: ") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	var batched, alone string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "  src/price.ts:3 ") && strings.Contains(l, ": batched reached by test/price.test.ts") && batched == "":
			batched = l
		case strings.HasPrefix(l, "  src/price.ts:1 ") && strings.Contains(l, ": alone (no schema switch in this function shape: the change is outside a function body) tests test/price.test.ts"):
			alone = l
		}
	}
	if batched == "" || alone == "" || strings.Contains(out, "test/other.test.ts") || !strings.Contains(out, "  batched: counted in the batch: ") {
		t.Errorf("the plan does not say what runs where:\n%s", out)
	}
	if _, again, _ := Oracle(t, "gate", "--dry-run", "--root", g.Dir); again != out {
		t.Errorf("not the same plan twice:\n%s\n---\n%s", out, again)
	}
	if after := TreeHash(t, g.Dir); after != before {
		t.Error("a dry run changed the checkout")
	}
	if _, err := os.Stat(filepath.Join(g.Dir, ".oracle")); err == nil {
		t.Error("a dry run wrote the cache")
	}
	if code, _, errs := Oracle(t, "gate", "--dry-run", "--json", "--root", g.Dir); code != ExitUsage || !strings.Contains(errs, "--dry-run and --json") {
		t.Errorf("--dry-run --json: exit %d\n%s", code, errs)
	}
	code, full, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", g.Dir)
	var r struct {
		Mutants []struct {
			ID, AloneWhy string
			Line         int
		}
	}
	if err := json.Unmarshal([]byte(full), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, errs)
	}
	id := strings.TrimSuffix(strings.SplitN(strings.SplitN(alone, " [", 2)[1], "]", 2)[0], "]")
	ran := false
	for _, m := range r.Mutants {
		if m.ID == id {
			ran = true
			if !strings.HasPrefix(m.AloneWhy, "no schema switch in this function shape: the change is outside a function body") {
				t.Errorf("%s ran alone for %q, the plan said %q", id, m.AloneWhy, alone)
			}
		}
	}
	if !ran {
		t.Errorf("the planned mutant %s is not in the gate's result: %+v", id, r.Mutants)
	}
}
