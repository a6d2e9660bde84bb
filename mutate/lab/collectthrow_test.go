package lab

import "testing"

// A module whose top-level code builds a constructor, and a test file that
// calls the code in its describe body (while vitest collects it), as
// unjs/rou3's tests build their router.
const throwSrc = `const Empty = (() => {
  const C = function () {};
  C.prototype = Object.create(null);
  return C;
})() as unknown as { new (): any };

export function make(): Record<string, number> {
  const o = new Empty();
  o.a = 1;
  return o;
}
`

const throwTest = `import { describe, expect, it } from "vitest";
import { make } from "./make";

describe("make", () => {
  const made = make();
  it("has a", () => {
    expect(made.a).toBe(1);
  });
});
`

// TestDescribeThrowsReal: a variant whose code throws in a describe body
// (Empty left undefined: "Empty is not a constructor") has no test in its
// batch and runs alone, where it is an error (never a kill); the batch's
// other variants are decided there. On vitest 2 the whole batch did not
// load (its collector keeps no suite to skip), and every mutant ran alone.
func TestDescribeThrowsReal(t *testing.T) {
	t.Parallel()
	withVitest2(t, func(t *testing.T, env, node string) {
		repo := pipelineCopy(t, env, map[string]string{"src/make.ts": throwSrc, "src/make.test.ts": throwTest})
		res, _ := labRun(t, repo, node, Lab{Coverage: true}, []string{"src/make.test.ts"}, textMutants(t, "src/make.ts", throwSrc, [][3]string{
			{"empty", "  const C = function () {};\n  C.prototype = Object.create(null);\n  return C;\n", ""},
			{"one", "o.a = 1;", "o.a = 2;"},
		}))
		if got, want := outcomesOnly(res), "test:empty=error test:one=killed"; got != want {
			t.Errorf("got  %s\nwant %s (%s)", got, want, aloneWhys(res))
		}
		if got, want := aloneWhys(res), "test:empty: "+AloneLoadThrew; got != want || len(res.Refused) > 0 {
			t.Errorf("alone: %s %v\nwant   %s", got, res.Refused, want)
		}
	})
}
