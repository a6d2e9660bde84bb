package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// This file is the kill policy, all of it: what the facts of a run (a
// runner.Result: what ran, what failed, in which phase, with what failure,
// whether it timed out) mean for a baseline, for a mutant run alone, and for
// a variant in a batch. The runner reports; only this file judges.
//
// SPEC "oracle prove": a mutant is killed by an assertion failure or an
// exception from the code under test (a test that failed in its body, or an
// unhandled error during the run); a time-out counts as killed (the run's
// own, vitest's time-out of a test or of its beforeEach/afterEach hook, the
// hit limit of a variant that loops, a variant past its time limit in a
// batch; the hit limit and vitest's time-out below the run's own are
// suspicions the lab confirms alone first: slow.go); an import, syntax or
// setup failure, or no test executed, is an error, never a kill; a run that
// passed without reaching the mutated code is no-coverage.

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

// NoTestExecuted begins the detail of a run in which the test file loaded
// but every test was skipped (or there were none).
const NoTestExecuted = "no test executed"

// BaselineOutcome judges a run on the unmodified code, in this order:
//  1. the run timed out: timeout;
//  2. it left no report for the test file: error;
//  3. the file failed with no test collected (a syntax error, a missing
//     module, a vi.mock factory or a top-level statement that throws): error;
//  4. no test executed (all skipped or todo, a beforeAll that failed): error;
//  5. a test failed in its body (an assertion, or what the code under test
//     threw): failed, with the first such failure;
//  6. a test failed only in setup (beforeEach) or teardown (afterEach): error;
//  7. every executed test passed but the file failed (an afterAll threw):
//     error; an unhandled error during the run: failed (vitest fails such a
//     run); a non-zero exit otherwise: error;
//  8. passed.
func BaselineOutcome(r runner.Result) (Outcome, string) {
	switch {
	case r.TimedOut:
		return Timeout, r.Note
	case r.NoReport:
		return Error, r.Note
	case loadFailed(r):
		return Error, "the test file failed to load: " + orNo(r.FileMessage)
	case noTestRan(r):
		if r.FileMessage != "" {
			return Error, fmt.Sprintf("%s (%d skipped): %s", NoTestExecuted, len(r.Tests), r.FileMessage)
		}
		if len(r.Unhandled) > 0 {
			// (a browser-mode file with no browser installed: vitest reports
			// the file passed with no test, and the launch's error apart)
			return Error, fmt.Sprintf("%s (%d skipped): unhandled error: %s", NoTestExecuted, len(r.Tests), firstUnhandled(r))
		}
		return Error, fmt.Sprintf("%s (%d skipped)", NoTestExecuted, len(r.Tests))
	}
	failed, body, other := failures(r.Tests)
	switch {
	case body != nil:
		return Failed, orNo(body.Failure)
	case other != nil:
		what := "setup (beforeEach) failed"
		if other.Phase == runner.PhaseTeardown {
			what = "teardown (afterEach) failed"
		}
		return Error, fmt.Sprintf("%s in %d of %d executed tests: %s", what, failed, r.Executed(), orNo(other.Failure))
	case r.FileMessage != "":
		return Error, "every test passed but the file failed (afterAll?): " + r.FileMessage
	case len(r.Unhandled) > 0:
		return Failed, "unhandled error during the run: " + orNo(firstUnhandled(r))
	case r.ExitCode != 0:
		d := fmt.Sprintf("every test passed but vitest exited with code %d", r.ExitCode)
		if r.LastLine != "" {
			d += ": " + r.LastLine
		}
		return Error, d
	}
	return Passed, ""
}

// firstUnhandled is the unhandled error a baseline's detail names: the
// least of them, so two runs with the same errors in another order (two
// browser instances failing to launch, each first in turn) say the same.
func firstUnhandled(r runner.Result) string { return slices.Min(r.Unhandled) }

// MutantOutcome judges a run on a mutant: as a baseline, except that a run
// whose only failed tests ran into vitest's time-out is a timeout (which the
// lab confirms when that time-out is below the run's limit: slow.go), a
// failure is a kill, and a pass is survived; an unhandled error kills
// through a test that executed the mutated code (OutsideTestsFailure when
// none did); when the mutant carried a reached
// marker (marked) and the run never reached it, a pass is no-coverage and a
// failure an error (NotReachedFailure: the mutant cannot have caused it).
// SPEC "Runs and kills": a kill is the failure of a test that executed the
// mutated code. When the marker says which tests executed it
// (runner.RanMarkerStatement: Result.ReachedIn, ReachedOutside), only the
// failure (or vitest's time-out) of such a test kills; a run in which only
// other tests failed is an error naming the first of them
// (OtherTestFailure), which the lab repeats once before it stands.
func MutantOutcome(r runner.Result, marked bool) (Outcome, string) {
	j := judgeMutant(r, marked)
	return j.outcome, j.detail
}

