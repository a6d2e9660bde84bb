package lab

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/internal/testenv"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// The joint baseline's sample: two functions, and a third called while the
// module loads (every test file importing it runs it, in a run of its own).
const jointSrc = `export function inc(x: number) {
  return x + 1;
}
export function dbl(x: number) {
  return x * 2;
}
function build() {
  return [1, 2];
}
export const table = build();
`

var jointTests = map[string]string{
	// Reaches inc only (and build, loading the module); passes.
	"src/ja.test.ts": `import { expect, it } from "vitest";
import { inc, table } from "./joint";

it("inc", () => {
  expect(inc(1)).toBe(2);
  expect(table).toEqual([1, 2]);
});
`,
	// Reaches dbl only (and build); one test fails in its body.
	"src/jb.test.ts": `import { expect, it } from "vitest";
import { dbl } from "./joint";

it("dbl", () => {
  expect(dbl(2)).toBe(4);
});
it("dbl wrong", () => {
  expect(dbl(2)).toBe(5);
});
`,
	// Reaches neither function but build; passes alone, and fails after a
	// file that left a global behind in the same worker (ja's sibling jd).
	"src/jc.test.ts": `import { expect, it } from "vitest";
import { table } from "./joint";

it("clean globals", () => {
  expect(Reflect.get(globalThis, "leftByJd")).toBeUndefined();
  Reflect.set(globalThis, "leftByJc", 1);
  expect(table.length).toBe(2);
});
`,
	"src/jd.test.ts": `import { expect, it } from "vitest";
import { inc } from "./joint";

it("clean globals too", () => {
  expect(Reflect.get(globalThis, "leftByJc")).toBeUndefined();
  Reflect.set(globalThis, "leftByJd", 1);
  expect(inc(0)).toBe(1);
});
`,
}

// TestJointBaselinesReal: with the sample's vitest and the long-lived
// runner, the baselines of four test files run in one vitest run, and every
// file gets what a run of its own gives: its outcome (jb red by its own
// assertion, the others green, though jc or jd fails in the joint run for
// the other's global: it runs again alone), its tests, and the functions it
// entered (inc by ja and jd, dbl by jb only; build, run while the module
// loads, by all four: the worker resets its modules before each file).
func TestJointBaselinesReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	t.Run("vitest4", func(t *testing.T) { jointBaselines(t, "pipeline", "") })
	// vitest 5 on its own Node 22 (testdata/vitest5).
	node, _ := filepath.Abs("../../testdata/vitest5/node_modules/node/bin/node")
	t.Run("vitest5", func(t *testing.T) { jointBaselines(t, "vitest5", node) })
}

