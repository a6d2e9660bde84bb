package lab

import (
	"strings"
	"testing"
)

// The registry shape (the held-out "orders" app): a fixture imports the
// database module statically and migrates it in setup; the test imports the
// code under test at run time, in its beforeEach, as a generated oracle
// does. Alone, the code under test and the fixture share one database
// instance. In a batch every block's load is a fresh import of the test file
// (a fresh fixture, a fresh database), all collected before any test runs:
// without the registry set back per block, the code a block's test imports
// is bound to the last block's database, which its fixture never migrated.
const registryDB = `const tables = new Set<string>();
export function migrate(): void {
  tables.add("orders");
}
export function insert(x: number): number {
  if (!tables.has("orders")) throw new Error("no such table: orders");
  return x;
}
`

const registryFixture = `import { migrate } from "./db";
export function setup(): void {
  migrate();
}
`

const registryStore = `import { insert } from "./db";
export function save(n: number): number {
  return insert(n * 2);
}
`

const registryTest = `import { beforeEach, expect, it } from "vitest";
import { setup } from "./fixture";

let save: typeof import("./store").save;
beforeEach(async () => {
  setup();
  save = (await import("./store")).save;
});
it("saves three", () => {
  expect(save(3)).toBe(6);
});
it("saves zero", () => {
  expect(save(0)).toBe(0);
});
`

// TestRegistryPerBlockReal: the batch decides every mutant (no "the
// batch's baseline failed": each block's tests run on the registry its own
// load left), with the outcomes applied by hand: n + 2 and n / 2 fail
// "saves three", 2 * n passes both tests.
func TestRegistryPerBlockReal(t *testing.T) {
	t.Parallel()
	selectEnvs(t, func(t *testing.T, env, node string) {
		repo := pipelineCopy(t, env, map[string]string{
			"src/db.ts": registryDB, "src/fixture.ts": registryFixture,
			"src/store.ts": registryStore, "src/store.test.ts": registryTest,
		})
		res, _ := labRun(t, repo, node, Lab{Coverage: true}, []string{"src/store.test.ts"}, textMutants(t, "src/store.ts", registryStore, [][3]string{
			{"plus", "n * 2", "n + 2"},
			{"half", "n * 2", "n / 2"},
			{"same", "n * 2", "2 * n"},
		}))
		if got, want := outcomesOnly(res), "test:plus=killed test:half=killed test:same=survived"; got != want {
			t.Errorf("got  %s\nwant %s (%s)", got, want, aloneWhys(res))
		}
		if w := aloneWhys(res); strings.Contains(w, AloneBaselineFailed) || strings.Contains(w, AloneClosingFailed) || len(res.Refused) > 0 {
			t.Errorf("the batch was not trusted: %s %v", w, res.Refused)
		}
	})
}
