package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestExecuteJobs: the lab answers each job with one run carrying the
// job's key, in the jobs' order, each job run only against the test files
// it names (all of them when it names none; none: no-coverage without a
// run); Mutant finds a job's run by its key, and Slowest names runs by key.
func TestExecuteJobs(t *testing.T) {
	answer := func(test, src string) runner.Result {
		if strings.Contains(src, "kill-"+strings.TrimSuffix(test, ".test.ts")) {
			return failedRun("expected")
		}
		return passedRun()
	}
	for _, tc := range []struct {
		name string
		jobs []Job
		want string // key=outcome@test per run, then the runs of the mutants
	}{
		{"every file", []Job{{Key: "z", Mutant: mutant("kill-b", "kill-b")}, {Key: "y", Mutant: mutant("s", "s")}},
			"z=killed@b.test.ts y=survived@a.test.ts | a b a b"},
		{"its own files", []Job{{Key: "z", Mutant: mutant("kill-b", "kill-b"), Tests: []string{"a.test.ts"}}, {Key: "y", Mutant: mutant("kill-a", "kill-a"), Tests: []string{"b.test.ts", "a.test.ts"}}},
			"z=survived@a.test.ts y=killed@a.test.ts | a b a"},
		{"none", []Job{{Key: "x", Mutant: mutant("kill-a", "kill-a"), Tests: []string{}}, {Key: "w", Mutant: mutant("kill-a", "kill-a"), Tests: []string{"a.test.ts"}}},
			"x=no-coverage@ w=killed@a.test.ts | a"},
	} {
		files := &memFiles{orig: "orig", current: "orig"}
		f := &fakeRunner{files: files, answer: answer}
		l := &Lab{Root: "/sb", Files: files, Runner: f, Isolate: true}
		res, err := l.ExecuteJobs(context.Background(), []string{"a.test.ts", "b.test.ts"}, tc.jobs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, r := range res.Mutants {
			got = append(got, fmt.Sprintf("%s=%s@%s", r.Key, r.Outcome, r.Test))
		}
		got = append(got, "|")
		for _, run := range f.runs[2:] { // after the baselines
			got = append(got, strings.TrimSuffix(run, ".test.ts"))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, strings.Join(got, " "), tc.want)
		}
		for _, j := range tc.jobs {
			if r := res.Mutant(j.Key); r == nil || r.Key != j.Key || r.Mutant.Name != j.Mutant.Name {
				t.Errorf("%s: Mutant(%q) = %+v", tc.name, j.Key, r)
			}
		}
		if res.Mutant("nobody") != nil {
			t.Errorf("%s: a key of no job has a run", tc.name)
		}
		if len(res.Slowest) != len(tc.jobs) || res.Mutant(res.Slowest[0]) == nil {
			t.Errorf("%s: slowest %v", tc.name, res.Slowest)
		}
	}
}

// TestEnteredBy: a probe's answer is found by the probe itself, whatever
// the probes' order; a probe that could not be marked has none (nil).
func TestEnteredBy(t *testing.T) {
	orig := "export function f(a: number) {\n  return a + 1;\n}\nexport function g(a: number) {\n  return a * 2;\n}\n"
	body := func(s string) [2]uint {
		i := strings.Index(orig, s)
		return [2]uint{uint(i), uint(i + len(s))}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
	r := &coverRunner{root: dir, reaches: map[string][]string{"a.test.ts": {"function f"}, "b.test.ts": {"function f", "function g"}}}
	probes := []Probe{{Path: "x.ts", Body: body("{\n  return a * 2;\n}")}, {Path: "x.ts", Body: body("{\n  return a + 1;\n}")}, {Path: "nowhere.ts", Body: [2]uint{0, 1}}}
	l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, MarkerPrefix: "op", Coverage: true, Probes: probes}
	res, err := l.Execute(context.Background(), []string{"a.test.ts", "b.test.ts"}, []edit.Mutant(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.EnteredBy(probes[2]); got != nil {
		t.Errorf("a probe that could not be marked: entered %v", got)
	}
	if got := fmt.Sprint(res.EnteredBy(probes[0]), res.EnteredBy(probes[1])); got != "[b.test.ts] [a.test.ts b.test.ts]" {
		t.Errorf("entered %s", got)
	}
}