func jointBaselines(t *testing.T, env, node string) {
	files := map[string]string{"src/joint.ts": jointSrc}
	var tests []string
	for f, body := range jointTests {
		files[f] = body
		tests = append(tests, f)
	}
	repo := pipelineCopy(t, env, files)
	slices.Sort(tests)
	span := func(fn string) Probe {
		start := strings.Index(jointSrc, fn)
		open := start + strings.Index(jointSrc[start:], "{")
		end := open + strings.Index(jointSrc[open:], "\n}") + 2
		return Probe{Path: "src/joint.ts", Body: [2]uint{uint(open), uint(end)}}
	}
	probes := []Probe{span("function inc"), span("function dbl"), span("function build")}
	run := func(noJoint bool) (string, runner.LongLivedStats) {
		res, st := labRun(t, repo, node, Lab{MarkerPrefix: "j", Coverage: true, Probes: probes, NoJoint: noJoint}, tests, nil)
		var b strings.Builder
		for _, run := range res.Baselines {
			fmt.Fprintf(&b, "%s=%s %q tests:", run.Test, run.Outcome, run.Detail)
			for _, tc := range run.Tests {
				fmt.Fprintf(&b, " %s/%s/%s", tc.Name, tc.Status, tc.Phase)
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "entered %v idle %v mutants %d", enteredBy(res.EnteredBy, probes), res.Idle, len(res.Mutants))
		return b.String(), st
	}
	want := `src/ja.test.ts=passed "" tests: inc/passed/
src/jb.test.ts=failed "AssertionError: expected 4 to be 5 // Object.is equality" tests: dbl/passed/ dbl wrong/failed/body
src/jc.test.ts=passed "" tests: clean globals/passed/
src/jd.test.ts=passed "" tests: clean globals too/passed/
entered [[src/ja.test.ts src/jd.test.ts] [src/jb.test.ts] [src/ja.test.ts src/jb.test.ts src/jc.test.ts src/jd.test.ts]] idle [] mutants 0`
	alone, st := run(true)
	if alone != want || st.JointRuns != 0 {
		t.Errorf("a run per file:\n%s\nwant\n%s\n(%d joint runs)", alone, want, st.JointRuns)
	}
	joint, st := run(false)
	t.Logf("joint: %+v", st)
	if joint != want {
		t.Errorf("joint:\n%s\nwant\n%s", joint, want)
	}
	// One joint run; jb (red) and whichever of jc and jd ran second in a
	// shared worker (red there) run again alone; ja at least stands as the
	// joint run gave it.
	if st.JointRuns != 1 || st.JointFiles != 4 || st.Runs > 4 || st.Runs < 2 || st.Fallbacks != 0 {
		t.Errorf("joint: stats %+v, want 1 joint run of 4 files and 1 to 3 runs alone", st)
	}
}

const negSrc = `export function neg(x: number) {
  return -x;
}
`

const negTest = `import { expect, it } from "vitest";
import { neg } from "./neg";

it("negates", () => {
  expect(neg(2)).toBe(-2);
});
`

// negMutant is the mutant sub of negSrc: its `return -x;` replaced by text.
func negMutant(t *testing.T, sub, text string) edit.Mutant {
	t.Helper()
	at := strings.Index(negSrc, "return -x;")
	m, err := edit.NewMutant("test", sub, "src/neg.ts", []byte(negSrc), []edit.Change{{Start: uint(at), End: uint(at + 10), Text: text}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestJointBatchesReal: the batches of two test files that share no
// mutant run in one vitest run, and every mutant's outcome is what batches
// run one by one give: the loop stopped by the hit limit in spin's batch
// (a note only spin's harness wrote, attributed to it: the harness names
// itself in its notes), then confirmed in spin's batch run again with the
// limit raised, the kills, the survivor.
func TestJointBatchesReal(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo, spin := spinRepo(t)
	testenv.WriteTree(t, repo, map[string]string{"src/neg.ts": negSrc, "src/neg.test.ts": negTest})
	mutant := func(sub, text string) edit.Mutant { return negMutant(t, sub, text) }
	ms := []edit.Mutant{spin[0], spin[2], mutant("plus", "return x;"), mutant("same", "return -x + 0;")}
	run := func(noJoint, coverage bool) (*Result, runner.LongLivedStats) {
		return labRun(t, repo, "", Lab{Coverage: coverage, NoJoint: noJoint}, []string{"src/neg.test.ts", "src/spin.test.ts"}, ms)
	}
	want := "test:loop=timeout/batched test:minus=killed/batched test:plus=killed/batched test:same=survived/batched"
	for _, noJoint := range []bool{true, false} {
		res, st := run(noJoint, true)
		t.Logf("noJoint %v: %+v", noJoint, st)
		if got := summarize(res); got != want {
			t.Errorf("noJoint %v: %s\nwant %s", noJoint, got, want)
		}
		if loop := res.Mutants[0]; !loop.HitLimit || loop.Test != "src/spin.test.ts" {
			t.Errorf("noJoint %v: the loop: %+v", noJoint, loop)
		}
		// Without: 2 baselines, 2 batches, spin's run again. With: the
		// baselines' joint run and the batches', each attributed to every
		// file, and spin's batch run again.
		if wantJ, wantF := map[bool][2]int{true: {0, 0}, false: {2, 4}}[noJoint], [2]int{st.JointRuns, st.JointFiles}; wantJ != wantF || noJoint && st.Runs != 5 || !noJoint && st.Runs != 3 {
			t.Errorf("noJoint %v: %d runs, %d joint of %d files; want %v joint", noJoint, st.Runs, st.JointRuns, st.JointFiles, wantJ)
		}
	}
	// Without coverage every mutant runs against both test files in order:
	// spin's batch waits for neg's (which kills plus: spin's batch must not
	// hold it), so the batches run one by one, and the baselines together,
	// and the survivor's confirmation against both files (jointPasses).
	res, st := run(false, false)
	if got, want := summarize(res), "test:loop=timeout/batched test:minus=killed/batched test:plus=killed/batched test:same=survived"; got != want {
		t.Errorf("without coverage: %s\nwant %s", got, want)
	}
	if st.JointRuns != 2 || st.JointFiles != 4 {
		t.Errorf("without coverage: %d joint runs of %d files, want the baselines' and the survivor's, of 2 files each: %+v", st.JointRuns, st.JointFiles, st)
	}
}

// TestJointGreenConfirmedAlone: a test file that passes in the joint
// baseline only because a file before it in the same worker left a global
// behind is run alone before any mutant runs alone against it; red there,
// it is the red baseline it is in a run of its own (no mutant is judged),
// not a file that kills every mutant run alone. (Where the two files do
// not share a worker, kb is red in the joint run and alone: the same
// result.)
func TestJointGreenConfirmedAlone(t *testing.T) {
	t.Parallel() // with the other real tests (sample_test.go)
	repo := pipelineCopy(t, "pipeline", map[string]string{
		"src/neg.ts": negSrc,
		// The larger file: vitest's sequencer runs it first.
		"src/ka.test.ts": `import { expect, it } from "vitest";
import { neg } from "./neg";

// Sets up what kb.test.ts relies on, in a worker the two share.
// ` + strings.Repeat("padding so that this file is the larger one. ", 20) + `
Reflect.set(globalThis, "leftByKa", 1);

it("negates", () => {
  expect(neg(2)).toBe(-2);
});
`,
		"src/kb.test.ts": `import { expect, it } from "vitest";
import { neg } from "./neg";

it("negates after ka", () => {
  expect(Reflect.get(globalThis, "leftByKa")).toBe(1);
  expect(neg(3)).toBe(-3);
});
`,
	})
	at := strings.Index(negSrc, "return -x;")
	var ms []edit.Mutant
	for _, e := range [][2]string{{"plus", "return x;"}, {"same", "return -x + 0;"}} {
		m, err := edit.NewMutant("test", e[0], "src/neg.ts", []byte(negSrc), []edit.Change{{Start: uint(at), End: uint(at + 10), Text: e[1]}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	res, st := labRun(t, repo, "", Lab{MarkerPrefix: "k"}, []string{"src/ka.test.ts", "src/kb.test.ts"}, ms)
	t.Logf("stats %+v", st)
	var got []string
	for _, b := range res.Baselines {
		got = append(got, b.Test+"="+string(b.Outcome))
		t.Logf("%s: %s %s", b.Test, b.Outcome, b.Detail)
	}
	if strings.Join(got, " ") != "src/ka.test.ts=passed src/kb.test.ts=failed" || len(res.Mutants) != 0 {
		t.Errorf("baselines %v, %d mutants judged (%s); want kb red and none judged", got, len(res.Mutants), summarize(res))
	}
}

// TestJointSurvivorReal: a survivor of its batch is confirmed against its
// test files in one vitest run (jointPasses), not one run per file: with
// three files that each run the mutated code and pass, one joint run
// confirms it; a mutant one file kills is killed by that file's own run
// (the joint run never gives a kill). Outcomes equal a run per file's.
func TestJointSurvivorReal(t *testing.T) {
	files := map[string]string{"src/neg.ts": negSrc}
	var tests []string
	for _, n := range []string{"a", "b", "c"} {
		f := "src/neg" + n + ".test.ts"
		files[f] = negTest
		tests = append(tests, f)
	}
	// c also checks the sign of zero: "-x + 0" makes +0 of -0.
	files["src/negc.test.ts"] = strings.Replace(negTest, "expect(neg(2)).toBe(-2);", "expect(neg(2)).toBe(-2);\n  expect(Object.is(neg(0), -0)).toBe(true);", 1)
	repo := pipelineCopy(t, "pipeline", files)
	mutant := func(sub, text string) edit.Mutant { return negMutant(t, sub, text) }
	ms := []edit.Mutant{mutant("same", "return -x * 1;"), mutant("zero", "return -x + 0;")}
	want := "test:same=survived test:zero=killed"
	for _, noJoint := range []bool{true, false} {
		res, st := labRun(t, repo, "", Lab{Coverage: true, Isolate: true, NoJoint: noJoint}, tests, ms)
		if got := summarize(res); got != want {
			t.Errorf("noJoint %v: %s\nwant %s", noJoint, got, want)
		}
		if k := res.Mutants[1]; k.Test != "src/negc.test.ts" || k.KilledBy == "" {
			t.Errorf("noJoint %v: zero killed by %s (%q), want negc's own run", noJoint, k.Test, k.KilledBy)
		}
		t.Logf("noJoint %v: %+v", noJoint, st)
		// Isolate: every mutant alone, expected to survive or not. Both
		// against 3 files: below JointMutantFiles, and no batch said
		// "survivor": a run per file each, joint or not.
		if st.JointRuns > 1 {
			t.Errorf("noJoint %v: %d joint runs, want the baselines' at most", noJoint, st.JointRuns)
		}
	}
	// Batched without coverage (prove's): "same" passes its batch and is
	// confirmed in one joint run of its three files.
	res, st := labRun(t, repo, "", Lab{}, tests, ms)
	if got := summarize(res); got != "test:same=survived test:zero=killed/batched" {
		t.Errorf("batched: %s", got)
	}
	if st.JointRuns != 2 || st.JointFiles != 6 {
		t.Errorf("batched: %d joint runs of %d files, want the baselines' and the survivor's, of 3 files each: %+v", st.JointRuns, st.JointFiles, st)
	}
}
