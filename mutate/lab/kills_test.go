package lab

import (
	"path/filepath"
	"strings"
	"testing"
)

// SPEC "oracle gate", "Runs and kills": a kill is the failure of a test
// that executed the mutated code; a hit-limit stop is a suspicion,
// confirmed alone under the wall-clock limit before it counts as timeout.

const calcSrc = `export function add(a: number, b: number): number {
  return a + b;
}
`

// calcTest has a neighbour test that never calls add and fails on a
// condition the test controls, NEIGHBOUR:
//   - "always": every time but its first (the baseline): it counts its
//     runs in the file COUNT;
//   - "once": its second time only (the first mutant run);
//   - "variant": while a batch's mutant variant is on (it reads the
//     schema's switch: a stand-in for an order-dependent test that a
//     batch's earlier variants break).
//
// The neighbour comes first, so the first test that fails in a run is it.
const calcTest = `import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { add } from "./calc";

const MODE = NEIGHBOUR;
const COUNT = COUNTPATH;

describe("calc", () => {
  it("neighbour", () => {
    if (MODE === "variant") {
      if (Number(Reflect.get(globalThis, "__oracleVariant") ?? 0) > 0) throw new Error("broken by an earlier test");
    } else {
      const n = existsSync(COUNT) ? readFileSync(COUNT, "utf8").length : 0;
      appendFileSync(COUNT, "x");
      if ((MODE === "always" && n > 0) || (MODE === "once" && n === 1)) throw new Error("flaky neighbour");
    }
    expect(1).toBe(1);
  });
  it("adds", () => {
    expect(add(2, 2)).toBeGreaterThan(0);
  });
});
`

// TestFlakyNeighbourReal: with the sample's vitest, a mutant the tests
// cannot tell from the original (b + a) and one they kill (a - b), next to
// a neighbour test that never calls add and fails. The neighbour's failure
// is no kill: the equivalent mutant survives when the repeat passes, and
// is an error naming the neighbour when it fails again; the real kill is
// killed by "calc adds", the test that executed it, never by the
// neighbour. Alone (Isolate) and batched (where a neighbour that fails in
// the batch's opening baseline leaves nothing of the batch trusted, and
// one that fails under the variants only is no kill there either).
func TestFlakyNeighbourReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	cases := []struct {
		name, mode string
		isolate    bool
		want       string
	}{
		{"fails on every mutant run, alone", "always", true, "test:same=error test:minus=killed"},
		{"fails once, alone", "once", true, "test:same=survived test:minus=killed"},
		{"fails on every run after the baseline, batched", "always", false, "test:same=error test:minus=killed"},
		{"fails under a batch's variants", "variant", false, "test:same=survived test:minus=killed"},
	}
	// vitest 4, and vitest 5 on its own Node 22 (testdata/vitest5): both name
	// the running test in the worker state and pass afterEach its context.
	node5, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	for _, env := range []struct{ name, node string }{{"pipeline", ""}, {"vitest5", node5}} {
		for _, c := range cases {
			t.Run(env.name+"/"+c.name, func(t *testing.T) {
				flakyNeighbour(t, env.name, env.node, c.mode, c.isolate, c.want)
			})
		}
	}
}

// flakyNeighbour runs one case of TestFlakyNeighbourReal on the vitest of
// testdata/<env> with node ("": the one on PATH).
func flakyNeighbour(t *testing.T, env, node, mode string, isolate bool, want string) {
	count := filepath.Join(t.TempDir(), "count")
	test := strings.NewReplacer("NEIGHBOUR", `"`+mode+`"`, "COUNTPATH", `"`+filepath.ToSlash(count)+`"`).Replace(calcTest)
	repo := pipelineCopy(t, env, map[string]string{"src/calc.ts": calcSrc, "src/calc.test.ts": test})
	ms := textMutants(t, "src/calc.ts", calcSrc, [][3]string{{"same", "a + b", "b + a"}, {"minus", "a + b", "a - b"}})
	res, _ := labRun(t, repo, node, Lab{Isolate: isolate}, []string{"src/calc.test.ts"}, ms)
	if got := summarize(res); got != want {
		t.Fatalf("got  %s\nwant %s\n%s", got, want, details(res))
	}
	same, minus := res.Mutants[0], res.Mutants[1]
	if minus.KilledBy != "calc adds" {
		t.Errorf("the kill is by %q, want the test that executed the mutant, calc adds\n%s", minus.KilledBy, details(res))
	}
	if same.Outcome == Error && (!strings.HasPrefix(same.Detail, RepeatedFailure+OtherTestFailure+"calc neighbour: Error: flaky neighbour") || same.KilledBy != "") {
		t.Errorf("the error does not name the neighbour, or names a killer: %+v", same)
	}
}

func details(res *Result) string {
	var b strings.Builder
	for _, r := range res.Mutants {
		b.WriteString(r.Mutant.Name + ": " + string(r.Outcome) + " by " + r.KilledBy + ": " + r.Detail + "\n")
	}
	return b.String()
}

const findSrc = `export function indexOf(xs: number[], x: number): number {
  let found = -1;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === x) {
      found = i;
      break;
    }
  }
  return found;
}
`

// TestHitLimitConfirmedReal: with the sample's vitest, the mutant that
// drops the loop's break runs 5,000,000 iterations (far past the batch's
// hit limit of 100,000) and finishes in milliseconds. The hit limit stops
// it in the batch; run again there with the limit raised a hundredfold (at
// least 10,000,000 hits), it finishes: it survived when every test passes,
// it is killed when a test fails (never a timeout: a false kill). The
// mutant that loops forever is a timeout, confirmed the same way
// (TestLoopAndHangReal).
func TestHitLimitConfirmedReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	const big = `import { expect, it } from "vitest";
import { indexOf } from "./find";

const big = Array.from({ length: 5_000_000 }, (_, i) => i);

it("finds the first", () => {
  expect(indexOf(big, 0)).toBe(0);
});
`
	const two = `
it("finds the first of two", () => {
  expect(indexOf([3, 3], 3)).toBe(0);
});
`
	for _, c := range []struct{ name, test, want string }{
		{"every test passes", big, "test:nobreak=survived test:plus=killed/batched"},
		{"a test fails", big + two, "test:nobreak=killed/batched test:plus=killed/batched"},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := pipelineCopy(t, "pipeline", map[string]string{"src/find.ts": findSrc, "src/find.test.ts": c.test})
			ms := textMutants(t, "src/find.ts", findSrc, [][3]string{{"nobreak", "break;", ""}, {"plus", "found = i;", "found = i + 1;"}})
			res, _ := labRun(t, repo, "", Lab{}, []string{"src/find.test.ts"}, ms)
			// Where the loop's mutant is decided (its batch run again, or alone when that run
			// ends at the clock on a loaded machine) is speed, not its outcome: the outcome is
			// what this checks.
			if got := strings.Replace(summarize(res), "test:nobreak=killed test:", "test:nobreak=killed/batched test:", 1); got != c.want {
				t.Fatalf("got  %s\nwant %s\n%s", got, c.want, details(res))
			}
			if res.HitLimits != 0 || res.Mutants[0].HitLimit {
				t.Errorf("%d hit limits counted, want none (the stop was not confirmed)", res.HitLimits)
			}
			if res.Mutants[0].Outcome == Survived && !strings.Contains(res.Mutants[0].Detail, "run again with the limit raised 100-fold, it finished: no loop") {
				t.Errorf("the survivor's detail: %q", res.Mutants[0].Detail)
			}
		})
	}
}
