package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
)

// spinSrc's loop waits 1 ms every 10,000 turns (Atomics.wait blocks the
// thread, as a busy loop does, without using the core): the mutant whose
// loop never ends is still stopped by the hit limit in a batch (100,000
// hits: 10 waits), and confirmed by the limit raised (10,000,000 hits: 1,000
// waits, about a second) in a batch run again, or at the run's wall-clock
// limit alone (Isolate), 10 s or more; a busy loop would burn a core of the
// test machine for all of it (the killed worker's CPU is not in go test's
// own account), beside the other packages' tests.
const spinSrc = `const nap = new Int32Array(new SharedArrayBuffer(4));

export function countTo(n: number): number {
  let i = 0;
  let turns = 0;
  while (i < n) {
    i++;
    if (++turns % 10000 === 0) Atomics.wait(nap, 0, 0, 1);
  }
  return i;
}

export async function settle(x: number): Promise<number> {
  const v = await Promise.resolve(x);
  return v + 1;
}
`

const spinTest = `import { expect, it } from "vitest";
import { countTo, settle } from "./spin";

it("counts", () => {
  expect(countTo(3)).toBe(3);
});

it("settles", async () => {
  expect(await settle(1)).toBe(2);
});
`

// spinRepo is a copy of testdata/pipeline (its vitest 4) with src/spin.ts,
// its test, and the mutants: one that loops forever, one that awaits what
// never settles, a plain kill and an equivalent one.
func spinRepo(t testing.TB) (string, []edit.Mutant) {
	return spinRepoWith(t, "pipeline")
}

