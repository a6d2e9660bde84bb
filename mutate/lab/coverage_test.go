package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// coverRunner plays vitest for coverage: a test file "executes" the lines of
// x.ts holding one of its words (reaches), appending the marker ids on them;
// a mutant run kills when the test reaches the mutated line and the mutant's
// tag is in kills.
type coverRunner struct {
	root    string
	reaches map[string][]string // test file → words of the lines it runs
	kills   map[string]bool     // "test|tag": that test file kills the mutant tagged tag
	runs    []string            // "test" (baseline) or "test|tag"
	batches bool                // answer batches (else they time out: nothing trusted)
	caught  map[string]bool     // "test|tag": in that test file's batch the variant ran past the hit limit, caught the error and passed
}

var markerIDRE = regexp.MustCompile(`"((?:op-(?:entry-)?\d+\\n)+)"`)

func (c *coverRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	code, _ := os.ReadFile(filepath.Join(c.root, "x.ts"))
	runs := func(line string) bool {
		for _, w := range c.reaches[s.TestFile] {
			if strings.Contains(line, w) {
				return true
			}
		}
		return false
	}
	res := runner.Result{Duration: time.Second, Tests: []runner.Test{{Name: "t", Status: "passed"}}}
	if strings.HasPrefix(s.TestFile, HarnessPrefix) { // a batch: note its variants, trust nothing
		h, _ := os.ReadFile(filepath.Join(c.root, s.TestFile))
		var vs []string
		for _, m := range titleRE.FindAllStringSubmatch(string(h), -1) {
			vs = append(vs, m[2])
		}
		c.runs = append(c.runs, s.TestFile+"|"+strings.Join(vs, ","))
		if !c.batches {
			return timedOutRun(), nil
		}
		test := strings.TrimPrefix(s.TestFile, HarnessPrefix)
		res.Tests = nil
		for _, m := range titleRE.FindAllStringSubmatch(string(h), -1) {
			st := runner.Test{Name: m[0] + " t", Status: "passed"}
			if c.kills[test+"|/*m"+m[2]+"*/"] {
				st.Status, st.Phase = "failed", runner.PhaseBody
				res.Markers = append(res.Markers, mark(ranAllNote, atoi(m[1]))) // the variant's code ran
			}
			if c.caught[test+"|/*m"+m[2]+"*/"] && configOf(h).HitFloor != confirmHits.floor {
				res.Markers = append(res.Markers, mark(limitNote, atoi(m[1]), "limit", 100000))
			}
			res.Tests = append(res.Tests, st)
		}
		return res, nil
	}
	tag := tagRE.FindString(string(code))
	if tag == "" {
		c.runs = append(c.runs, s.TestFile)
		for _, l := range strings.Split(string(code), "\n") {
			if !runs(l) {
				continue
			}
			for _, m := range markerIDRE.FindAllStringSubmatch(l, -1) {
				for _, id := range strings.Split(m[1], `\n`) {
					if id != "" {
						res.Markers = append(res.Markers, id)
					}
				}
			}
		}
		slices.Sort(res.Markers)
		if !s.Coverage && len(res.Markers) > 0 {
			return res, fmt.Errorf("markers in a run not asked to cover")
		}
		return res, nil
	}
	c.runs = append(c.runs, s.TestFile+"|"+tag)
	for _, l := range strings.Split(string(code), "\n") {
		if strings.Contains(l, tag) && runs(l) {
			res.Reached = true
			if c.kills[s.TestFile+"|"+tag] {
				res.Tests = []runner.Test{{Name: "t", Status: "failed", Phase: runner.PhaseBody}}
			}
		}
	}
	return res, nil
}

func (c *coverRunner) Close() error { return nil }

