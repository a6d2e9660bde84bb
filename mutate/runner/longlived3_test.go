package runner

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/testenv"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// TestLongLivedVitest3: vitest 3.1 (testdata/vitest3) runs in the
// long-lived process too (its standalone() is init()), and each run there
// is what a fresh `vitest run` of the file says: the mutant's failure, the
// restored original's pass (the module graph re-transformed), the marker;
// and under a config with isolate: false, a second run's worker is fresh
// (vitest 3 recycles its workers after each run), so a file that fails
// when its worker ran it before passes every time.
func TestLongLivedVitest3(t *testing.T) {
	t.Parallel()
	v3 := testenv.Testdata("vitest3/node_modules")
	testenv.NeedFile(t, filepath.Join(v3, "vitest", "vitest.mjs"), "run scripts/deps")
	const calc = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"
	repo := testenv.WriteTree(t, "", map[string]string{
		"package.json": `{"name":"calc","private":true,"type":"module"}`,
		"src/calc.ts":  calc,
		"test/calc.test.ts": "import { expect, it } from \"vitest\";\nimport { add } from \"../src/calc\";\n" +
			"it(\"adds\", () => {\n  expect(add(2, 3)).toBe(5);\n});\nit(\"adds zero\", () => {\n  expect(add(2, 0)).toBe(2);\n});\n",
		"test/other.test.ts": "import { expect, it } from \"vitest\";\nit(\"holds\", () => {\n  expect(1 + 1).toBe(2);\n});\n",
		"vitest.config.ts":   "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"test/**/*.test.ts\"] } });\n",
		"vitest.shared.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], isolate: false } });\n",
		"test/fresh.test.ts": "import { expect, it } from \"vitest\";\n" +
			"it(\"starts in a fresh worker\", () => {\n  expect(Reflect.get(globalThis, \"seenBefore\")).toBeUndefined();\n  Reflect.set(globalThis, \"seenBefore\", 1);\n  expect(process.env.ORACLE_LEFT_BEFORE).toBeUndefined();\n  process.env.ORACLE_LEFT_BEFORE = \"1\";\n});\n",
	})
	if err := os.Symlink(v3, filepath.Join(repo, "node_modules")); err != nil {
		t.Fatal(err)
	}
	// In a sandbox, as every run is: vitest 3.1 loads the phases reporter
	// only from inside its root (writeReporter).
	sb, err := sbox.New(repo, sbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	dir := sb.Root
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: "test/calc.test.ts", Config: "vitest.config.ts", Timeout: time.Minute, ReachedMarker: "m3"}
	marked := strings.Replace(calc, "  return a + b;\n", "  "+MarkerStatement("m3")+"\n  return a + b;\n", 1)
	other := spec
	other.TestFile = "test/other.test.ts"
	for i, st := range []struct {
		spec    Spec
		src     string
		want    shape
		reached bool
	}{
		{spec, calc, passed, false},
		{spec, strings.Replace(marked, "a + b", "a - b", 1), bodyFailed, true},
		// Another file right after a failing run: vitest 3 keeps every file
		// of its runs in its state, and would exit 1 for this one (the
		// driver empties the state before each run).
		{other, calc, passed, false},
		{spec, calc, passed, false},
		{spec, marked, passed, true},
	} {
		if err := os.WriteFile(filepath.Join(dir, "src/calc.ts"), []byte(st.src), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := st.spec
		ll := llRun(t, r, spec)
		if shapeOf(ll) != st.want || ll.Reached != st.reached {
			t.Errorf("step %d: want %s reached=%v; got %+v", i, st.want, st.reached, ll)
		}
		fresh := run(t, spec)
		untimed(&ll)
		untimed(&fresh)
		if !reflect.DeepEqual(ll, fresh) {
			t.Errorf("step %d: the long-lived run and a fresh vitest run differ:\n  long-lived %+v\n  fresh      %+v", i, ll, fresh)
		}
	}
	shared := Spec{Dir: dir, TestFile: "test/fresh.test.ts", Config: "vitest.shared.config.ts", Timeout: time.Minute}
	for i := 0; i < 2; i++ {
		if res := llRun(t, r, shared); shapeOf(res) != passed {
			t.Errorf("isolate: false, run %d: want passed (a fresh worker); got %+v", i+1, res)
		}
	}
	if st := r.Stats(); st.Starts != 2 || st.Fallbacks != 0 {
		t.Errorf("want one process per config and no fallback; stats %+v", st)
	}
}

// TestLongLivedVitest3VMPools: vitest 3 keeps a vm pool's workers from run to run (recycled
// for memory only), so a test's write to process.env met the next run in the long-lived
// process, where a fresh `vitest run` starts clean: the second run failed. The driver now
// closes the pool after a run that used a vm pool.
func TestLongLivedVitest3VMPools(t *testing.T) {
	t.Parallel()
	v3 := testenv.Testdata("vitest3/node_modules")
	testenv.NeedFile(t, filepath.Join(v3, "vitest", "vitest.mjs"), "run scripts/deps")
	repo := testenv.WriteTree(t, "", map[string]string{
		"package.json": `{"name":"vm","private":true,"type":"module"}`,
		"vitest.vmthreads.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], pool: \"vmThreads\" } });\n",
		"vitest.vmforks.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], pool: \"vmForks\" } });\n",
		"test/env.test.ts": "import { expect, it } from \"vitest\";\n" +
			"it(\"starts in a fresh worker\", () => {\n  expect(process.env.ORACLE_LEFT_BEFORE).toBeUndefined();\n  process.env.ORACLE_LEFT_BEFORE = \"1\";\n});\n",
	})
	if err := os.Symlink(v3, filepath.Join(repo, "node_modules")); err != nil {
		t.Fatal(err)
	}
	sb, err := sbox.New(repo, sbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	dir := sb.Root
	r := newLL(t, dir, false)
	for _, cfg := range []string{"vitest.vmthreads.config.ts", "vitest.vmforks.config.ts"} {
		s := Spec{Dir: dir, TestFile: "test/env.test.ts", Config: cfg, Timeout: time.Minute}
		for i := 0; i < 3; i++ {
			if res := llRun(t, r, s); shapeOf(res) != passed {
				t.Errorf("%s, run %d: want passed (a fresh worker); got %+v", cfg, i+1, res)
			}
		}
	}
	if st := r.Stats(); st.Starts != 2 || st.Fallbacks != 0 || st.Runs != 6 {
		t.Errorf("want one process per config serving every run; stats %+v", st)
	}
}
