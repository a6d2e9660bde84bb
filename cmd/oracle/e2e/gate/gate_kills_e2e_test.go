package gate

// Issue 27 item 3, end to end: a kill is the failure of a test that
// executed the mutant (SPEC "oracle gate", "Runs and kills").

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

const (
	priceBase = "export function price(qty: number, each: number): number {\n  return qty * each;\n}\n"
	priceTS   = "export function price(qty: number, each: number): number {\n  const total = qty * each;\n  return total > 100 ? total - 5 : total;\n}\n"
	// The neighbour never calls price, and fails on every run after its
	// first (the baseline): it counts its runs in a file outside the
	// repository, a flaky test made deterministic.
	priceTestTS = "import { appendFileSync, existsSync, readFileSync } from \"node:fs\";\nimport { expect, it } from \"vitest\";\nimport { price } from \"../src/price\";\n" +
		"it(\"neighbour\", () => {\n  const n = existsSync(COUNT) ? readFileSync(COUNT, \"utf8\").length : 0;\n  appendFileSync(COUNT, \"x\");\n  if (n > 0) throw new Error(\"flaky neighbour\");\n});\n" +
		"it(\"prices\", () => {\n  expect(price(2, 3)).toBe(6);\n});\n"
)

// TestGateFlakyNeighbour: the neighbour fails on every mutant run. Without
// the policy every mutant was killed by it (PASS 100%, killedByTest the
// neighbour); with it, a mutant "prices" kills is killed by "prices", and
// one it does not kill is an error naming the neighbour (run again, it
// failed again), never a kill.
func TestGateFlakyNeighbour(t *testing.T) {
	nm := V4(t).NodeModules
	g := Repo{T: t, Dir: t.TempDir()}
	dir := g.Dir
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	count := filepath.ToSlash(filepath.Join(t.TempDir(), "count"))
	test := strings.Replace(priceTestTS, "COUNT", `"`+count+`"`, -1)
	g.Git("init", "-q")
	g.Commit("base", map[string]string{
		".gitignore":         "node_modules\n",
		"package.json":       `{"name":"prices","private":true,"type":"module"}`,
		"src/price.ts":       priceBase,
		"test/price.test.ts": test,
	})
	g.Commit("change", map[string]string{"src/price.ts": priceTS})
	os.Remove(count) // the commits ran nothing; the gate's baseline is the first run
	var r struct {
		Verdict, Reason string
		Score           float64
		Mutants         []struct {
			Outcome, Detail, MutatorName, Replacement, KilledByTest string
		}
	}
	code, out, errs := Oracle(t, "gate", "--json", "--no-cache", "--root", dir)
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	killed, errors := 0, 0
	for _, m := range r.Mutants {
		switch m.Outcome {
		case "killed", "timeout":
			killed++
			if !strings.HasSuffix(m.KilledByTest, "prices") {
				t.Errorf("%s %q: killed by %q, want the test that executed it (prices)", m.MutatorName, m.Replacement, m.KilledByTest)
			}
		case "error":
			errors++
			if !strings.Contains(m.Detail, "neighbour: Error: flaky neighbour") || m.KilledByTest != "" {
				t.Errorf("%s %q: error %q by %q, want one naming the neighbour", m.MutatorName, m.Replacement, m.Detail, m.KilledByTest)
			}
		default:
			t.Errorf("%s %q: %s (%s)", m.MutatorName, m.Replacement, m.Outcome, m.Detail)
		}
	}
	if killed == 0 || errors == 0 {
		t.Errorf("exit %d %s %.0f%%: %d killed, %d errors, want some of each\n%s", code, r.Verdict, r.Score, killed, errors, out)
	}
	t.Logf("exit %d %s %.0f%% (%d killed, %d errors)", code, r.Verdict, r.Score, killed, errors)
}
