package lab

import (
	"testing"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestKiller: a kill names the first test that failed in its body (not one
// that failed in setup), a timeout the test vitest timed out, anything else
// no test.
func TestKiller(t *testing.T) {
	tests := []runner.Test{
		{Name: "a passes", Status: "passed"},
		{Name: "a setup", Status: "failed", Phase: runner.PhaseSetup},
		{Name: "a body", Status: "failed", Phase: runner.PhaseBody},
		{Name: "a later", Status: "failed", Phase: runner.PhaseBody},
	}
	r := runner.Result{Tests: tests, Reached: true}
	if o, _ := MutantOutcome(r, true); o != Killed || killer(r, o) != "a body" {
		t.Errorf("killed: %s by %q, want killed by a body", o, killer(r, o))
	}
	r = runner.Result{Tests: []runner.Test{{Name: "a waits", Status: "failed", Phase: runner.PhaseBody, TimedOut: true}}}
	if o, _ := MutantOutcome(r, true); o != Timeout || killer(r, o) != "a waits" {
		t.Errorf("vitest's time-out: %s by %q, want timeout by a waits", o, killer(r, o))
	}
	for _, o := range []Outcome{Survived, NoCoverage, Error} {
		if k := killer(runner.Result{Tests: tests}, o); k != "" {
			t.Errorf("%s names %q", o, k)
		}
	}
}