// TestCoverage: with Lab.Coverage each mutant runs only against the test
// files whose baseline reached its statement; one no test file reached is
// no-coverage without a run; the file is restored after the baselines.
func TestCoverage(t *testing.T) {
	orig := "export function f(a: number) {\n  return a + 1; // F\n}\n" +
		"export function g(a: number) {\n  if (a > 9)\n  {\n    return 0; // NEVER\n  }\n  return a * 2; // G\n}\n"
	sites := []struct{ at, text string }{
		{"a + 1", "a - 1"},          // f: a.test.ts reaches it and kills it
		{"a * 2", "a / 2"},          // g: only b.test.ts reaches it; it survives there
		{"return 0", "return 1"},    // g's branch no test takes
		{"{\n    return 0", "{}\n"}, // the branch's block, removed (marked inside the block)
	}
	for _, mode := range []string{"isolate", "batched", "batches trusted", "hit limit caught"} {
		isolate := mode == "isolate"
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
		var ms []edit.Mutant
		for k, s := range sites {
			at := strings.Index(orig, s.at)
			end := at + len(s.at)
			if strings.HasPrefix(s.at, "{") {
				end = strings.Index(orig[at:], "}") + at + 1
			}
			m, err := edit.NewMutant("test", fmt.Sprint(k+1), "x.ts", []byte(orig),
				[]edit.Change{{Start: uint(at), End: uint(end), Text: fmt.Sprintf("%s /*m%d*/", s.text, k+1)}})
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
		}
		r := &coverRunner{root: dir, reaches: map[string][]string{"a.test.ts": {"// F"}, "b.test.ts": {"// G", "if (a"}},
			kills: map[string]bool{"a.test.ts|/*m1*/": true}, batches: mode == "batches trusted" || mode == "hit limit caught"}
		if mode == "hit limit caught" {
			r.caught = map[string]bool{"b.test.ts|/*m2*/": true}
		}
		l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, MarkerPrefix: "op", Coverage: true, Isolate: isolate}
		res, err := l.Execute(context.Background(), []string{"a.test.ts", "b.test.ts"}, ms)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, run := range res.Mutants {
			got = append(got, fmt.Sprintf("%s=%s%v", run.Mutant.Name, run.Outcome, run.CoveredBy))
		}
		want := "test:1=killed[a.test.ts] test:2=survived[b.test.ts] test:3=no-coverage[] test:4=no-coverage[]"
		if strings.Join(got, " ") != want {
			t.Errorf("%s:\n got  %s\n want %s", mode, strings.Join(got, " "), want)
		}
		// Baselines, then m1 against a only, m2 against b only; m3 and m4 never run.
		// In a batch, each variant is between its selection's two baselines
		// (the original on the tests that reached its statement: select.go).
		w := "a.test.ts b.test.ts a.test.ts|/*m1*/ b.test.ts|/*m2*/"
		switch mode {
		case "batched": // a batch per test file with the one variant it reached (switch value k+1), nothing trusted
			w = "a.test.ts b.test.ts __oracle_batch__.a.test.ts|0,0,1,0,0 __oracle_batch__.b.test.ts|0,0,2,0,0 a.test.ts|/*m1*/ b.test.ts|/*m2*/"
		case "batches trusted": // m1's kill and m2's pass in the batches of the files that reached them decide
			w = "a.test.ts b.test.ts __oracle_batch__.a.test.ts|0,0,1,0,0 __oracle_batch__.b.test.ts|0,0,2,0,0"
		case "hit limit caught": // m2 passed its batch past the hit limit: not a survivor until it passes its batch run again with the limit raised
			w = "a.test.ts b.test.ts __oracle_batch__.a.test.ts|0,0,1,0,0 __oracle_batch__.b.test.ts|0,0,2,0,0 __oracle_batch__.b.test.ts|0,2,0"
		}
		if strings.Join(r.runs, " ") != w {
			t.Errorf("%s: runs %v, want %s", mode, r.runs, w)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "x.ts")); string(b) != orig {
			t.Errorf("%s: x.ts left changed:\n%s", mode, b)
		}
	}
}

// enteredBy is each probe's answer (by), in the probes' order: for a test
// to print.
func enteredBy(by func(Probe) []string, probes []Probe) [][]string {
	var out [][]string
	for _, p := range probes {
		out = append(out, by(p))
	}
	return out
}

// TestProbes: each probe's entry marker tells which test files' baselines
// entered the function (with or without mutants in the lab), a probe that
// cannot be marked is nil (not "entered by none"), and the files
// are restored.
func TestProbes(t *testing.T) {
	orig := "export function f(a: number) {\n  return a + 1;\n}\n" +
		"export function g(a: number) {\n  return a * 2;\n}\n" +
		"export const h = (a: number) => a - 3;\n"
	body := func(s string) [2]uint {
		i := strings.Index(orig, s)
		return [2]uint{uint(i), uint(i + len(s))}
	}
	for _, withMutant := range []bool{false, true} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
		os.WriteFile(filepath.Join(dir, "bad.ts"), []byte("export function (\n"), 0o644)
		var ms []edit.Mutant
		if withMutant {
			at := strings.Index(orig, "a * 2")
			m, err := edit.NewMutant("test", "1", "x.ts", []byte(orig), []edit.Change{{Start: uint(at), End: uint(at + 5), Text: "a / 2 /*m1*/"}})
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
		}
		r := &coverRunner{root: dir, reaches: map[string][]string{"a.test.ts": {"function f"}, "b.test.ts": {"function g", "a * 2"}}}
		l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, MarkerPrefix: "op", Coverage: true,
			Probes: []Probe{{Path: "x.ts", Body: body("{\n  return a + 1;\n}")}, {Path: "x.ts", Body: body("{\n  return a * 2;\n}")},
				{Path: "x.ts", Body: body("a - 3")}, {Path: "bad.ts", Body: [2]uint{0, 999}}}}
		res, err := l.Execute(context.Background(), []string{"a.test.ts", "b.test.ts"}, ms)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(enteredBy(res.EnteredBy, l.Probes)), "[[a.test.ts] [b.test.ts] [] []]"; got != want {
			t.Errorf("mutant %v: entered %s, want %s", withMutant, got, want)
		}
		if res.EnteredBy(l.Probes[3]) != nil {
			t.Errorf("mutant %v: a probe that could not be marked counts as measured", withMutant)
		}
		if withMutant && (len(res.Mutants) != 1 || fmt.Sprint(res.Mutants[0].CoveredBy) != "[b.test.ts]") {
			t.Errorf("the mutant's coverage is lost beside probes: %+v", res.Mutants)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "x.ts")); string(b) != orig {
			t.Errorf("x.ts left changed:\n%s", b)
		}
	}
}