// judgment is a mutant run's outcome, the test that decided it (by: the
// killer, or the test that failed without executing the mutant), and
// whether the run failed only by tests that did not execute it (other:
// repeat it once).
type judgment struct {
	outcome    Outcome
	detail, by string
	other      bool
	// vitest is the time-out of vitest's own that decided a Timeout (its
	// testTimeout or hookTimeout as the failure states it; 0: the run's
	// wall-clock limit, or a hit limit, decided it): below the run's limit
	// it is a suspicion (slow.go).
	vitest time.Duration
	// hit: the Timeout is the hit counter's (count.go), not a clock's.
	hit bool
}

func judgeMutant(r runner.Result, marked bool) judgment {
	o, detail := BaselineOutcome(r)
	ran := ranTest(r, marked)
	if o == Failed || o == Error {
		if t := timedOutOnly(r.Tests); t != nil && (!marked || r.Reached) {
			for _, u := range r.Tests {
				if u.Status == runner.TestFailed && ran(u) {
					return judgment{Timeout, timedOutDetail(u), u.Name, false, vitestLimit(u), false}
				}
			}
			return judgment{Error, OtherTestFailure + t.Name + ": " + orNo(t.Failure), t.Name, true, 0, false}
		}
	}
	switch o {
	case Failed:
		_, first, _ := failures(r.Tests)
		if marked && !r.Reached {
			// The mutated statement never ran, so the mutant cannot have
			// caused the failure (the code before it is the original's):
			// a flaky test, or the run's environment. Not a kill.
			by := ""
			if first != nil {
				by = first.Name
			}
			return judgment{Error, NotReachedFailure + detail, by, true, 0, false}
		}
		if first == nil {
			// An unhandled error (vitest fails the run) from code that ran:
			// a kill through a test that executed the mutated code, which
			// is the killer; raised by code that ran only outside every
			// test (at load, in a beforeAll), no test failed: an error.
			if marked && len(r.ReachedIn) == 0 && len(r.ReachedOutside) > 0 {
				return judgment{Error, OutsideTestsFailure + detail, "", false, 0, false}
			}
			for _, t := range r.Tests {
				if t.Status != runner.TestSkipped && ran(t) {
					return judgment{Killed, detail, t.Name, false, 0, false}
				}
			}
			return judgment{Killed, detail, "", false, 0, false}
		}
		if t := killer(r.Tests, ran); t != nil {
			if t.TimedOut {
				return judgment{Timeout, timedOutDetail(*t), t.Name, false, vitestLimit(*t), false}
			}
			return judgment{Killed, orNo(t.Failure), t.Name, false, 0, false}
		}
		return judgment{Error, OtherTestFailure + first.Name + ": " + orNo(first.Failure), first.Name, true, 0, false}
	case Passed:
		if marked && !r.Reached {
			return judgment{NoCoverage, "", "", false, 0, false}
		}
		return judgment{Survived, "", "", false, 0, false}
	}
	if o == Error && marked && r.Reached && loadFailed(r) {
		// The mutated code ran while the test file loaded, and the file
		// failed to load: the mutant's own exception, before any test.
		return judgment{Error, OutsideTestsFailure + detail, "", false, 0, false}
	}
	return judgment{o, detail, "", false, 0, false}
}

// killer is the test of ts that kills: the first that executed the mutated
// code (ran) and failed in its body (or a phase unknown), by an assertion
// or an exception rather than vitest's time-out when one did; else the
// first such test that ran into vitest's time-out; nil when none.
func killer(ts []runner.Test, ran func(runner.Test) bool) *runner.Test {
	var slow *runner.Test
	for i := range ts {
		t := &ts[i]
		if t.Status == runner.TestFailed && (t.Phase == runner.PhaseBody || t.Phase == runner.PhaseUnknown) && ran(*t) {
			if !t.TimedOut {
				return t
			}
			if slow == nil {
				slow = t
			}
		}
	}
	return slow
}

