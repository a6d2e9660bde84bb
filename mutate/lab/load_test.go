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
// the hit limit (a suspicion: run again with the limit raised a
// hundredfold, 1.5e9 hits here, it dies of the heap's end first, so the
// batch that counts decides nothing and it runs alone, counted the same
// way: the original's load makes 150,000 hits, so the limit that decides
// is as high), and a variant that throws
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
	// The endless loop, stopped by the hit limit in the batch and not
	// decided with the limit raised, runs alone, counted: its limit derived
	// from the original's 150,000 hits at load, it grows its array until the
	// run's time-out (timeout) or the heap's end (an error: the worker dies),
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
	// Alone, the same outcomes; the endless loop is left out there: alone its
	// limit is as high, and it grows its array until the run's time-out or the
	// heap's end, whichever a machine reaches first (the runner's own tests
	// cover an endless loop run alone).
	alone := slices.DeleteFunc(slices.Clone(ms), func(m edit.Mutant) bool { return m.Name == "test:endless" })
	isolated := run(Lab{Isolate: true}, alone)
	if got, want := outcomesOnly(isolated), "test:times=killed test:bound=survived test:throws=error test:lookup=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
}

// A module whose functions a test file calls while vitest collects: in a
// describe body (pathe's test/utils.spec.ts calls normalizeAliases there)
// and at its top level, after a describe.
const describeSrc = `export function norm(map: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(map)) {
    out[k] = map[k].trim();
  }
  return out;
}

export function pad(s: string): string {
  return s.padStart(3, "0");
}

export function label(n: number): string {
  return n > 1 ? "many" : "one";
}
`

const describeTest = `import { describe, expect, it } from "vitest";
import { label, norm, pad } from "./norm";

describe("label", () => {
  it("labels", () => {
    expect(label(2)).toBe("many");
    expect(label(1)).toBe("one");
  });
});

const padded = pad("7");

describe("norm", () => {
  const table = norm({ a: " x " });
  it("trims", () => {
    expect(table.a).toBe("x");
    expect(padded).toBe("007");
  });
});
`

// TestDescribeBodyThrowsBatchReal: a variant under which the test file's
// load throws (in a describe body vitest collects, or at its top level after
// a describe was registered) runs alone, and the batch decides the others.
// Before, a describe body's throw failed the collection of the whole
// harness ("the batch did not load": pathe's src/utils.ts, 103 of 104
// mutants alone), and with the describe body guarded alone, the variant's
// other describe passed: a survivor that alone is an error. The outcomes
// are those of the mutants run alone.
func TestDescribeBodyThrowsBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/norm.ts": describeSrc, "src/norm.test.ts": describeTest})
	ms := textMutants(t, "src/norm.ts", describeSrc, [][3]string{
		{"trim", "map[k].trim()", "map[k]"},
		{"throws", "map[k].trim()", "(undefined as never as string).trim()"},
		{"padThrows", "s.padStart(3, \"0\")", "(undefined as never as string).padStart(3, \"0\")"},
		{"label", "n > 1", "n >= 1"},
		{"survivor", "n > 1", "n > 1.5"},
	})
	run := func(l Lab) *Result {
		l.Coverage = true // as the gate runs it: a survivor in a trusted batch is not run again
		res, _ := labRun(t, repo, "", l, []string{"src/norm.test.ts"}, ms)
		return res
	}
	batched := run(Lab{})
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(batched), outcomesOnly(isolated); got != want {
		t.Errorf("batched %s\nisolated %s\n%s", got, want, details(batched))
	}
	if got, want := summarize(batched), "test:trim=killed/batched test:throws=error test:padThrows=error test:label=killed/batched test:survivor=survived/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s\n%s", got, want, details(batched))
	}
	if got, want := whys(batched), "|"+AloneLoadThrew+"|"+AloneLoadThrew+"||"; got != want {
		t.Errorf("aloneWhy %s\nwant     %s", got, want)
	}
}

// A module that reads process.cwd(), and tests that, as pathe's, replace
// process.cwd in a test and put it back only when their assertions pass,
// and name a path from the cwd read while vitest collects.
const cwdSrc = `export function rel(p: string): string {
  const cwd = process.cwd();
  return p.startsWith(cwd + "/") ? p.slice(cwd.length + 1) : p;
}
`

const cwdTest = `import { describe, expect, it, vi } from "vitest";
import { rel } from "./rel";

describe("rel", () => {
  const here = process.cwd();
  it("on another cwd", () => {
    const cwd = process.cwd;
    process.cwd = vi.fn(() => "/w");
    expect(rel("/w/a")).toBe("a");
    process.cwd = cwd;
  });
  it("relative to here", () => {
    expect(rel(here + "/x")).toBe("x");
  });
  it("keeps others", () => {
    expect(rel("/elsewhere/x")).toBe("/elsewhere/x");
  });
});
`

// TestProcessRestoredBatchReal: a variant that fails a test before the test
// puts process.cwd back leaves it replaced; each block of the batch starts
// with process's own functions as the harness found them, as a run of the
// file alone does. Before, the next variants saw the replaced cwd: a
// mutant no test can tell from the original was "killed" (pathe's
// src/_path.ts: 21 false kills of 539, each a survivor by hand).
func TestProcessRestoredBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/rel.ts": cwdSrc, "src/rel.test.ts": cwdTest})
	ms := textMutants(t, "src/rel.ts", cwdSrc, [][3]string{
		{"killer", "cwd.length + 1", "cwd.length + 2"},
		{"same", `p.startsWith(cwd + "/")`, "p.startsWith(cwd)"},
	})
	run := func(l Lab) *Result {
		l.Coverage = true // as the gate runs it
		res, _ := labRun(t, repo, "", l, []string{"src/rel.test.ts"}, ms)
		return res
	}
	batched := run(Lab{})
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:killer=killed test:same=survived"; got != want {
		t.Fatalf("isolated: %s\nwant      %s", got, want)
	}
	if got, want := summarize(batched), "test:killer=killed/batched test:same=survived/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s\n%s", got, want, details(batched))
	}
}
