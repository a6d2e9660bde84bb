package lab

import (
	"testing"
	"time"
)

// TestBaselineBoundReal, with the sample's vitest: under a BaselineBound
// (the gate's bound derived from the other candidates), each baseline run
// alone is bounded by it given the baselines that finished before it (the
// first file: none), the run past it is final (not run again), and the
// first baseline past it ends the baselines: the files after it do not
// run, nor does any mutant.
func TestBaselineBoundReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	const quick = "import { expect, it } from \"vitest\";\nimport { add } from \"./calc\";\n\nit(\"adds\", () => {\n  expect(add(1, 2)).toBe(3);\n});\n"
	const hang = "import { expect, it } from \"vitest\";\nimport { add } from \"./calc\";\n\nawait new Promise(() => {\n  setInterval(() => {}, 1000);\n});\n\nit(\"never\", () => {\n  expect(add(1, 2)).toBe(3);\n});\n"
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/calc.ts": calcSrc, "src/a.test.ts": quick, "src/hang.test.ts": hang, "src/b.test.ts": quick})
	ms := textMutants(t, "src/calc.ts", calcSrc, [][3]string{{"minus", "a + b", "a - b"}})
	var asked [][]time.Duration
	bound := func(others []time.Duration) time.Duration {
		asked = append(asked, others)
		if len(others) == 0 {
			return time.Minute
		}
		return 3 * time.Second // far below the minute the run would otherwise get, twice
	}
	start := time.Now()
	res, _ := labRun(t, repo, "", Lab{NoJoint: true, BaselineTimeout: time.Minute, BaselineBound: bound}, []string{"src/a.test.ts", "src/hang.test.ts", "src/b.test.ts"}, ms)
	t.Logf("took %s", time.Since(start))
	if len(res.Baselines) != 2 || len(res.Mutants) != 0 {
		t.Fatalf("%d baselines (want a and hang, then stop), %d mutants (want none)", len(res.Baselines), len(res.Mutants))
	}
	a, h := res.Baselines[0], res.Baselines[1]
	if a.Outcome != Passed || a.Bound != time.Minute {
		t.Errorf("a: %s within %s, want passed within the bound of no other (1m)", a.Outcome, a.Bound)
	}
	if h.Outcome != Timeout || h.Bound != 3*time.Second || h.Test != "src/hang.test.ts" {
		t.Errorf("hang: %s within %s, want timeout within the bound derived from a (3s)", h.Outcome, h.Bound)
	}
	if len(asked) < 2 || len(asked[len(asked)-1]) != 1 || asked[len(asked)-1][0] != a.Duration {
		t.Errorf("the bound was asked with %v, want a's baseline time (%s) last", asked, a.Duration)
	}
}