// judgeAlone is judgeMutant for a mutant's run alone whose file carried,
// when marked, the load marker of id at its end (withLoadMarker): a run
// that failed with the mutated statement never reached and the mutated
// file never loaded (its last statement never ran, as the test file's
// coverage run had it run) failed by the mutant itself, which vite could
// not transform or resolve: NotLoadedFailure, not a flaky test (no repeat).
// A run the hit counter stopped (count.go) is a timeout whatever its tests
// say: the counter's error is never a kill (confirmCount derives the limit
// that decides).
func judgeAlone(r runner.Result, marked bool, id string) judgment {
	if r.HitLimit > 0 {
		return judgment{outcome: Timeout, hit: true, detail: fmt.Sprintf("%s: more than %d loop iterations and calls in one test run alone", edit.HitLimitMessage, r.HitLimit)}
	}
	j := judgeMutant(r, marked)
	if !marked || r.Reached || j.outcome != Error || !(j.other || loadFailed(r)) || slices.Contains(r.Markers, loadMarkerID(id)) {
		return j
	}
	_, detail := BaselineOutcome(r)
	return judgment{Error, NotLoadedFailure + detail, "", false, 0, false}
}

// ranTest says whether test t executed the mutated code in run r: it is
// one of r.ReachedIn, or the code ran outside a test (a beforeAll or
// afterAll hook, the file's load) in a describe block that holds t. Without
// that record (no marker, or one that does not name tests), every test may
// have.
func ranTest(r runner.Result, marked bool) func(runner.Test) bool {
	if !marked || len(r.ReachedIn)+len(r.ReachedOutside) == 0 {
		return func(runner.Test) bool { return true }
	}
	return func(t runner.Test) bool {
		if slices.Contains(r.ReachedIn, t.Name) {
			return true
		}
		for _, s := range r.ReachedOutside {
			if s == "" || t.Name == s || strings.HasPrefix(t.Name, s+" ") {
				return true
			}
		}
		return false
	}
}

// NotReachedFailure begins the detail of a mutant run that failed without
// running the mutated statement: an error, never a kill.
const NotReachedFailure = "the run failed, but the mutated code never ran (a flaky test?): "

// OtherTestFailure begins the detail of a mutant run in which only tests
// that never executed the mutated code failed (a flaky or order-dependent
// test): an error, never a kill; it names the test and its failure.
const OtherTestFailure = "only a test that never executed the mutated code failed (a flaky test?): "

// OutsideTestsFailure begins the detail of a mutant run that failed outside
// every test by the mutated code's own failure: it ran while the test file
// loaded, or in a beforeAll or afterAll hook, and the file failed to load or
// the run ended with an unhandled error. No test failed: an error, never a
// kill (SPEC "Runs and kills").
const OutsideTestsFailure = "the mutated code failed outside every test (while the test file loaded, or in a beforeAll or afterAll hook): no test failed, an error, never a kill: "

// NotLoadedFailure begins the detail of a mutant run that failed because
// the mutated file never loaded (vite could not transform or resolve it:
// `import("")`, a syntax the repository's toolchain refuses): the mutant is
// not viable, an error, never a kill, and not a flaky test (not repeated).
const NotLoadedFailure = "the mutated file did not load (the mutant is not valid code for this repository's toolchain; no test executed it): an error, never a kill: "

// RepeatedFailure begins the detail of such a run's error once its repeat
// failed the same way.
const RepeatedFailure = "run again on its own, it failed again: "

// variant is what a batch reported of one variant: its tests, the hit limit
// it ran past (hit), whether it ran past its time limit (slow), and which of
// its tests executed its code (ran, by full name; ranAll: it ran outside a
// test, while the file loaded or in a beforeAll hook, so every test may
// depend on it).
type variant struct {
	tests  []runner.Test
	hit    bool
	limit  string // the hit limit, as the harness counted it
	most   string // the most hits a test (or the load) of the original counted
	slow   bool
	ran    map[string]bool
	ranAll bool
	// concurrent: its code ran in a concurrent test (ranAll with it).
	concurrent bool
}

