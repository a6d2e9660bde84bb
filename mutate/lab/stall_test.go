package lab

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// specRunner passes every run and keeps the specs it was given.
type specRunner struct {
	mu    sync.Mutex
	specs []runner.Spec
}

func (r *specRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	r.mu.Lock()
	r.specs = append(r.specs, s)
	r.mu.Unlock()
	res := passedRun()
	res.Duration = time.Second
	return res, nil
}

func (r *specRunner) Close() error { return nil }

// TestAloneRunGoesOnWhileItProgresses: a mutant run alone has its time-out
// (DerivedTimeout of the baseline) and, past it, goes on while its tests
// keep finishing (Spec.Stall: it ends once it made no progress for as long
// again), so a big test file a loaded machine made slower than three times
// its baseline is judged on its report (vercel/ai's stream-text.test.ts: 25
// failed tests, 77 s against 68 s, twice, was a timeout). A hit-limit
// confirmation is not re-run after a time-out (Once); the others are.
func TestAloneRunGoesOnWhileItProgresses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		isolate  bool
		ms       []edit.Mutant
		wantOnce bool
		wantRuns int
	}{
		{name: "isolate", isolate: true, ms: []edit.Mutant{mutant("a", "a"), mutant("b", "b")}, wantRuns: 2},
		{name: "the only mutant", ms: []edit.Mutant{mutant("a", "a")}, wantRuns: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := &memFiles{orig: "orig", current: "orig"}
			r := &specRunner{}
			l := &Lab{Root: "/sb", Files: files, Runner: r, Isolate: tc.isolate}
			res, err := l.Execute(context.Background(), []string{"a.test.ts"}, tc.ms)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Mutants) != len(tc.ms) {
				t.Fatalf("%d mutant runs, want %d", len(res.Mutants), len(tc.ms))
			}
			want := DerivedTimeout(time.Second)
			alone := r.specs[len(res.Baselines):]
			if len(alone) != tc.wantRuns {
				t.Fatalf("%d runs alone, want %d", len(alone), tc.wantRuns)
			}
			for _, s := range alone {
				if s.Timeout != want || s.Stall != want || s.Once != tc.wantOnce {
					t.Errorf("%s: timeout %s stall %s once %v; want timeout %s, stall %s (on past it while it progresses), once %v", s.TestFile, s.Timeout, s.Stall, s.Once, want, want, tc.wantOnce)
				}
			}
		})
	}
	// A hit-limit confirmation: once.
	l := &Lab{}
	if s := l.aloneSpec("/sb", "a.test.ts", time.Minute, "m1", "100000"); !s.Once || s.Stall != time.Minute {
		t.Errorf("a hit-limit confirmation: %+v; want once, stall 1m", s)
	}
}
