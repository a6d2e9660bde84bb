package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// A module whose functions separate tests reach, and a state one test sets
// and another reads.
const selectSrc = `let level = 0;
export function configure(n: number): void {
  level = n;
}
export function current(): number {
  return level;
}
export function area(w: number, h: number): number {
  return w * h;
}
export function clamp(x: number, lo: number, hi: number): number {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
export function greet(name: string): string {
  return "hi " + name;
}
`

// selectTest is its test file: each test appends its name to the log at
// logPath when it runs, and its afterEach hook "after". "reads the level"
// passes only after "configures" (which reaches none of the mutated code)
// ran; the sixteen "other" tests, after every test that reaches the
// module, reach none of it.
func selectTest(logPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `import { appendFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { area, clamp, configure, current, greet } from "./store";

const log = (n: string) => appendFileSync(%q, n + "\n");
afterEach(() => log("after"));

describe("store", () => {
  it("configures", () => { log("configures"); configure(5); });
  it("reads the level", () => { log("reads"); expect(current()).toBe(5); });
  it("area", () => { log("area"); expect(area(2, 3)).toBe(6); });
  it("clamps low", () => { log("clamp"); expect(clamp(-1, 0, 9)).toBe(0); });
  it("clamps high", () => { log("clamp"); expect(clamp(10, 0, 9)).toBe(9); });
  it("keeps", () => { log("clamp"); expect(clamp(4, 0, 9)).toBe(4); });
  it("greets", () => { log("greets"); expect(greet("a")).toBe("hi a"); });
`, logPath)
	for i := range 16 {
		fmt.Fprintf(&b, "  it(\"other %d\", () => { log(\"other\"); expect(%d + 1).toBe(%d); });\n", i, i, i+1)
	}
	b.WriteString("});\n")
	return b.String()
}

// selectRun runs ms against the store's test file, on the vitest of
// testdata/<env> (node: "" for the one on PATH), with l; it returns the
// result and how many times each logged name ran.
func selectRun(t *testing.T, env, node string, l Lab, ms [][3]string) (*Result, map[string]int) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "ran.log")
	repo := pipelineCopy(t, env, map[string]string{"src/store.ts": selectSrc, "src/store.test.ts": selectTest(logPath)})
	l.Coverage = true
	res, _ := labRun(t, repo, node, l, []string{"src/store.test.ts"}, textMutants(t, "src/store.ts", selectSrc, ms))
	b, _ := os.ReadFile(logPath)
	counts := map[string]int{}
	for _, n := range strings.Fields(string(b)) {
		counts[n]++
	}
	return res, counts
}

// selectEnvs are the vitests the harness's selection is checked on.
func selectEnvs(t *testing.T, f func(t *testing.T, env, node string)) {
	node5, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	for _, c := range []struct{ env, node string }{{"pipeline", ""}, {"vitest3", ""}, {"vitest5", node5}} {
		t.Run(c.env, func(t *testing.T) { f(t, c.env, c.node) })
	}
}

// withVitest2 is selectEnvs and vitest 2.1 (testdata/vitest2), for the
// harness's shapes vitest 2 treats its own way.
func withVitest2(t *testing.T, f func(t *testing.T, env, node string)) {
	t.Run("vitest2", func(t *testing.T) { f(t, "vitest2", "") })
	selectEnvs(t, f)
}

// TestSelectionStateReal: "reads the level" reaches current() and passes
// only after "configures", which does not reach it. The selection of
// current()'s statement keeps every test up to the first that reaches it,
// "configures" with it: the equivalent mutant (level * 1) survives, as
// applied by hand (every test passes), and the real one (level + 1) is
// killed by "reads the level" with nothing left out before it, a kill
// used as it is. "configures" runs wherever "reads" does: the coverage
// baseline, the batch's two, the selection's two, and each variant's
// selection (and a survivor's run alone).
func TestSelectionStateReal(t *testing.T) {
	selectEnvs(t, func(t *testing.T, env, node string) {
		res, ran := selectRun(t, env, node, Lab{}, [][3]string{
			{"same", "return level;", "return level * 1;"},
			{"plus", "return level;", "return level + 1;"},
		})
		if got, want := outcomesOnly(res), "test:same=survived test:plus=killed"; got != want {
			t.Errorf("got  %s\nwant %s (%s)", got, want, aloneWhys(res))
		}
		alone := sharedAlone(t, res)
		if ran["configures"] != 7+alone || ran["reads"] != 7+alone || ran["other"] != (3+alone)*16 {
			t.Errorf("configures ran %d times, reads %d, other %d (want %d, %d, %d: %v)", ran["configures"], ran["reads"], ran["other"], 7+alone, 7+alone, (3+alone)*16, ran)
		}
	})
}

