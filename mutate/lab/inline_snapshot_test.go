package lab

import (
	"strings"
	"testing"
)

const inlineSrc = `export function label(n: number): string {
  return "n=" + String(n * 2);
}
`

// inlineTest asserts with inline snapshots.
const inlineTest = `import { expect, it } from "vitest";
import { label } from "./label";

it("labels", () => {
  expect(label(2)).toMatchInlineSnapshot(` + "`\"n=4\"`" + `);
});
it("labels zero", () => {
  expect(label(0)).toMatchInlineSnapshot(` + "`\"n=0\"`" + `);
});
`

// TestInlineSnapshotsBatchedReal: a test file asserting with inline
// snapshots is batched (unjs/rou3: vitest's snapshot state refused the
// second block's toMatchInlineSnapshot at the place the first had called
// it, the closing baseline failed, and every mutant ran alone); the
// outcomes are the ones applied by hand: n * 3 changes both snapshots,
// n + n neither.
func TestInlineSnapshotsBatchedReal(t *testing.T) {
	t.Parallel()
	// vitest 2 refuses a second call at a place whatever its value (the
	// case that fails without the harness forgetting them per block); from
	// 3.1 vitest takes a second call with the same value.
	withVitest2(t, func(t *testing.T, env, node string) {
		repo := pipelineCopy(t, env, map[string]string{"src/label.ts": inlineSrc, "src/label.test.ts": inlineTest})
		res, _ := labRun(t, repo, node, Lab{Coverage: true}, []string{"src/label.test.ts"}, textMutants(t, "src/label.ts", inlineSrc, [][3]string{
			{"triple", "n * 2", "n * 3"},
			{"sum", "n * 2", "n + n"},
			{"prefix", `"n="`, `"m="`},
		}))
		if got, want := outcomesOnly(res), "test:triple=killed test:sum=survived test:prefix=killed"; got != want {
			t.Errorf("got  %s\nwant %s (%s) baselines %+v", got, want, aloneWhys(res), res.Baselines)
		}
		if w := aloneWhys(res); w != "" || len(res.Refused) > 0 {
			t.Errorf("ran alone: %s %v", w, res.Refused)
		}
		for _, r := range res.Mutants {
			if r.Outcome == Killed && !strings.Contains(r.Detail, "Snapshot") && !strings.Contains(r.Detail, "snapshot") {
				t.Errorf("%s killed by %q, not its snapshot", r.Mutant.Name, r.Detail)
			}
		}
	})
}
