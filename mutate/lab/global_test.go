package lab

import (
	"testing"
)

// A table built once per realm: the module keeps it in globalThis (as
// polyfills and singletons do) and builds it only when it is not there.
const globalSrc = `function build(): Map<string, number> {
  const m = new Map<string, number>();
  m.set("one", 1);
  return m;
}

const TABLE: Map<string, number> =
  Reflect.get(globalThis, "__table") ?? (Reflect.set(globalThis, "__table", build()), Reflect.get(globalThis, "__table"));

export function lookup(name: string): number {
  return TABLE.get(name) ?? 0;
}
`

const globalTest = `import { expect, it } from "vitest";
import { lookup } from "./table";

it("looks up", () => {
  expect(lookup("one")).toBe(1);
  expect(lookup("two")).toBe(0);
});
`

// TestGlobalOnceBatchReal: a module that builds its table once per realm
// (kept in globalThis) builds it in the batch only for the opening
// baseline: a mutant in the build passes in the batch though alone it is
// killed. The harness sees the load add a global (globalsNote): the batch's
// survivors are not trusted, they run alone; its kills are.
func TestGlobalOnceBatchReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/table.ts": globalSrc, "src/table.test.ts": globalTest})
	ms := textMutants(t, "src/table.ts", globalSrc, [][3]string{
		{"one", `m.set("one", 1);`, `m.set("one", 3);`},
		{"default", `?? 0`, `?? 1`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/table.test.ts"}, ms)
		return res
	}
	isolated := run(Lab{Isolate: true})
	if got, want := outcomesOnly(isolated), "test:one=killed test:default=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	batched := run(Lab{})
	if got, want := summarize(batched), "test:one=killed test:default=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
}

// A global a test sets and its afterEach resets to undefined (vercel/ai's
// telemetry tests: globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined),
// and a fetch (Node 20 makes its default dispatcher on the first one, in a
// global).
const resetSrc = `export function double(x: number): number {
  return x * 2;
}
`

const resetTest = `import { afterEach, expect, it } from "vitest";
import { double } from "./double";

afterEach(() => {
  Reflect.set(globalThis, "__integrations", undefined);
});

it("doubles", async () => {
  Reflect.set(globalThis, "__integrations", [1]);
  await fetch("http://127.0.0.1:9/").catch(() => undefined);
  expect(double(2)).toBe(4);
});
`

// TestGlobalResetBatchReal: a global the tests leave defined with the value
// undefined holds no state, and neither does the dispatcher Node's fetch
// makes: the batch's survivor is trusted there (it ran alone for either
// before: AloneShared), as the isolated run agrees.
func TestGlobalResetBatchReal(t *testing.T) {
	t.Parallel()
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/double.ts": resetSrc, "src/double.test.ts": resetTest})
	ms := textMutants(t, "src/double.ts", resetSrc, [][3]string{
		{"plus", `x * 2`, `x + 2`}, // 2 + 2 = 4: survives these tests
		{"three", `x * 2`, `x * 3`},
	})
	run := func(l Lab) *Result {
		l.Coverage = true
		res, _ := labRun(t, repo, "", l, []string{"src/double.test.ts"}, ms)
		return res
	}
	if got, want := outcomesOnly(run(Lab{Isolate: true})), "test:plus=survived test:three=killed"; got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	batched := run(Lab{})
	if got, want := summarize(batched), "test:plus=survived/batched test:three=killed/batched"; got != want {
		t.Errorf("batched: %s\nwant     %s (%s)", got, want, aloneWhys(batched))
	}
}