// aloneWhys lists why each mutant that ran alone did.
func aloneWhys(res *Result) string {
	var w []string
	for _, r := range res.Mutants {
		if r.AloneWhy != "" {
			w = append(w, r.Mutant.Name+": "+r.AloneWhy)
		}
	}
	return strings.Join(w, "; ")
}

// TestSelectionSkipsReal: each variant runs only the tests up to the first
// that reached its statement in the batch's opening baseline and the
// others that reached it (the sixteen "other" tests run only in the
// baselines), and every outcome is Isolate's.
func TestSelectionSkipsReal(t *testing.T) {
	ms := [][3]string{
		{"same", "return level;", "return level * 1;"},
		{"plus", "return level;", "return level + 1;"},
		{"area", "w * h", "w + h"},
		{"low", "x < lo", "x <= lo"}, // equivalent on these tests
		{"high", "return hi;", "return lo;"},
		{"greet", `"hi " + name`, `"ho " + name`},
	}
	selectEnvs(t, func(t *testing.T, env, node string) {
		iso, _ := selectRun(t, env, node, Lab{Isolate: true}, ms)
		res, ran := selectRun(t, env, node, Lab{}, ms)
		if got, want := outcomesOnly(res), outcomesOnly(iso); got != want {
			t.Errorf("batched  %s\nisolated %s", got, want)
		}
		if got, want := outcomesOnly(iso), "test:same=survived test:plus=killed test:area=killed test:low=survived test:high=killed test:greet=killed"; got != want {
			t.Errorf("isolated %s\nwant     %s", got, want)
		}
		alone := sharedAlone(t, res)
		// Each "other" test: the coverage baseline and the batch's two (and
		// a survivor's run alone); without selection every variant's block
		// runs them. "greets": those, and its selection's two baselines and
		// the variant's selection: every selection before it stops at an
		// earlier test.
		if ran["other"] != (3+alone)*16 || ran["greets"] != 6+alone {
			t.Errorf("other ran %d times (want %d), greets %d (want %d): %v", ran["other"], (3+alone)*16, ran["greets"], 6+alone, ran)
		}
		for _, r := range res.Mutants {
			if r.AloneWhy == AloneSelectionKill {
				t.Errorf("%s: %s, where nothing was left out before its killer", r.Mutant.Name, r.AloneWhy)
			}
		}
		// A test a variant does not run is taken out of its block, not
		// skipped in a hook: the test file's afterEach runs after the tests
		// that ran and after no other (skipped one by one, each of them cost
		// its hooks and two task updates: unjs/pathe's batches took 3.3
		// times as long).
		bodies := 0
		for n, c := range ran {
			if n != "after" {
				bodies += c
			}
		}
		if ran["after"] != bodies {
			t.Errorf("the test file's afterEach ran %d times, its test bodies %d: a test left out of a variant's selection still ran its hooks", ran["after"], bodies)
		}
	})
}

// sharedAlone is how many mutants of res ran alone, each only because its
// batch changed a global (vitest 5 adds one as it runs: AloneShared).
func sharedAlone(t *testing.T, res *Result) int {
	t.Helper()
	n := 0
	for _, r := range res.Mutants {
		if !r.Batched {
			n++
			if r.AloneWhy != AloneShared {
				t.Errorf("%s ran alone: %s", r.Mutant.Name, r.AloneWhy)
			}
		}
	}
	return n
}

