package lab

import (
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
// the hit limit (timeout), and a variant that throws as the module loads
// runs alone, where it is an error; the original's load is never limited.
func TestLoadTimeBatchReal(t *testing.T) {
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/table.ts": loadSrc, "src/table.test.ts": loadTest})
	var ms []edit.Mutant
	for _, e := range [][3]string{
		{"times", "i * 2", "i / 2"},
		{"bound", "i < n", "i <= n"}, // one more entry, which no test reads: survives
		{"endless", "i++", "i--"},
		{"throws", "const t: number[] = [];", "const t: number[] = undefined as never;"},
		{"lookup", "TABLE[i] ?? -1", "TABLE[i] ?? 1"},
	} {
		at := strings.Index(loadSrc, e[1])
		m, err := edit.NewMutant("test", e[0], "src/table.ts", []byte(loadSrc), []edit.Change{{Start: uint(at), End: uint(at + len(e[1])), Text: e[2]}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/table.test.ts"}, ms)
		return res
	}
	batched := run(Lab{})
	if got, want := summarize(batched), "test:times=killed/batched test:bound=survived/batched test:endless=timeout/batched test:throws=error test:lookup=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
	// Alone, the endless loop at load waits for the run's time-out (derived
	// from the baseline's time, at least 10 s: a fixed short one made a
	// plain kill a timeout on a loaded machine).
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:times=killed test:bound=survived test:endless=timeout test:throws=error test:lookup=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
}
