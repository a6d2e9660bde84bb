package lab

import (
	"path/filepath"
	"strings"
	"testing"
)

const doubleSrc = `export function double(x: number): number {
  return x * 2;
}
`

// doubleTest's two tests run concurrently: "doubles" runs double and pins
// nothing but its sign; "flaky" never runs it and fails once, on its third
// run in the lab (the variant's block of the batch: the coverage baseline
// and the batch's opening one come before).
const doubleTest = `import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { double } from "./double";

const COUNT = COUNTPATH;

it.concurrent("doubles", async () => {
  expect(double(2)).toBeGreaterThan(0);
});

it.concurrent("flaky", async () => {
  const n = existsSync(COUNT) ? readFileSync(COUNT, "utf8").length : 0;
  appendFileSync(COUNT, "x");
  if (n === 2) throw new Error("flaky neighbour");
});
`

// TestConcurrentFlakyKillReal (issue 41): in a batch, a concurrent test
// that runs the variant's code makes every test count as having run it (the
// flag is shared): the flaky neighbour's failure there was credited as a
// kill of a mutant every test passes (x * 3, as by hand). Such a kill is
// confirmed alone, where the neighbour passes: survived.
func TestConcurrentFlakyKillReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	count := filepath.ToSlash(filepath.Join(t.TempDir(), "count"))
	test := strings.Replace(doubleTest, "COUNTPATH", `"`+count+`"`, 1)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/double.ts": doubleSrc, "src/double.test.ts": test})
	ms := textMutants(t, "src/double.ts", doubleSrc, [][3]string{{"three", "x * 2", "x * 3"}, {"minus", "x * 2", "x * -2"}})
	res, _ := labRun(t, repo, "", Lab{Coverage: true}, []string{"src/double.test.ts"}, ms)
	if got, want := outcomesOnly(res), "test:three=survived test:minus=killed"; got != want {
		t.Fatalf("got  %s\nwant %s\n%s", got, want, details(res))
	}
	if r := res.Mutants[0]; r.AloneWhy != AloneConcurrentKill {
		t.Errorf("three: alone because %q, want %q", r.AloneWhy, AloneConcurrentKill)
	}
}

// TestEmptyTitleKillReal (found on unjs/ufo 6cd1fcd: tests named by object
// keys, one of them ""): a test with an empty title is named by vitest's
// report by its describe titles alone; the marker that records which tests
// ran the mutated code named it with a trailing space, so its kill was
// "only a test that never executed the mutated code failed": an error, in
// both modes, where vitest by hand fails it. Killed, batched and isolated.
func TestEmptyTitleKillReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	const test = `import { describe, expect, it } from "vitest";
import { double } from "./double";

describe("double", () => {
  it("", () => { expect(double(2)).toBe(4); });
});
`
	for _, iso := range []bool{true, false} {
		repo := pipelineCopy(t, "pipeline", map[string]string{"src/double.ts": doubleSrc, "src/double.test.ts": test})
		ms := textMutants(t, "src/double.ts", doubleSrc, [][3]string{{"three", "x * 2", "x * 3"}, {"plus", "x * 2", "x + 3"}})
		res, _ := labRun(t, repo, "", Lab{Coverage: true, Isolate: iso}, []string{"src/double.test.ts"}, ms)
		if got, want := outcomesOnly(res), "test:three=killed test:plus=killed"; got != want {
			t.Errorf("isolate %v: got  %s\nwant %s\n%s", iso, got, want, details(res))
		}
	}
}
