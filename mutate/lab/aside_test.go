package lab

import (
	"strings"
	"testing"
)

const asideSrc = `export function add(a: number, b: number): number {
  return a + b;
}
`

// asideTestFile has one long-broken test beside the tests of add.
const asideTestFile = `import { describe, expect, it } from "vitest";
import { add } from "./add";

describe("add", () => {
  it("broken long ago", () => { expect(add(1, 1)).toBe(3); });
  it("adds", () => { expect(add(2, 3)).toBe(5); });
  it("adds zero", () => { expect(add(0, 4)).toBeGreaterThan(0); });
});
`

// TestAsideReal: a test set aside (red at the base, the same way) is left
// out of every run: the baseline is green, and the file's other tests
// decide each mutant, batched and isolated alike (issue 41: one
// long-broken test hid every other test of its file). Without Aside the
// baseline is red and no mutant runs.
func TestAsideReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	ms := [][3]string{{"minus", "a + b", "a - b"}, {"same", "a + b", "b + a"}}
	run := func(l Lab) *Result {
		repo := pipelineCopy(t, "pipeline", map[string]string{"src/add.ts": asideSrc, "src/add.test.ts": asideTestFile})
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/add.test.ts"}, textMutants(t, "src/add.ts", asideSrc, ms))
		return res
	}
	if res := run(Lab{}); len(res.Mutants) != 0 || res.Baselines[0].Outcome != Failed {
		t.Fatalf("without Aside: baseline %s, %d mutants run", res.Baselines[0].Outcome, len(res.Mutants))
	}
	aside := map[string][]string{"src/add.test.ts": {"add broken long ago"}}
	for _, iso := range []bool{false, true} {
		res := run(Lab{Aside: aside, Isolate: iso})
		if b := res.Baselines[0]; b.Outcome != Passed {
			t.Errorf("isolate %v: baseline %s %s", iso, b.Outcome, b.Detail)
		}
		if got, want := outcomesOnly(res), "test:minus=killed test:same=survived"; got != want {
			t.Errorf("isolate %v: %s\nwant %s\n%s", iso, got, want, details(res))
		}
		if !iso && !res.Mutants[0].Batched {
			t.Errorf("the kill ran alone (%s): the batch's harness leaves the test set aside out of every block", res.Mutants[0].AloneWhy)
		}
		for _, r := range res.Mutants {
			if r.KilledBy == "add broken long ago" {
				t.Errorf("isolate %v: %s killed by the test set aside", iso, r.Mutant.Name)
			}
		}
	}
}

// TestIncludeByPathReal (issue 42): under a config whose include lists the
// test files by path, the batch harness (a file of its own beside the test
// file) matched nothing, every batch "did not load" and every mutant ran
// alone. The batches decide, with the outcomes Isolate gives.
func TestIncludeByPathReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	ms := [][3]string{{"minus", "a + b", "a - b"}, {"times", "a + b", "a * b"}, {"same", "a + b", "b + a"}}
	cfg := "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"src/add.test.ts\"] } });\n"
	run := func(l Lab) *Result {
		repo := pipelineCopy(t, "pipeline", map[string]string{"src/add.ts": asideSrc, "src/add.test.ts": strings.Replace(asideTestFile, "  it(\"broken long ago\", () => { expect(add(1, 1)).toBe(3); });\n", "", 1), "vitest.path.config.ts": cfg})
		l.Coverage, l.Config = true, "vitest.path.config.ts"
		res, _ := labRun(t, repo, "", l, []string{"src/add.test.ts"}, textMutants(t, "src/add.ts", asideSrc, ms))
		return res
	}
	iso, res := run(Lab{Isolate: true}), run(Lab{})
	if got, want := outcomesOnly(res), outcomesOnly(iso); got != want || want != "test:minus=killed test:times=killed test:same=survived" {
		t.Errorf("batched  %s\nisolated %s", got, want)
	}
	for _, r := range res.Mutants {
		if !r.Batched {
			t.Errorf("%s ran alone: %s", r.Mutant.Name, r.AloneWhy)
		}
	}
}
