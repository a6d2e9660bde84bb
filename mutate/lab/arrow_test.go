package lab

import (
	"testing"
)

// Functions whose bodies are expressions: a conditional, an object
// literal, a curried arrow (applied as the module loads, when no variant is
// set yet: the inner arrow must read the switch), an async one, a
// recursive one, and a callback nested in a block body.
const arrowSrc = `export const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);
export const pair = (a: number) => ({ a, twice: a * 2 });
export const adder = (a: number) => (b: number) => a + b;
export const inc = adder(1);
export const later = async (x: number) => (await Promise.resolve(x)) + 1;
export const depth = (n: number): number => (n <= 0 ? 0 : 1 + depth(n - 1));
export function doubled(xs: number[]) {
  return xs.map((x) => x * 2);
}
`

const arrowTest = `import { expect, it } from "vitest";
import { clamp, depth, doubled, inc, later, pair } from "./arrow";

it("clamps", () => {
  expect(clamp(5, 0, 3)).toBe(3);
  expect(clamp(-1, 0, 3)).toBe(0);
  expect(clamp(2, 0, 3)).toBe(2);
});
it("pairs", () => {
  expect(pair(2)).toEqual({ a: 2, twice: 4 });
});
it("adds", () => {
  expect(inc(2)).toBe(3);
});
it("settles", async () => {
  expect(await later(1)).toBe(2);
});
it("recurses", () => {
  expect(depth(3)).toBe(3);
});
it("doubles", () => {
  expect(doubled([1, 2])).toEqual([2, 4]);
});
`

// TestArrowBatchReal, with the sample's vitest: mutants in arrow
// functions' expression bodies are placed in the schema and decided by the
// batch (every kill is a batch's, only the survivor runs alone), and every
// outcome equals the Isolate one.
func TestArrowBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/arrow.ts": arrowSrc, "src/arrow.test.ts": arrowTest})
	ms := textMutants(t, "src/arrow.ts", arrowSrc, [][3]string{
		{"clamp-lo", "x < lo ? lo", "x < lo ? hi"},
		{"clamp-edge", "x > hi", "x >= hi"}, // equivalent: survives
		{"pair", "a * 2", "a / 2"},
		{"adder", "a + b", "a - b"},
		{"later", ") + 1", ") - 1"},
		{"depth", "n - 1", "n + 1"}, // recurses until the stack overflows
		{"doubled", "x * 2", "x + 2"},
	})
	run := func(l Lab) *Result {
		res, _ := labRun(t, repo, "", l, []string{"src/arrow.test.ts"}, ms)
		return res
	}
	want := "test:clamp-lo=killed test:clamp-edge=survived test:pair=killed test:adder=killed test:later=killed test:depth=killed test:doubled=killed"
	batched := run(Lab{})
	if got, want := summarize(batched), "test:clamp-lo=killed/batched test:clamp-edge=survived test:pair=killed/batched test:adder=killed/batched "+
		"test:later=killed/batched test:depth=killed/batched test:doubled=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
	if batched.RanAlone != 1 {
		t.Errorf("%d ran alone, want the survivor only", batched.RanAlone)
	}
	isolated := run(Lab{Isolate: true})
	if got := outcomesOnly(isolated); got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	if got := outcomesOnly(batched); got != outcomesOnly(isolated) {
		t.Errorf("batched:  %s\nisolated: %s", got, outcomesOnly(isolated))
	}
}
