package lab

import (
	"path/filepath"
	"testing"
)

const concSrc = `export function add(a: number, b: number): number {
  return a + b;
}

export function neg(a: number): number {
  return -a;
}
`

const concTest = `import { expect, it } from "vitest";
import { add, neg } from "./calc";

it("adds", async () => {
  await new Promise((r) => setTimeout(r, 20));
  expect(add(2, 3)).toBe(5);
});

it("negates", async () => {
  await new Promise((r) => setTimeout(r, 20));
  expect(neg(2)).toBe(-2);
});
`

const concConfig = `import { defineConfig } from "vitest/config";
export default defineConfig({ test: { include: ["src/**/*.test.ts"], sequence: { concurrent: true } } });
`

// TestConcurrentConfigBatchReal: under a config that runs suites
// concurrently (sequence.concurrent), the harness's variants still run one
// after the other (describe.sequential): run together, they shared the one
// switch, and each mutant passed in the batch, under the switch another
// variant set, though alone it is killed.
func TestConcurrentConfigBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	t.Run("vitest4", func(t *testing.T) {
		concurrentConfig(t, "pipeline", "", "test:plus=killed/batched test:neg=killed/batched")
	})
	// vitest 5 has no describe.sequential: its blocks are describes with
	// { concurrent: false }. (Plain describes ran at the same time there:
	// both mutants survived in the batch, trusted once the undici global
	// that had kept them from it was no longer counted, b3205d8.)
	node, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	t.Run("vitest5", func(t *testing.T) {
		concurrentConfig(t, "vitest5", node, "test:plus=killed/batched test:neg=killed/batched")
	})
}

func concurrentConfig(t *testing.T, env, node, wantBatched string) {
	repo := pipelineCopy(t, env, map[string]string{"src/calc.ts": concSrc, "src/calc.test.ts": concTest, "vitest.config.ts": concConfig})
	ms := textMutants(t, "src/calc.ts", concSrc, [][3]string{
		{"plus", `a + b`, `a - b`},
		{"neg", `return -a;`, `return a;`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, node, l, []string{"src/calc.test.ts"}, ms)
		return res
	}
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:plus=killed test:neg=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	batched := run(Lab{})
	if got, want := summarize(batched), wantBatched; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
}