// TestSelectionBaselineRead: reading a batch, a variant that ran its
// selection (selNote) has its kill used only when the report shows that
// selection's two baselines (before the key's variants and after them)
// green; otherwise it runs alone (AloneSelection), whatever the harness
// decided.
func TestSelectionBaselineRead(t *testing.T) {
	test := func(block, name string, st runner.TestStatus) runner.Test {
		return runner.Test{Name: block + " " + name, Status: st, Phase: runner.PhaseBody}
	}
	for _, c := range []struct {
		name       string
		base, post runner.TestStatus // the selection's baselines' test
		sel        string            // the variant's selection note
		left       bool              // the variant's selection left out "s a", before its failure
		want       string            // the variant's outcome, or why it runs alone
	}{
		{"green selection", runner.TestPassed, runner.TestPassed, mark(selNote, 2, "base", 1), false, "killed"},
		{"red selection", runner.TestFailed, runner.TestPassed, mark(selNote, 2, "base", 1), false, AloneSelection},
		{"red after the variants", runner.TestPassed, runner.TestFailed, mark(selNote, 2, "base", 1), false, AloneSelection},
		{"every test skipped", runner.TestSkipped, runner.TestPassed, mark(selNote, 2, "base", 1), false, AloneSelection},
		{"skipped after the variants", runner.TestPassed, runner.TestSkipped, mark(selNote, 2, "base", 1), false, AloneSelection},
		{"a note naming a variant", runner.TestPassed, runner.TestPassed, mark(selNote, 2, "base", 2), false, AloneSelection},
		{"no selection: every test ran", runner.TestFailed, runner.TestFailed, "", false, "killed"},
		// A test left out before the failure (issue 41): the kill is
		// confirmed on the whole file.
		{"a test left out before the kill", runner.TestPassed, runner.TestPassed, mark(selNote, 2, "base", 1), true, AloneSelectionKill},
		// A test skipped before the failure, and no note: a selection
		// whose note was lost (its baselines are not known).
		{"a lost note", runner.TestPassed, runner.TestPassed, "lost", true, AloneSelection},
	} {
		t.Run(c.name, func(t *testing.T) {
			tk := &task{n: 0}
			b := batchRun{test: "a.test.ts", blocks: selectBlocks(batchPlan{tasks: []*task{tk}, keys: map[*task]int{tk: 1}}), limit: time.Minute}
			r := runner.Result{}
			for _, bl := range b.blocks {
				title := bl.title()
				a, bt := runner.TestPassed, runner.TestPassed
				switch bl.n {
				case 1:
					a, bt = runner.TestSkipped, c.base
				case 3:
					a, bt = runner.TestSkipped, c.post
				case 2:
					bt = runner.TestFailed
					if c.left {
						a = runner.TestSkipped
					}
				}
				r.Tests = append(r.Tests, test(title, "s a", a), test(title, "s b", bt))
			}
			r.Markers = []string{mark(ranNote, 2, "test", variantTitle(2, 1)+" s b")}
			if c.sel != "" && c.sel != "lost" {
				r.Markers = append(r.Markers, c.sel)
			}
			if !(&Lab{}).batchRead(r, b) {
				t.Fatal("the batch is not trusted")
			}
			got := tk.why
			if tk.run != nil {
				got = string(tk.run.Outcome)
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// A function that sets an environment variable (state vi.resetModules
// does not reset, and no global the harness watches) when asked to.
const flagSrc = `export function mark(on: boolean): string {
  if (on) process.env.ORACLE_SELECT_FLAG = "x";
  return on ? "on" : "off";
}
`

// flagTest: "marks once" reaches mark first; "resets" (which never calls
// mark) clears the variable; "marks off" needs it unset (four more tests
// make a selection of two worth its two baselines). A selection of mark's
// statement keeps "marks once" and "marks off", and leaves out "resets".
const flagTest = `import { describe, expect, it } from "vitest";
import { mark } from "./flag";

describe("flag", () => {
  it("marks once", () => { expect(mark(false)).toBe("off"); });
  it("resets", () => { delete process.env.ORACLE_SELECT_FLAG; });
  it.each([1, 2, 3, 4])("counts %i", (n) => { expect(n).toBeGreaterThan(0); });
  it("marks off", () => {
    expect(mark(false)).toBe("off");
    expect(process.env.ORACLE_SELECT_FLAG).toBeUndefined();
  });
});
`

// TestSelectionLeftStateReal: the variant "always" sets the variable and
// fails "marks off" in its selection, after "resets" was left out (killed
// alone, as by hand: "always" sets it again after "resets"). It leaves the
// variable set. The next variant of the same statement ("same",
// equivalent) runs its selection, which trips on it: no kill, since the
// selection's closing baseline (after the key's variants) fails the same
// way. Applied by hand, "same" survives (every test passes); the batch's
// closing baseline, a full run, passes ("resets" clears the variable
// before "marks off").
func TestSelectionLeftStateReal(t *testing.T) {
	selectEnvs(t, func(t *testing.T, env, node string) {
		repo := pipelineCopy(t, env, map[string]string{"src/flag.ts": flagSrc, "src/flag.test.ts": flagTest})
		ms := textMutants(t, "src/flag.ts", flagSrc, [][3]string{
			{"always", "if (on)", "if (true)"},
			{"same", `= "x"`, `= "x" + ""`},
		})
		res, _ := labRun(t, repo, node, Lab{Coverage: true}, []string{"src/flag.test.ts"}, ms)
		if got, want := outcomesOnly(res), "test:always=killed test:same=survived"; got != want {
			t.Errorf("got  %s\nwant %s (%s)", got, want, aloneWhys(res))
		}
		if r := res.Mutants[1]; r.Batched || r.AloneWhy != AloneSelection {
			t.Errorf("same: batched %v, alone because %q; want alone: %s", r.Batched, r.AloneWhy, AloneSelection)
		}
	})
}

// TestHarnessEmptySelectionReal: a baseline block whose key has no
// selection (no test reached the key: here no schema records one) keeps
// one test, skipped, where the rest are taken out: a block emptied of its
// tests is a suite vitest fails ("No test found in suite"), and the harness
// file with it.
func TestHarnessEmptySelectionReal(t *testing.T) {
	t.Parallel()
	repo := pipelineCopy(t, "pipeline", map[string]string{"src/two.test.ts": `import { describe, expect, it } from "vitest";
describe("two", () => {
  it("one", () => { expect(1).toBe(1); });
  it("two", () => { expect(2).toBe(2); });
});
`})
	blocks := []*block{{n: 0}, {n: 1, key: 1}, {n: 2}}
	h := "src/" + HarnessPrefix + "two.test.ts"
	if err := os.WriteFile(filepath.Join(repo, h), harness("two.test.ts", blocks, 10*time.Second, batchHits, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := runner.New().Run(context.Background(), runner.Spec{Dir: repo, TestFile: h, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range r.Tests {
		got = append(got, tc.Name+"="+string(tc.Status))
	}
	want := "oracle-variant-0-0 two one=passed oracle-variant-0-0 two two=passed " +
		"oracle-variant-1-0 two one=skipped oracle-variant-1-0 two two=skipped " +
		"oracle-variant-2-0 two one=passed oracle-variant-2-0 two two=passed"
	if r.FileFailed || r.FileMessage != "" || strings.Join(got, " ") != want {
		t.Errorf("file failed %v %q, tests:\n%s\nwant\n%s", r.FileFailed, r.FileMessage, strings.Join(got, " "), want)
	}
}

// TestOverlapRead: a batch whose blocks did not run one after the other
// (overlapNote: a block started while another ran) is not read at all:
// its kill (here a clean one) is not used, and the variant runs alone,
// saying why. (vitest 5 has no describe.sequential: under a concurrent
// config its plain describe blocks ran at the same time, and every variant
// "survived" under another's switch.)
func TestOverlapRead(t *testing.T) {
	tk := &task{n: 0}
	b := batchRun{test: "a.test.ts", blocks: selectBlocks(batchPlan{tasks: []*task{tk}}), limit: time.Minute}
	r := runner.Result{Markers: []string{mark(ranNote, 1, "test", variantTitle(1, 1)+" s a")}}
	for _, bl := range b.blocks {
		st := runner.TestPassed
		if bl.task != nil {
			st = runner.TestFailed
		}
		r.Tests = append(r.Tests, runner.Test{Name: bl.title() + " s a", Status: st, Phase: runner.PhaseBody})
	}
	if !(&Lab{}).batchRead(r, b) || tk.run == nil || tk.run.Outcome != Killed {
		t.Fatalf("without the note: trusted, killed; got run %+v, why %q", tk.run, tk.why)
	}
	tk.run, tk.why = nil, ""
	r.Markers = append(r.Markers, mark(overlapNote, -1))
	if (&Lab{}).batchRead(r, b) || tk.run != nil || tk.why != AloneOverlap {
		t.Errorf("with the overlap note: run %+v, why %q; want no run, %q", tk.run, tk.why, AloneOverlap)
	}
}

// A module whose state one test sets and whose function another test
// asserts on strictly only when that state was not set (issue 41).
const factorSrc = `let factor = 1;
export function setFactor(f: number): void {
  factor = f;
}
export function getFactor(): number {
  return factor;
}
export function scale(n: number): number {
  return n * getFactor() + 2;
}
`

// factorTest: "configures" sets the factor (it never calls scale), twelve
// tests reach nothing of the module, and "scales", the last, asserts
// strictly only when the factor was not set. With probe, a first test
// calls scale and asserts only that it gives a number.
func factorTest(probe bool) string {
	var b strings.Builder
	b.WriteString(`import { describe, expect, it } from "vitest";
import { getFactor, scale, setFactor } from "./factor";

describe("factor", () => {
`)
	if probe {
		b.WriteString("  it(\"probes\", () => { expect(typeof scale(1)).toBe(\"number\"); });\n")
	}
	b.WriteString(`  it("configures", () => { setFactor(10); expect(getFactor()).toBe(10); });
`)
	for i := range 12 {
		fmt.Fprintf(&b, "  it(\"other %d\", () => { expect(%d + 1).toBe(%d); });\n", i, i, i+1)
	}
	b.WriteString(`  it("scales", () => {
    const r = scale(2);
    if (getFactor() === 1) expect(r).toBe(4);
    else expect(r).toBeGreaterThan(0);
  });
});
`)
	return b.String()
}

// TestSelectionDroppedStateReal (issue 41): a selection of scale's
// statement that leaves out "configures" passes on the original (the
// strict branch holds for the original), so the selection's baselines are
// green; but the variants' failures there ("expected 5 to be 4") are not
// what the real suite gives: run whole, in order, the factor is 10 and
// every test passes (applied by hand, vitest passes all 14). Both mutants
// survive, as with Isolate. Without a probe, "scales" is the first test to
// reach the statement and the selection keeps every test before it (a
// selection of the whole file: none); with the probe first, the selection
// is "probes" and "scales", the variants fail "scales" after tests left
// out, and the kill is confirmed on the whole file (again.go): without
// keptBefore both are killed there.
func TestSelectionDroppedStateReal(t *testing.T) {
	ms := [][3]string{
		{"minus", "n * getFactor() + 2", "n * getFactor() - 2"},
		{"plus", "n * getFactor() + 2", "n + getFactor() + 2"},
	}
	for _, probe := range []bool{false, true} {
		t.Run(fmt.Sprintf("probe=%v", probe), func(t *testing.T) {
			selectEnvs(t, func(t *testing.T, env, node string) {
				run := func(l Lab) *Result {
					repo := pipelineCopy(t, env, map[string]string{"src/factor.ts": factorSrc, "src/factor.test.ts": factorTest(probe)})
					l.Coverage = true
					res, _ := labRun(t, repo, node, l, []string{"src/factor.test.ts"}, textMutants(t, "src/factor.ts", factorSrc, ms))
					return res
				}
				iso, res := run(Lab{Isolate: true}), run(Lab{})
				if got, want := outcomesOnly(iso), "test:minus=survived test:plus=survived"; got != want {
					t.Fatalf("isolated %s\nwant     %s", got, want)
				}
				if got, want := outcomesOnly(res), outcomesOnly(iso); got != want {
					t.Errorf("batched  %s\nisolated %s (%s)", got, want, aloneWhys(res))
				}
				for _, r := range res.Mutants {
					if !r.Batched {
						t.Errorf("%s ran alone (%s): the whole file's batch decides it", r.Mutant.Name, r.AloneWhy)
					}
				}
			})
		})
	}
}
