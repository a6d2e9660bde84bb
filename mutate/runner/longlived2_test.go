package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/internal/testenv"
	sbox "github.com/oracle-ts/oracle/mutate/sandbox"
)

// These tests run vitest 2.1.9 (testdata/vitest2, the version radashi pins) in the long-lived
// process: vitest 2 has none of the API the driver uses for vitest 3 and later
// (runTestSpecifications, invalidateFile, vite environments), and before the driver served it
// every run was a fresh `vitest run`. Each test fails on a fallback (newLL), so a driver that
// refuses vitest 2 fails them all.

const calc2 = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"

// v2Sandbox writes a small repository (src/calc.ts, its tests, configs) plus files, links
// node_modules to testdata/vitest2's, and returns its copy in a sandbox, as every run is.
func v2Sandbox(t *testing.T, files map[string]string) string {
	t.Helper()
	v2 := testenv.Testdata("vitest2/node_modules")
	testenv.NeedFile(t, filepath.Join(v2, "vitest", "vitest.mjs"), "run scripts/deps (scripts/test installs it)")
	tree := map[string]string{
		"package.json": `{"name":"calc","private":true,"type":"module"}`,
		"src/calc.ts":  calc2,
		"test/calc.test.ts": "import { expect, it } from \"vitest\";\nimport { add } from \"../src/calc\";\n" +
			"it(\"adds\", () => {\n  expect(add(2, 3)).toBe(5);\n});\nit(\"adds zero\", () => {\n  expect(add(2, 0)).toBe(2);\n});\n",
		"test/other.test.ts": "import { expect, it } from \"vitest\";\nit(\"holds\", () => {\n  expect(1 + 1).toBe(2);\n});\n",
		"vitest.config.ts":   "import { defineConfig } from \"vitest/config\";\nexport default defineConfig({ test: { include: [\"test/**/*.test.ts\"] } });\n",
	}
	for k, v := range files {
		tree[k] = v
	}
	repo := testenv.WriteTree(t, "", tree)
	if err := os.Symlink(v2, filepath.Join(repo, "node_modules")); err != nil {
		t.Fatal(err)
	}
	sb, err := sbox.New(repo, sbox.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb.Root
}

// sameAsFresh fails the test unless the long-lived run ll is what a fresh `vitest run` of the
// spec says now (the ProcessRunner's), times aside.
func sameAsFresh(t *testing.T, what string, ll Result, s Spec) {
	t.Helper()
	fresh := run(t, s)
	untimed(&ll)
	untimed(&fresh)
	if !reflect.DeepEqual(ll, fresh) {
		t.Errorf("%s: the long-lived run and a fresh vitest run differ:\n  long-lived %+v\n  fresh      %+v", what, ll, fresh)
	}
}

// TestLongLivedVitest2: one vitest 2 process serves every run, and each run is what a fresh
// `vitest run` of the file says: the mutant's failure (with its marker), another file right
// after it, the restored original's pass (the module graph re-transformed), a test file
// written since the last run (the list re-globbed); under isolate: false a second run's worker
// is fresh.
func TestLongLivedVitest2(t *testing.T) {
	t.Parallel()
	dir := v2Sandbox(t, map[string]string{
		"vitest.shared.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], isolate: false } });\n",
		"test/fresh.test.ts": "import { expect, it } from \"vitest\";\n" +
			"it(\"starts in a fresh worker\", () => {\n  expect(Reflect.get(globalThis, \"seenBefore\")).toBeUndefined();\n  Reflect.set(globalThis, \"seenBefore\", 1);\n  expect(process.env.ORACLE_LEFT_BEFORE).toBeUndefined();\n  process.env.ORACLE_LEFT_BEFORE = \"1\";\n});\n",
	})
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: "test/calc.test.ts", Config: "vitest.config.ts", Timeout: time.Minute, ReachedMarker: "m2"}
	marked := strings.Replace(calc2, "  return a + b;\n", "  "+MarkerStatement("m2")+"\n  return a + b;\n", 1)
	other := spec
	other.TestFile = "test/other.test.ts"
	for i, st := range []struct {
		spec    Spec
		src     string
		want    shape
		reached bool
	}{
		{spec, calc2, passed, false},
		{spec, strings.Replace(marked, "a + b", "a - b", 1), bodyFailed, true},
		// Another file right after a failing run: vitest 2 keeps every file of its runs in
		// its state, and would exit 1 for this one (the driver empties the state).
		{other, calc2, passed, false},
		{spec, calc2, passed, false},
		{spec, marked, passed, true},
		{spec, strings.Replace(calc2, "a + b", "a * b", 1), bodyFailed, false},
		{spec, calc2, passed, false},
	} {
		if err := os.WriteFile(filepath.Join(dir, "src/calc.ts"), []byte(st.src), 0o644); err != nil {
			t.Fatal(err)
		}
		ll := llRun(t, r, st.spec)
		if shapeOf(ll) != st.want || ll.Reached != st.reached {
			t.Errorf("step %d: want %s reached=%v; got %+v", i, st.want, st.reached, ll)
		}
		sameAsFresh(t, fmt.Sprintf("step %d", i), ll, st.spec)
	}
	// A test file written after the process globbed the include patterns.
	if err := os.WriteFile(filepath.Join(dir, "test/added.test.ts"), []byte("import { expect, it } from \"vitest\";\nimport { add } from \"../src/calc\";\n"+
		"it(\"adds one\", () => {\n  expect(add(1, 1)).toBe(2);\n});\nit(\"fails\", () => {\n  expect(add(1, 1)).toBe(3);\n});\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	added := spec
	added.TestFile = "test/added.test.ts"
	ll := llRun(t, r, added)
	if shapeOf(ll) != bodyFailed || ll.Executed() != 2 {
		t.Errorf("new test file: want its 2 tests run, one failing; got %+v", ll)
	}
	sameAsFresh(t, "new test file", ll, added)

	shared := Spec{Dir: dir, TestFile: "test/fresh.test.ts", Config: "vitest.shared.config.ts", Timeout: time.Minute}
	for i := 0; i < 2; i++ {
		if res := llRun(t, r, shared); shapeOf(res) != passed {
			t.Errorf("isolate: false, run %d: want passed (a fresh worker); got %+v", i+1, res)
		}
	}
	if st := r.Stats(); st.Starts != 2 || st.Fallbacks != 0 || st.Runs != 10 || st.Invalidated < 5 {
		// (src/calc.ts changed before steps 1, 2, 4, 5 and 6)
		t.Errorf("want one process per config serving every run, src/calc.ts invalidated 5 times; stats %+v", st)
	}
}

// TestLongLivedVitest2Timeout: a mutant that loops forever times out twice in the long-lived
// runner as in a fresh process (the process killed with its workers, a new one for the
// re-run), and the next run, the original restored, passes on a new process.
func TestLongLivedVitest2Timeout(t *testing.T) {
	t.Parallel()
	dir := v2Sandbox(t, nil)
	r := newLL(t, dir, false)
	spec := Spec{Dir: dir, TestFile: "test/calc.test.ts", Config: "vitest.config.ts", Timeout: 2 * time.Minute}
	if res := llRun(t, r, spec); shapeOf(res) != passed {
		t.Fatalf("baseline: %+v", res)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/calc.ts"), []byte(strings.Replace(calc2, "  return a + b;\n", endless+"  return a + b;\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	hang := spec
	hang.Timeout = 3 * time.Second
	ll := llRun(t, r, hang)
	fresh := run(t, hang)
	for _, res := range []Result{ll, fresh} {
		if !res.TimedOut || res.Attempts != 2 || res.ExitCode != -1 || !strings.Contains(res.Note, "run 2: ") {
			t.Errorf("want a time-out after 2 attempts; got %+v", res)
		}
	}
	if shapeOf(ll) != shapeOf(fresh) || ll.Attempts != fresh.Attempts || ll.ExitCode != fresh.ExitCode {
		t.Errorf("long-lived %+v, fresh %+v", ll, fresh)
	}
	assertNoProcesses(t, dir, nil)
	if err := os.WriteFile(filepath.Join(dir, "src/calc.ts"), []byte(calc2), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := llRun(t, r, spec); shapeOf(res) != passed || res.Attempts != 1 {
		t.Errorf("after the time-out: want passed; got %+v", res)
	}
	if st := r.Stats(); st.Starts != 3 || st.Fallbacks != 0 {
		t.Errorf("want 3 starts (initial, re-run, next run) and no fallback; stats %+v", st)
	}
}

// TestLongLivedVitest2VMPool: vitest 2's vmForks pool keeps its workers across runs (no
// recycling but for memory): the driver closes the pool after a run that used it, so the
// next run's worker is fresh (process.env is the worker's own, not the vm context's: without
// the close every second run fails). Its vmThreads pool is refused (its worker threads crash
// the driver's node within a few runs): the run falls back to a fresh process.
func TestLongLivedVitest2VMPool(t *testing.T) {
	t.Parallel()
	const envTest = "import { expect, it } from \"vitest\";\n" +
		"it(\"starts in a fresh worker\", () => {\n  expect(process.env.ORACLE_LEFT_BEFORE).toBeUndefined();\n  process.env.ORACLE_LEFT_BEFORE = \"1\";\n});\n"
	dir := v2Sandbox(t, map[string]string{
		"vitest.vmforks.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], pool: \"vmForks\" } });\n",
		"vitest.vmthreads.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], pool: \"vmThreads\" } });\n",
		"test/env.test.ts": envTest,
	})
	r := newLL(t, dir, false)
	s := Spec{Dir: dir, TestFile: "test/env.test.ts", Config: "vitest.vmforks.config.ts", Timeout: time.Minute}
	for i := 0; i < 3; i++ {
		res := llRun(t, r, s)
		if shapeOf(res) != passed {
			t.Errorf("vmForks, run %d: want passed (a fresh worker); got %+v", i+1, res)
		}
		if i == 2 {
			sameAsFresh(t, "vmForks", res, s)
		}
	}
	if st := r.Stats(); st.Starts != 1 || st.Fallbacks != 0 || st.Runs != 3 {
		t.Errorf("vmForks: want 3 runs on one process; stats %+v", st)
	}

	r.Close() // (th's cleanup wants no process in dir)

	// (A fresh vitest 2 run under vmThreads crashes now and then too, a segfault on Node 20:
	// the fallback's outcome is the ProcessRunner's by construction, and is not checked.)
	th := newLL(t, dir, true)
	s.Config = "vitest.vmthreads.config.ts"
	llRun(t, th, s)
	if st := th.Stats(); st.Starts != 1 || st.Fallbacks != 1 || st.Runs != 0 || !strings.Contains(st.LastFallback, "vmThreads") {
		t.Errorf("vmThreads: want the config refused and the run in a fresh process; stats %+v", st)
	}
}

// TestLongLivedVitest2Typecheck: a vitest 2 config with typecheck enabled beside its runtime
// tests keeps its runtime files in the long-lived process, and a type test falls back to a
// fresh process with its outcome (vitest 2's specifications hold the TestProject, not the
// project the driver knows to be in typecheck mode).
func TestLongLivedVitest2Typecheck(t *testing.T) {
	t.Parallel()
	dir := v2Sandbox(t, map[string]string{
		"vitest.typecheck.config.ts": "import { defineConfig } from \"vitest/config\";\n" +
			"export default defineConfig({ test: { include: [\"test/**/*.test.ts\"], typecheck: { enabled: true, include: [\"test/**/*.test-d.ts\"] } } });\n",
		"test/num.test-d.ts": "import { expectTypeOf, test } from \"vitest\";\n\ntest(\"a number\", () => {\n  expectTypeOf(1).toEqualTypeOf<number>();\n});\n",
		"tsconfig.json":      `{"compilerOptions":{"strict":true,"module":"ESNext","moduleResolution":"Bundler","target":"ES2022","noEmit":true,"skipLibCheck":true},"include":["src","test"]}`,
	})
	var fell []string
	r := newLL(t, dir, true)
	r.OnFallback = func(s Spec, reason string) { fell = append(fell, s.TestFile+": "+reason) }
	const cfg = "vitest.typecheck.config.ts"
	for i := 0; i < 2; i++ {
		if res := llRun(t, r, Spec{Dir: dir, TestFile: "test/calc.test.ts", Config: cfg, Timeout: time.Minute}); shapeOf(res) != passed {
			t.Errorf("runtime run %d: %+v", i, res)
		}
	}
	if st := r.Stats(); st.Runs != 2 || st.Fallbacks != 0 || st.Starts != 1 {
		t.Errorf("want the runtime file's 2 runs in one long-lived process; stats %+v, fallbacks %q", st, fell)
	}
	s := Spec{Dir: dir, TestFile: "test/num.test-d.ts", Config: cfg, Timeout: time.Minute}
	a := llRun(t, r, s)
	b := run(t, s)
	if shapeOf(a) != shapeOf(b) || a.Executed() != b.Executed() {
		t.Errorf("type test: long-lived runner %s (%d executed), fresh process %s (%d)", shapeOf(a), a.Executed(), shapeOf(b), b.Executed())
	}
	if st := r.Stats(); st.Fallbacks != 1 || st.Starts != 1 || !strings.Contains(st.LastFallback, "typecheck mode") {
		t.Errorf("want the type test alone in a fresh process, the long-lived one kept; stats %+v", st)
	}
}
