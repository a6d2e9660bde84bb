package lab

import (
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// A function the module calls while it loads (a table built at the top
// level, in more loop iterations than HitLimitFloor: a variant's limit at
// load comes from the original's load) and one the tests call.
const loadSrc = `function build(n: number): number[] {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    t.push(i * 2);
  }
  return t;
}

const TABLE = build(150000);

export function doubled(i: number): number {
  return TABLE[i] ?? -1;
}
`

const loadTest = `import { expect, it } from "vitest";
import { doubled } from "./table";

it("doubles from the table", () => {
  expect(doubled(1)).toBe(2);
  expect(doubled(3)).toBe(6);
  expect(doubled(150009)).toBe(-1);
});
`

// TestLoadTimeBatchReal: a mutant in code that runs while the module loads
// is judged in the batch as it is alone. The harness imports the test file
// under the variant, so a wrong table fails the tests (killed, not a
// trusted survivor under Coverage), a loop made endless at load stops at
// the hit limit (a suspicion, confirmed alone), and a variant that throws
// as the module loads runs alone, where it is an error; the original's load
// is never limited.
func TestLoadTimeBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/table.ts": loadSrc, "src/table.test.ts": loadTest})
	ms := textMutants(t, "src/table.ts", loadSrc, [][3]string{
		{"times", "i * 2", "i / 2"},
		{"bound", "i < n", "i <= n"}, // one more entry, which no test reads: survives
		{"endless", "i++", "i--"},
		{"throws", "const t: number[] = [];", "const t: number[] = undefined as never;"},
		{"lookup", "TABLE[i] ?? -1", "TABLE[i] ?? 1"},
	})
	run := func(l Lab, ms []edit.Mutant) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/table.test.ts"}, ms)
		return res
	}
	batched := run(Lab{}, ms)
	// The endless loop, stopped by the hit limit in the batch, runs alone
	// without the counter to confirm it: it grows its array until the run's
	// time-out (timeout) or the heap's end (an error: the worker dies),
	// whichever a machine reaches first; never a survivor.
	if e := batched.Mutants[2]; (e.Outcome == Timeout || e.Outcome == Error) && !e.Batched && strings.HasPrefix(e.Detail, edit.HitLimitMessage) == (e.Outcome == Timeout) {
		batched.Mutants[2].Outcome = "stopped"
	}
	if got, want := summarize(batched), "test:times=killed/batched test:bound=survived/batched test:endless=stopped test:throws=error test:lookup=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s\n%s", got, want, details(batched))
	}
	// Why the two undecided ones ran alone, as the real batch says it.
	if got, want := whys(batched), "||"+AloneHitLimit+"|"+AloneLoadThrew+"|"; got != want {
		t.Errorf("aloneWhy %s\nwant     %s", got, want)
	}
	// Alone, the same outcomes; the endless loop is left out there: alone it
	// has no hit limit and grows its array until the run's time-out or the
	// heap's end, whichever a machine reaches first (the runner's own tests
	// cover an endless loop run alone).
	alone := slices.DeleteFunc(slices.Clone(ms), func(m edit.Mutant) bool { return m.Name == "test:endless" })
	isolated := run(Lab{Isolate: true}, alone)
	if got, want := outcomesOnly(isolated), "test:times=killed test:bound=survived test:throws=error test:lookup=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
}
