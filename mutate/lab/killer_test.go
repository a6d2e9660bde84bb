package lab

import (
	"testing"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestKiller: a kill names the first test that executed the mutated code
// and failed in its body (not one that failed in setup, nor one that never
// executed it), a timeout the test vitest timed out, anything else no
// killer; a run that failed only by tests that never executed the mutated
// code is an error to repeat (other), naming the first of them.
func TestKiller(t *testing.T) {
	tests := []runner.Test{
		{Name: "a passes", Status: "passed"},
		{Name: "a setup", Status: "failed", Phase: runner.PhaseSetup},
		{Name: "a body", Status: "failed", Phase: runner.PhaseBody, Failure: "AssertionError: body"},
		{Name: "a later", Status: "failed", Phase: runner.PhaseBody, Failure: "AssertionError: later"},
	}
	waits := []runner.Test{{Name: "a waits", Status: "failed", Phase: runner.PhaseBody, TimedOut: true, Failure: "Error: Test timed out in 5000ms."}}
	cases := []struct {
		name   string
		r      runner.Result
		marked bool
		want   Outcome
		by     string
		other  bool
	}{
		{"no record of tests: the first body failure", runner.Result{Tests: tests, Reached: true}, true, Killed, "a body", false},
		{"unmarked: the first body failure", runner.Result{Tests: tests}, false, Killed, "a body", false},
		{"ran in a later test only", runner.Result{Tests: tests, Reached: true, ReachedIn: []string{"a later"}}, true, Killed, "a later", false},
		{"ran in the first", runner.Result{Tests: tests, Reached: true, ReachedIn: []string{"a body", "a later"}}, true, Killed, "a body", false},
		{"ran in a passing test only", runner.Result{Tests: tests, Reached: true, ReachedIn: []string{"a passes"}}, true, Error, "a body", true},
		{"ran in the setup-failed test only", runner.Result{Tests: tests, Reached: true, ReachedIn: []string{"a setup"}}, true, Error, "a body", true},
		{"ran while the file loaded", runner.Result{Tests: tests, Reached: true, ReachedOutside: []string{""}}, true, Killed, "a body", false},
		{"ran in a beforeAll of describe a", runner.Result{Tests: tests, Reached: true, ReachedOutside: []string{"a"}}, true, Killed, "a body", false},
		{"ran in a beforeAll of another describe", runner.Result{Tests: tests, Reached: true, ReachedOutside: []string{"b"}}, true, Error, "a body", true},
		{"never reached", runner.Result{Tests: tests}, true, Error, "a body", true},
		{"vitest's time-out, reached", runner.Result{Tests: waits, Reached: true}, true, Timeout, "a waits", false},
		{"vitest's time-out in the test that ran it", runner.Result{Tests: waits, Reached: true, ReachedIn: []string{"a waits"}}, true, Timeout, "a waits", false},
		{"vitest's time-out in another test", runner.Result{Tests: append([]runner.Test{{Name: "a ran", Status: "passed"}}, waits...), Reached: true, ReachedIn: []string{"a ran"}}, true, Error, "a waits", true},
		{"vitest's time-out, never reached", runner.Result{Tests: waits}, true, Error, "a waits", true},
		{"vitest's time-out in another test, then in the test that ran it", runner.Result{Tests: append([]runner.Test{{Name: "a other", Status: "failed", Phase: runner.PhaseBody, TimedOut: true}}, waits...), Reached: true, ReachedIn: []string{"a waits"}}, true, Timeout, "a waits", false},
		// An unhandled error kills through a test that executed the mutated code.
		{"unhandled error, ran in a test", runner.Result{Tests: []runner.Test{tests[0], {Name: "a ran", Status: "passed"}}, Unhandled: []string{"Error: x"}, ExitCode: 1, Reached: true, ReachedIn: []string{"a ran"}}, true, Killed, "a ran", false},
		{"unhandled error, no record of tests", runner.Result{Tests: tests[:1], Unhandled: []string{"Error: x"}, ExitCode: 1, Reached: true}, true, Killed, "a passes", false},
		{"unhandled error, unmarked", runner.Result{Tests: tests[:1], Unhandled: []string{"Error: x"}, ExitCode: 1}, false, Killed, "a passes", false},
		{"unhandled error, ran at load only", runner.Result{Tests: tests[:1], Unhandled: []string{"Error: x"}, ExitCode: 1, Reached: true, ReachedOutside: []string{""}}, true, Error, "", false},
		{"a time-out in the test that ran it, an assertion in another", runner.Result{Tests: append([]runner.Test{tests[2]}, waits...), Reached: true, ReachedIn: []string{"a waits"}}, true, Timeout, "a waits", false},
		{"passed", runner.Result{Tests: tests[:1], Reached: true, ReachedIn: []string{"a passes"}}, true, Survived, "", false},
		{"passed, never reached", runner.Result{Tests: tests[:1]}, true, NoCoverage, "", false},
	}
	for _, c := range cases {
		j := judgeMutant(c.r, c.marked)
		if j.outcome != c.want || j.by != c.by || j.other != c.other {
			t.Errorf("%s: %s by %q (other %v), want %s by %q (other %v)", c.name, j.outcome, j.by, j.other, c.want, c.by, c.other)
		}
	}
}
