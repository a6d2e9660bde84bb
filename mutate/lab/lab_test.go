package lab

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestMutantOutcome: the kill policy. Only a failure in a test body (or an
// unhandled error) kills; a load or setup failure, or no test executed, is
// an error even when the runner calls the run failed.
func TestMutantOutcome(t *testing.T) {
	failed := func(ph runner.Phase) runner.Test { return runner.Test{Name: "t", Status: "failed", Phase: ph} }
	cases := []struct {
		name   string
		r      runner.Result
		marked bool
		want   Outcome
	}{
		{"assertion in body", runner.Result{Status: runner.Failed, Tests: []runner.Test{failed(runner.PhaseBody)}}, true, Killed},
		{"unhandled error", runner.Result{Status: runner.Failed, Tests: []runner.Test{{Status: "passed"}}}, true, Killed},
		{"setup failure reported as failed", runner.Result{Status: runner.Failed, Tests: []runner.Test{failed(runner.PhaseSetup)}}, true, Error},
		{"teardown failure reported as failed", runner.Result{Status: runner.Failed, Tests: []runner.Test{failed(runner.PhaseTeardown)}}, true, Error},
		{"setup and body", runner.Result{Status: runner.Failed, Tests: []runner.Test{failed(runner.PhaseSetup), failed(runner.PhaseBody)}}, true, Killed},
		{"load error", runner.Result{Status: runner.Error, Detail: "SyntaxError"}, true, Error},
		{"timeout", runner.Result{Status: runner.Timeout}, true, Timeout},
		{"passed, reached", runner.Result{Status: runner.Passed, Reached: true}, true, Survived},
		{"passed, not reached", runner.Result{Status: runner.Passed}, true, NoCoverage},
		{"passed, no marker", runner.Result{Status: runner.Passed}, false, Survived},
	}
	for _, tc := range cases {
		if got, _ := MutantOutcome(tc.r, tc.marked); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if o, _ := BaselineOutcome(runner.Result{Status: runner.Failed, Tests: []runner.Test{failed(runner.PhaseSetup)}}); o != Error {
		t.Errorf("baseline failing in setup: %s, want error", o)
	}
}

// fakeRunner answers by the source written for the run.
type fakeRunner struct {
	files  *memFiles
	answer func(test string, src string) runner.Result
	runs   []string
	err    error
}

func (f *fakeRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	if f.err != nil {
		return runner.Result{}, f.err
	}
	f.runs = append(f.runs, s.TestFile)
	r := f.answer(s.TestFile, f.files.current)
	r.Duration = time.Second
	if s.ReachedMarker != "" && strings.Contains(f.files.current, "REACHED") {
		r.Reached = true
	}
	return r, nil
}

func (f *fakeRunner) Close() error { return nil }

type memFiles struct {
	orig, current string
	writes        int
}

func (m *memFiles) WriteFile(rel string, data []byte) error {
	m.current = string(data)
	m.writes++
	return nil
}
func (m *memFiles) Restore(rel string) error { m.current = m.orig; return nil }

func mutant(name, src string) edit.Mutant {
	return edit.Mutant{Name: name, Operator: edit.Operator(name), Path: "x.ts", Source: []byte(src)}
}

// TestExecute: baselines first, each mutant against the test files until
// one kills it, the file restored after each; no mutant runs when a
// baseline fails; an environment failure stops the lab with an EnvError.
func TestExecute(t *testing.T) {
	files := &memFiles{orig: "orig", current: "orig"}
	f := &fakeRunner{files: files, answer: func(test, src string) runner.Result {
		switch {
		case src == "orig":
			return runner.Result{Status: runner.Passed}
		case strings.Contains(src, "kill-b") && test == "b.test.ts":
			return runner.Result{Status: runner.Failed, Detail: "expected"}
		case strings.Contains(src, "broken"):
			return runner.Result{Status: runner.Error, Detail: "SyntaxError"}
		}
		return runner.Result{Status: runner.Passed}
	}}
	l := &Lab{Root: "/sb", Files: files, Runner: f}
	res, err := l.Execute(context.Background(), []string{"a.test.ts", "b.test.ts"},
		[]edit.Mutant{mutant("kill-b", "kill-b"), mutant("survivor", "survivor"), mutant("broken", "broken")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Mutants {
		got = append(got, r.Mutant.Name+"="+string(r.Outcome)+"@"+r.Test)
	}
	// Markers cannot be placed in these sources: no coverage evidence, so a pass is survived.
	if want := "kill-b=killed@b.test.ts survivor=survived@a.test.ts broken=error@a.test.ts"; strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(res.Baselines) != 2 || res.Baselines[0].Outcome != Passed || files.current != "orig" {
		t.Errorf("baselines %+v, file %q", res.Baselines, files.current)
	}
	if res.Mutants[0].Duration != 2*time.Second {
		t.Errorf("duration of a mutant run against two files: %s", res.Mutants[0].Duration)
	}

	files.orig, files.current = "bad", "bad"
	f.answer = func(test, src string) runner.Result { return runner.Result{Status: runner.Failed, Detail: "expected"} }
	f.runs = nil
	res, err = l.Execute(context.Background(), []string{"a.test.ts"}, []edit.Mutant{mutant("m", "m")})
	if err != nil || len(res.Mutants) != 0 || res.Baselines[0].Outcome != Failed || len(f.runs) != 1 {
		t.Errorf("failing baseline: err %v, %d mutant runs, baseline %s, %d runs", err, len(res.Mutants), res.Baselines[0].Outcome, len(f.runs))
	}

	f.err = errors.New("vitest is not installed")
	_, err = l.Execute(context.Background(), []string{"a.test.ts"}, nil)
	var env *EnvError
	if !errors.As(err, &env) {
		t.Errorf("runner failure: %v, want an EnvError", err)
	}
}