// spinRepoWith is spinRepo with the node_modules of testdata/<env>.
func spinRepoWith(t testing.TB, env string) (string, []edit.Mutant) {
	t.Helper()
	repo := pipelineCopy(t, env, map[string]string{"src/spin.ts": spinSrc, "src/spin.test.ts": spinTest})
	mutant := func(sub, old, text string) edit.Mutant {
		at := strings.Index(spinSrc, old)
		m, err := edit.NewMutant("test", sub, "src/spin.ts", []byte(spinSrc), []edit.Change{{Start: uint(at), End: uint(at + len(old)), Text: text}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	return repo, []edit.Mutant{
		mutant("loop", "i++;", ";"),
		mutant("hang", "await Promise.resolve(x)", "await new Promise<number>(() => {})"),
		mutant("minus", "return v + 1;", "return v - 1;"),
		mutant("equivalent", "return v + 1;", "return v + 1 + 0;"),
	}
}

func runSpin(t testing.TB, repo string, ms []edit.Mutant, l Lab) *Result {
	t.Helper()
	return runSpinOn(t, repo, "", ms, l)
}

// runSpinOn is runSpin with node ("": the one on PATH).
func runSpinOn(t testing.TB, repo, node string, ms []edit.Mutant, l Lab) *Result {
	t.Helper()
	res, _ := labRun(t, repo, node, l, []string{"src/spin.test.ts"}, ms)
	return res
}

// TestLoopAndHangReal, with the sample's vitest: a mutant that loops
// forever and one that never settles are each a timeout, batched and
// isolated, and every mutant has the same outcome in both modes. In the
// batch, the loop ends at the hit limit and the hang at vitest's time-out,
// each in its own variant: the batch is not abandoned; both stops are
// suspicions (SPEC "Runs and kills"): the loop is confirmed by counting, in
// the batch run again with its limit raised a hundredfold, the hang by a
// run alone with vitest's time-outs raised, that times out.
func TestLoopAndHangReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo, ms := spinRepo(t)
	want := "test:loop=timeout test:hang=timeout test:minus=killed test:equivalent=survived"
	batched := runSpin(t, repo, ms, Lab{})
	if got := outcomesOnly(batched); got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
	if got, want := summarize(batched), "test:loop=timeout/batched test:hang=timeout test:minus=killed/batched test:equivalent=survived"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
	loop, hang := batched.Mutants[0], batched.Mutants[1]
	if !loop.HitLimit || !strings.HasPrefix(loop.Detail, edit.HitLimitMessage) || !strings.Contains(loop.Detail, "run again with the limit raised 100-fold (at least 10000000), more than 10000000") {
		t.Errorf("the loop is not stopped by the hit limit, then confirmed: %+v", loop)
	}
	// vitest's own 5 s (below the variant's limit, which only caps it).
	if !strings.Contains(hang.Detail, "settles: Test timed out in 5000ms") || strings.Contains(hang.Detail, "STACK_TRACE_ERROR") {
		t.Errorf("the hang's detail: %q", hang.Detail)
	}
	if batched.RanAlone != 2 || batched.HitLimits != 1 {
		t.Errorf("%d ran alone (want the hang, to confirm it, and the equivalent one), %d hit limits", batched.RanAlone, batched.HitLimits)
	}
	if !strings.Contains(hang.Detail, "run again alone, that test only, with vitest's time-outs raised to 10s") || !strings.Contains(hang.Detail, "it timed out too: the test timed out (vitest's time-out): settles: Test timed out in 10000ms") {
		t.Errorf("the hang is not confirmed with vitest's time-outs raised: %q", hang.Detail)
	}
	t.Logf("batched: baseline %s, batches %s, alone %s", batched.Baseline, batched.Batches, batched.Alone)
	isolated := runSpin(t, repo, ms, Lab{Isolate: true})
	if got := outcomesOnly(isolated); got != want {
		t.Errorf("isolated: %s\nwant      %s", got, want)
	}
	if d := isolated.Mutants[1].Detail; !strings.Contains(d, "settles: Test timed out in") {
		t.Errorf("the isolated hang's detail: %q", d)
	}
}

// outcomesOnly lists each mutant's run as name=outcome.
func outcomesOnly(res *Result) string {
	var got []string
	for _, run := range res.Mutants {
		got = append(got, run.Mutant.Name+"="+string(run.Outcome))
	}
	return strings.Join(got, " ")
}

// TestHangCappedReal: under a config that turns vitest's test time-out off
// (testTimeout: 0), the harness caps each test of a variant at the
// variant's own limit (here Lab.Timeout): the never-settling mutant is a
// batched timeout at that limit, and the batch goes on to the next variant.
func TestHangCappedReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	t.Run("vitest4", func(t *testing.T) { hangCapped(t, "pipeline", "") })
	// vitest 5 on its own Node 22 (testdata/vitest5): the harness reads and
	// caps the time-outs the same way.
	node, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	t.Run("vitest5", func(t *testing.T) { hangCapped(t, "vitest5", node) })
}

func hangCapped(t *testing.T, env, node string) {
	repo, ms := spinRepoWith(t, env)
	cfg := `import { defineConfig } from "vitest/config";
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 0 } });
`
	if err := os.WriteFile(filepath.Join(repo, "vitest.spin.config.ts"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runSpinOn(t, repo, node, ms[1:3], Lab{Config: "vitest.spin.config.ts", Timeout: 6 * time.Second})
	if got, want := summarize(res), "test:hang=timeout/batched test:minus=killed/batched"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if d := res.Mutants[0].Detail; !strings.Contains(d, "settles: Test timed out in 6000ms") {
		t.Errorf("the hang's detail: %q", d)
	}
}

// BenchmarkLoopAndHang: the batched lab on the loop-and-hang sample (the
// four mutants of TestLoopAndHangReal), with where its time went.
//
//	go test -run - -bench LoopAndHang -benchtime 1x -count 3 ./mutate/lab/
func BenchmarkLoopAndHang(b *testing.B) {
	repo, ms := spinRepo(b)
	for b.Loop() {
		res := runSpin(b, repo, ms, Lab{})
		b.ReportMetric(res.Baseline.Seconds(), "baseline-s")
		b.ReportMetric(res.Batches.Seconds(), "batches-s")
		b.ReportMetric(res.Alone.Seconds(), "alone-s")
		b.ReportMetric(float64(res.RanAlone), "ran-alone")
	}
}

// TestHitLimitBeforeAllReal: the hit limit counts what the test file's
// beforeAll hooks run in the original (here 300 × 1,002 hits in countTo,
// far more than any test's), so a mutant of countTo that its beforeAll
// runs as often is not stopped by the limit: killed, as alone, not a false
// timeout.
func TestHitLimitBeforeAllReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo, ms := spinRepo(t)
	at := strings.Index(spinSrc, "return i;")
	plus, err := edit.NewMutant("test", "plus", "src/spin.ts", []byte(spinSrc), []edit.Change{{Start: uint(at), End: uint(at + 9), Text: "return i + 1;"}})
	if err != nil {
		t.Fatal(err)
	}
	test := strings.Replace(spinTest, `import { expect, it } from "vitest";`, `import { beforeAll, expect, it } from "vitest";`, 1) +
		"\nbeforeAll(() => {\n  for (let k = 0; k < 300; k++) countTo(1000);\n});\n"
	if err := os.WriteFile(filepath.Join(repo, "src/spin.test.ts"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runSpin(t, repo, []edit.Mutant{plus, ms[2]}, Lab{})
	if got, want := summarize(res), "test:plus=killed/batched test:minus=killed/batched"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCountedAloneReal: a mutant run alone counts its hits (count.go), so a
// loop ends by counting, not at the run's wall-clock limit. Its test makes
// 2,001 hits in countTo on the original code: the endless loop, stopped at
// the first limit (10,000,000), is measured against the original (fewer
// than 2,048 hits in a test: a limit of 20,480,000) and stopped again there:
// a timeout of the counter; the long loop (12,000,000 iterations) stopped
// at the first limit finishes under the derived one, and its test kills it.
// Batched, both are decided the same way.
func TestCountedAloneReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo, ms := spinRepo(t)
	test := `import { expect, it } from "vitest";
import { countTo } from "./spin";

it("counts", () => {
  expect(countTo(2000)).toBe(2000);
});
`
	if err := os.WriteFile(filepath.Join(repo, "src/spin.test.ts"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	at := strings.Index(spinSrc, "while (i < n)")
	long, err := edit.NewMutant("test", "long", "src/spin.ts", []byte(spinSrc), []edit.Change{{Start: uint(at), End: uint(at + 13), Text: "while (i < n * 6000)"}})
	if err != nil {
		t.Fatal(err)
	}
	// A time limit no clock reaches: only counting decides (green at any load).
	isolated, stats := labRun(t, repo, "", Lab{Isolate: true, Timeout: 10 * time.Minute}, []string{"src/spin.test.ts"}, []edit.Mutant{ms[0], long})
	if got, want := outcomesOnly(isolated), "test:loop=timeout test:long=killed"; got != want {
		t.Fatalf("isolated: %s\nwant      %s", got, want)
	}
	// The baseline's runs (2); the loop alone and the original counted; the
	// long loop alone and again with the derived limit: the original of the
	// file is counted once for both (7 runs when it was counted per mutant).
	if runs := stats.Runs + stats.Fallbacks; runs != 6 {
		t.Errorf("%d runs, want 6 (the original counted once): %+v", runs, stats)
	}
	loop, fin := isolated.Mutants[0], isolated.Mutants[1]
	if !loop.HitLimit || !strings.Contains(loop.Detail, "more than 20480000 loop iterations and calls in one test run alone (the original's tests make fewer than 2048") {
		t.Errorf("the loop is not stopped by counting: %+v", loop)
	}
	if fin.HitLimit || !strings.Contains(fin.Detail, "more than 10000000 loop iterations and calls in one test run alone; the original's tests make fewer than 2048, so run again with the limit raised to 20480000, it finished: no loop") ||
		!strings.Contains(fin.Detail, "expected 12000000 to be 2000") {
		t.Errorf("the long loop is not let finish: %+v", fin)
	}
	batched := runSpin(t, repo, []edit.Mutant{ms[0], long}, Lab{Timeout: 10 * time.Minute})
	if got, want := outcomesOnly(batched), "test:loop=timeout test:long=killed"; got != want {
		t.Errorf("batched: %s\nwant     %s", got, want)
	}
}
