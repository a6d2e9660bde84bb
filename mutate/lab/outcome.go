package lab

import (
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// Outcome of one run (SPEC "oracle prove").
type Outcome string

const (
	Passed     Outcome = "passed" // baseline only
	Failed     Outcome = "failed" // baseline only
	Killed     Outcome = "killed"
	Survived   Outcome = "survived"
	Timeout    Outcome = "timeout"     // counts as killed
	NoCoverage Outcome = "no-coverage" // the mutated code never ran: counts against the tests
	Error      Outcome = "error"       // the tests could not run; never a kill
)

// Kills reports whether the outcome counts as a kill (killed or timeout).
func (o Outcome) Kills() bool { return o == Killed || o == Timeout }

// BaselineOutcome classifies a run on the unmodified code: passed, failed
// (a test failed in its body: the code is wrong), timeout, or error (the
// test file could not run).
func BaselineOutcome(r runner.Result) (Outcome, string) {
	switch {
	case r.Status == runner.Passed:
		return Passed, r.Detail
	case r.Status == runner.Failed && bodyFailure(r):
		return Failed, r.Detail
	case r.Status == runner.Timeout:
		return Timeout, r.Detail
	case r.Status == runner.Failed:
		return Error, "no test failed in its body (setup or teardown failure): " + r.Detail
	}
	return Error, r.Detail
}

// MutantOutcome classifies a run on a mutant. The kill policy: a mutant is
// killed only when a test failed in its body (an assertion, or an exception
// from the code under test) or the run raised an unhandled error; a test
// file that cannot load, a setup or teardown failure, or no test executed is
// an error, never a kill. marked says whether the mutant carried a reached
// marker: a passing run that never reached the mutated code is no-coverage.
func MutantOutcome(r runner.Result, marked bool) (Outcome, string) {
	if r.Status == runner.Failed || r.Status == runner.Error {
		if t := timedOutOnly(r.Tests); t != nil {
			return Timeout, timedOutDetail(*t)
		}
	}
	switch r.Status {
	case runner.Failed:
		if !bodyFailure(r) {
			return Error, "no test failed in its body (setup or teardown failure): " + r.Detail
		}
		return Killed, r.Detail
	case runner.Timeout:
		return Timeout, r.Detail
	case runner.Passed:
		if marked && !r.Reached {
			return NoCoverage, ""
		}
		return Survived, ""
	}
	return Error, r.Detail
}

// killer is the full name of the test that decided a mutant run's outcome
// o: for a kill, the first test that failed in its body (or whose phase is
// unknown); for vitest's time-out, the test that timed out; else "".
func killer(r runner.Result, o Outcome) string {
	switch o {
	case Killed:
		for _, t := range r.Tests {
			if t.Status == "failed" && (t.Phase == runner.PhaseBody || t.Phase == runner.PhaseUnknown) {
				return t.Name
			}
		}
	case Timeout:
		if t := timedOutOnly(r.Tests); t != nil {
			return t.Name
		}
	}
	return ""
}

// bodyFailure reports whether a failed run failed in a test body, or with
// no failed test at all (an unhandled error during the run): a run whose
// only failed tests failed in setup or teardown is not.
func bodyFailure(r runner.Result) bool {
	failed := 0
	for _, t := range r.Tests {
		if t.Status != runner.TestFailed {
			continue
		}
		failed++
		if t.Phase == runner.PhaseBody || t.Phase == runner.PhaseUnknown {
			return true
		}
	}
	return failed == 0
}

// Combine is a mutant's outcome from its runs against several test files
// (in order): the first kill; else an error when a file could not run; else
// survived when some file reached the mutated code and passed, else
// no-coverage. Durations add up.
func Combine(runs []Run) Run {
	if len(runs) == 0 {
		return Run{Outcome: Error, Detail: "no test file ran"}
	}
	var total time.Duration
	for _, r := range runs {
		total += r.Duration
	}
	pick := func(want ...Outcome) *Run {
		for i := range runs {
			for _, w := range want {
				if runs[i].Outcome == w {
					return &runs[i]
				}
			}
		}
		return nil
	}
	out := pick(Killed, Timeout)
	if out == nil {
		out = pick(Error)
	}
	if out == nil {
		out = pick(Survived)
	}
	if out == nil {
		out = &runs[0]
	}
	r := *out
	r.Duration = total
	return r
}

// timedOutOnly is the first failed test when every failed test failed by
// vitest's own time-out (a test, or its beforeEach or afterEach hook, that
// awaits what never settles): the run ended by the time-out, which is a
// timeout, neither a kill by an assertion nor a setup error. Nil when some
// test failed otherwise, or none failed.
func timedOutOnly(ts []runner.Test) *runner.Test {
	var first *runner.Test
	for i := range ts {
		t := &ts[i]
		if t.Status != runner.TestFailed {
			continue
		}
		if !t.TimedOut {
			return nil
		}
		if first == nil {
			first = t
		}
	}
	return first
}

// timedOutDetail says which test timed out, and how.
func timedOutDetail(t runner.Test) string {
	return "the test timed out (vitest's time-out): " + t.Name + ": " + t.Failure
}
