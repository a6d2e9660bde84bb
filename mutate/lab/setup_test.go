package lab

import (
	"testing"
)

// A registry built while the module loads, which a setup file (vitest's
// setupFiles) imports and puts in globalThis; the test reads it from there.
const setupSrc = `function build(): Map<string, number> {
  const m = new Map<string, number>();
  m.set("one", 1);
  m.set("two", 2);
  return m;
}

export const REGISTRY = build();

export function lookup(name: string): number {
  return REGISTRY.get(name) ?? 0;
}
`

const setupFile = `import { lookup } from "./registry";
Reflect.set(globalThis, "lookup", lookup);
`

const setupTest = `import { expect, it } from "vitest";

it("looks up through the function the setup file installed", () => {
  const lookup = Reflect.get(globalThis, "lookup") as (name: string) => number;
  expect(lookup("one")).toBe(1);
  expect(lookup("two")).toBe(2);
  expect(lookup("three")).toBe(0);
});
`

const setupConfig = `import { defineConfig } from "vitest/config";
export default defineConfig({ test: { include: ["src/**/*.test.ts"], setupFiles: ["./src/setup.ts"] } });
`

// TestSetupFileLoadBatchReal: a module a setup file loaded keeps its
// instance across the harness's vi.resetModules, so code that ran while it
// loaded ran without a variant: a mutant there passes in the batch though
// alone it is killed (found on no real repository of the trial; a setup file
// that installs a function of the code under test, as here). Such a batch's
// survivors are not trusted (the schema counts its loads, SchemaLoads): they
// run alone. Its kills are.
func TestSetupFileLoadBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/registry.ts": setupSrc, "src/setup.ts": setupFile, "src/registry.test.ts": setupTest, "vitest.config.ts": setupConfig})
	ms := textMutants(t, "src/registry.ts", setupSrc, [][3]string{
		{"one", `m.set("one", 1);`, `m.set("one", 3);`},
		{"dropped", `m.set("two", 2);`, ``},
		{"default", `?? 0`, `?? 1`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/registry.test.ts"}, ms)
		return res
	}
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:one=killed test:dropped=killed test:default=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	// The load-time mutants pass in the batch (the setup file's instance
	// loaded without them): they run alone. The call-time one reads the
	// switch when called: a batched kill.
	batched := run(Lab{})
	if got, want := summarize(batched), "test:one=killed test:dropped=killed test:default=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
}