// variantOutcome judges one variant of a trusted batch (batchTrusted), in
// this order: past the hit limit: undecided (a suspicion of a loop: the
// mutant runs alone, its hits counted: count.go);
// vitest's time-out in every failed test, one of which executed the
// variant's code: timeout when that time-out is the variant's own time
// limit (timeLimit, to which the harness caps vitest's), else undecided (a
// suspicion: a loaded machine reaches a test's 5 s; the mutant runs alone
// with vitest's time-out raised, slow.go); a test that executed it failed
// in its body: killed (by an assertion or an exception rather than a
// time-out when both); past its time limit (timeLimit): timeout. Anything else is
// undecided (""): the mutant runs alone (a setup failure in a batch is not
// trusted, a failure of a test that never executed the variant is no kill,
// and a pass without a reached marker says nothing of coverage). killedBy
// names the test that decided it, when one did.
func variantOutcome(v variant, timeLimit time.Duration) (o Outcome, detail, killedBy string) {
	ran := func(t runner.Test) bool { return v.ranAll || v.ran[t.Name] }
	if v.hit {
		return "", "", ""
	}
	if t := timedOutOnly(v.tests); t != nil {
		for _, t := range v.tests {
			if t.Status == runner.TestFailed && ran(t) {
				if suspect(vitestLimit(t), timeLimit) {
					return "", "", "" // run alone with vitest's time-out raised (slow.go)
				}
				return Timeout, timedOutDetail(t), t.Name
			}
		}
		return "", "", ""
	}
	if t := killer(v.tests, ran); t != nil {
		if t.TimedOut {
			if suspect(vitestLimit(*t), timeLimit) {
				return "", "", ""
			}
			return Timeout, timedOutDetail(*t), t.Name
		}
		return Killed, orNo(t.Failure), t.Name
	}
	if _, body, _ := failures(v.tests); body == nil && v.slow {
		return Timeout, fmt.Sprintf("the variant ran past its time limit of %s in the batch", timeLimit), ""
	}
	return "", "", ""
}

// hitAgainDetail says that a variant stopped by its batch's hit limit
// (first, as counted there) was stopped again with the limit raised (h:
// what its batch run again heard of it): its hits, the limit and the
// original's most.
func hitAgainDetail(first string, h heard) string {
	return fmt.Sprintf("%s: more than %s loop iterations and calls in one test, and run again with the limit raised %d-fold (at least %d), more than %s (the original's most in one test: %s): a loop",
		edit.HitLimitMessage, first, ConfirmRaise, ConfirmHitFloor, h.limit, h.most)
}

// hitFinishedDetail says that a variant stopped by its batch's hit limit
// (first) finished when run again with the limit raised.
func hitFinishedDetail(first string) string {
	return fmt.Sprintf("%s: more than %s loop iterations and calls in one test in its batch; run again with the limit raised %d-fold, it finished: no loop", edit.HitLimitMessage, first, ConfirmRaise)
}

// hitLimitDetail says that a batch's hit limit stopped a mutant.
func hitLimitDetail(limit string) string {
	return fmt.Sprintf("%s: more than %s loop iterations and calls in one test (%d times the most a test of the original counted, at least %d)", edit.HitLimitMessage, limit, HitLimitFactor, HitLimitFloor)
}

// batchTrusted says whether a batch's run can be judged variant by
// variant: it did not time out, its tests were reported, no error was
// raised outside its tests (an unhandled error fails the run, and no
// variant can be told apart as its cause), and the unmutated
// code passed both at its start and at its end (first and last are those
// groups of tests); otherwise the batch was contaminated, its worker stopped
// or it could not load, and nothing in it is trusted.
func batchTrusted(r runner.Result, first, last []runner.Test) bool {
	return !r.TimedOut && len(r.Tests) > 0 && len(r.Unhandled) == 0 && green(first) && green(last)
}

// green: no test failed and one passed at least (the file's own skipped
// and todo tests are skipped in every variant).
func green(ts []runner.Test) bool {
	ran := false
	for _, t := range ts {
		switch t.Status {
		case runner.TestPassed:
			ran = true
		case runner.TestSkipped:
		default:
			return false
		}
	}
	return ran
}

// loadFailed: the test file failed before any test was collected.
func loadFailed(r runner.Result) bool {
	return len(r.Tests) == 0 && (r.FileFailed || r.FileMessage != "")
}

// noTestRan: the test file loaded, and reported, but no test executed.
func noTestRan(r runner.Result) bool {
	return !r.TimedOut && !r.NoReport && !loadFailed(r) && r.Executed() == 0
}

// failures counts the failed tests, and finds the first that failed in its
// body (or whose phase is unknown: a failure counts against the code unless
// it is known to be setup's or teardown's) and the first that failed in
// setup or teardown.
func failures(ts []runner.Test) (failed int, body, other *runner.Test) {
	for i := range ts {
		t := &ts[i]
		if t.Status != runner.TestFailed {
			continue
		}
		failed++
		switch t.Phase {
		case runner.PhaseBody, runner.PhaseUnknown:
			if body == nil {
				body = t
			}
		default:
			if other == nil {
				other = t
			}
		}
	}
	return failed, body, other
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

func orNo(s string) string {
	if s == "" {
		return "(no message)"
	}
	return s
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
