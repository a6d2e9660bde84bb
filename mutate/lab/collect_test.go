package lab

import (
	"path/filepath"
	"testing"
)

// A middleware factory (as hono's cors()): the outer function's body holds
// the function it returns, so a mutant in that function is a variant of the
// outer body, chosen when the factory is called.
const collectSrc = `export function makeGreeter(name: string): () => string {
  const prefix = "hello ";
  return function greet(): string {
    return prefix + name;
  };
}
`

// The test file calls the factory in a describe body: while vitest collects
// the file, after the import has returned.
const collectTest = `import { describe, expect, it } from "vitest";
import { makeGreeter } from "./greet";

describe("greeter", () => {
  const greet = makeGreeter("ann");
  it("greets", () => {
    expect(greet()).toBe("hello ann");
  });
});
`

// TestCollectTimeBatchReal: code a test file runs in its describe bodies
// (found on honojs/hono's cors tests: the app and its middleware built in
// the describe body) runs under the variant, as alone. The harness cleared
// the switch as the import returned, before vitest ran the file's describe
// bodies: the factory chose the original body, whose returned function is
// the original, and every mutant in it passed in the batch (86 false
// survivors of 146 on hono a1e4ac7d with --scope function).
func TestCollectTimeBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	t.Run("vitest4", func(t *testing.T) { collectTime(t, "pipeline", "") })
	node, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	t.Run("vitest5", func(t *testing.T) { collectTime(t, "vitest5", node) })
}

func collectTime(t *testing.T, env, node string) {
	repo := pipelineCopy(t, env, map[string]string{"src/greet.ts": collectSrc, "src/greet.test.ts": collectTest})
	ms := textMutants(t, "src/greet.ts", collectSrc, [][3]string{
		{"prefix", `"hello "`, `""`},
		{"inner", `return prefix + name;`, `return name;`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, node, l, []string{"src/greet.test.ts"}, ms)
		return res
	}
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:prefix=killed test:inner=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	batched := run(Lab{})
	if got, want := summarize(batched), "test:prefix=killed/batched test:inner=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
}
