package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// The facts the fakes report.
func passedRun() runner.Result {
	return runner.Result{Tests: []runner.Test{{Name: "t", Status: runner.TestPassed}}}
}

func failedRun(failure string) runner.Result {
	return runner.Result{Tests: []runner.Test{{Name: "t", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: failure}}, ExitCode: 1, Reached: true}
}

func loadErrorRun(message string) runner.Result {
	return runner.Result{FileFailed: true, FileMessage: message, ExitCode: 1}
}

func timedOutRun() runner.Result {
	return runner.Result{TimedOut: true, Note: "timed out after 1s", ExitCode: -1}
}

// TestJudgeRun: the kill policy over the facts of one run, for a baseline
// and for a mutant. Only a failure in a test body (an assertion, or what
// the code under test threw) or an unhandled error kills; a time-out counts
// as a kill; a load, syntax or setup failure, or no test executed, is an
// error, never a kill.
func TestJudgeRun(t *testing.T) {
	test := func(name string, st runner.TestStatus, ph runner.Phase, failure string) runner.Test {
		return runner.Test{Name: name, Status: st, Phase: ph, Failure: failure}
	}
	pass := test("s a", runner.TestPassed, "", "")
	skip := test("s c", runner.TestSkipped, "", "")
	body := func(failure string) runner.Test { return test("s b", runner.TestFailed, runner.PhaseBody, failure) }
	setup := test("s s", runner.TestFailed, runner.PhaseSetup, "Error: db down")
	timedOut := func(ph runner.Phase) runner.Test {
		t := test("s w", runner.TestFailed, ph, "Error: Test timed out in 5000ms.")
		t.TimedOut = true
		return t
	}
	const vitestTimeout = "the test timed out (vitest's time-out): s w: Error: Test timed out in 5000ms."
	// The mutated code ran (its marker appeared) unless a case says otherwise.
	tests := func(ts ...runner.Test) runner.Result { return runner.Result{Tests: ts, ExitCode: 1, Reached: true} }
	cases := []struct {
		name          string
		r             runner.Result
		marked        bool
		base          Outcome
		baseDetail    string
		mutant        Outcome
		mutantDetail  string
		noTestRanFlag bool
	}{
		{"assertion failure", tests(pass, body("AssertionError: expected 1 to be 2")), true, Failed, "AssertionError: expected 1 to be 2", Killed, "AssertionError: expected 1 to be 2", false},
		{"exception in a test body", tests(body("TypeError: x.y is not a function")), true, Failed, "TypeError: x.y is not a function", Killed, "TypeError: x.y is not a function", false},
		{"failure without a message", tests(body("")), true, Failed, "(no message)", Killed, "(no message)", false},
		{"failure of an unknown phase", tests(test("s b", runner.TestFailed, runner.PhaseUnknown, "Error: x")), true, Failed, "Error: x", Killed, "Error: x", false},
		{"error in a beforeEach", tests(setup, setup), true, Error, "setup (beforeEach) failed in 2 of 2 executed tests: Error: db down", Error, "setup (beforeEach) failed in 2 of 2 executed tests: Error: db down", false},
		{"error in an afterEach", tests(pass, test("s t", runner.TestFailed, runner.PhaseTeardown, "TypeError: x")), true, Error, "teardown (afterEach) failed in 1 of 2 executed tests: TypeError: x", Error, "teardown (afterEach) failed in 1 of 2 executed tests: TypeError: x", false},
		{"setup in one, body in another", tests(setup, body("AssertionError: expected 1 to be 2")), true, Failed, "AssertionError: expected 1 to be 2", Killed, "AssertionError: expected 1 to be 2", false},
		{"syntax error", loadErrorRun("SyntaxError: Unexpected token (at src/a.ts:3:4)"), true, Error, "the test file failed to load: SyntaxError: Unexpected token (at src/a.ts:3:4)", Error, "the test file failed to load: SyntaxError: Unexpected token (at src/a.ts:3:4)", false},
		{"load error", loadErrorRun("Error: Cannot find module './nope'"), true, Error, "the test file failed to load: Error: Cannot find module './nope'", Error, "the test file failed to load: Error: Cannot find module './nope'", false},
		{"load error without a message", runner.Result{FileFailed: true}, true, Error, "the test file failed to load: (no message)", Error, "the test file failed to load: (no message)", false},
		{"afterAll failed", runner.Result{Tests: []runner.Test{pass}, FileFailed: true, FileMessage: "Error: afterAll boom"}, true, Error, "every test passed but the file failed (afterAll?): Error: afterAll boom", Error, "every test passed but the file failed (afterAll?): Error: afterAll boom", false},
		{"beforeAll failed", runner.Result{Tests: []runner.Test{skip, skip}, FileFailed: true, FileMessage: "Error: beforeAll boom"}, true, Error, "no test executed (2 skipped): Error: beforeAll boom", Error, "no test executed (2 skipped): Error: beforeAll boom", true},
		{"no test, and an unhandled error (a browser-mode file whose browser cannot launch: vitest reports it passed)", runner.Result{ExitCode: 1, Unhandled: []string{"Error: browserType.launch: firefox", "Error: browserType.launch: Executable doesn't exist"}}, true, Error, "no test executed (0 skipped): unhandled error: Error: browserType.launch: Executable doesn't exist", Error, "no test executed (0 skipped): unhandled error: Error: browserType.launch: Executable doesn't exist", true},
		{"no test executed", runner.Result{Tests: []runner.Test{skip, skip}}, true, Error, "no test executed (2 skipped)", Error, "no test executed (2 skipped)", true},
		{"no test at all", runner.Result{}, true, Error, "no test executed (0 skipped)", Error, "no test executed (0 skipped)", true},
		{"no report", runner.Result{NoReport: true, Note: "vitest exited with code 1 and wrote no report"}, true, Error, "vitest exited with code 1 and wrote no report", Error, "vitest exited with code 1 and wrote no report", false},
		{"the run's time-out", runner.Result{TimedOut: true, Note: "timed out after 3s, twice (run 1: 3s, run 2: 3s)"}, true, Timeout, "timed out after 3s, twice (run 1: 3s, run 2: 3s)", Timeout, "timed out after 3s, twice (run 1: 3s, run 2: 3s)", false},
		{"vitest's time-out in the body", tests(pass, timedOut(runner.PhaseBody)), true, Failed, "Error: Test timed out in 5000ms.", Timeout, vitestTimeout, false},
		{"vitest's time-out in a beforeEach", tests(timedOut(runner.PhaseSetup)), true, Error, "setup (beforeEach) failed in 1 of 1 executed tests: Error: Test timed out in 5000ms.", Timeout, vitestTimeout, false},
		// The kill rests on the assertion, not on the time-out (a suspicion).
		{"a time-out and an assertion", tests(timedOut(runner.PhaseBody), body("AssertionError: x")), true, Failed, "Error: Test timed out in 5000ms.", Killed, "AssertionError: x", false},
		{"unhandled error", runner.Result{Tests: []runner.Test{pass}, Unhandled: []string{"Error: floating"}, ExitCode: 1, Reached: true}, true, Failed, "unhandled error during the run: Error: floating", Killed, "unhandled error during the run: Error: floating", false},
		{"non-zero exit only", runner.Result{Tests: []runner.Test{pass}, ExitCode: 1, LastLine: "Error: worker died"}, true, Error, "every test passed but vitest exited with code 1: Error: worker died", Error, "every test passed but vitest exited with code 1: Error: worker died", false},
		{"failed, marker not reached", runner.Result{Tests: []runner.Test{pass, body("AssertionError: flaky")}, ExitCode: 1}, true, Failed, "AssertionError: flaky",
			Error, "the run failed, but the mutated code never ran (a flaky test?): AssertionError: flaky", false},
		// An unhandled error from code that ran only outside every test,
		// or a load failure after the mutated code ran at load: no test
		// failed, an error, never a kill.
		{"unhandled error, ran only in a beforeAll", runner.Result{Tests: []runner.Test{pass}, Unhandled: []string{"Error: floating"}, ExitCode: 1, Reached: true, ReachedOutside: []string{"s"}}, true, Failed, "unhandled error during the run: Error: floating",
			Error, OutsideTestsFailure + "unhandled error during the run: Error: floating", false},
		{"load error after it ran at load", runner.Result{FileFailed: true, FileMessage: "Error: bad table", ExitCode: 1, Reached: true, ReachedOutside: []string{""}}, true, Error, "the test file failed to load: Error: bad table",
			Error, OutsideTestsFailure + "the test file failed to load: Error: bad table", false},
		{"unhandled error, marker not reached", runner.Result{Tests: []runner.Test{pass}, Unhandled: []string{"Error: floating"}, ExitCode: 1}, true, Failed, "unhandled error during the run: Error: floating",
			Error, "the run failed, but the mutated code never ran (a flaky test?): unhandled error during the run: Error: floating", false},
		{"failed, no marker", runner.Result{Tests: []runner.Test{body("AssertionError: x")}, ExitCode: 1}, false, Failed, "AssertionError: x", Killed, "AssertionError: x", false},
		// SPEC "Runs and kills": the marker names the tests that executed the mutated code.
		{"failed in a test that never ran it", runner.Result{Tests: []runner.Test{pass, body("AssertionError: flaky")}, ExitCode: 1, Reached: true, ReachedIn: []string{"s a"}}, true, Failed, "AssertionError: flaky",
			Error, "only a test that never executed the mutated code failed (a flaky test?): s b: AssertionError: flaky", false},
		{"failed in the test that ran it", runner.Result{Tests: []runner.Test{pass, body("AssertionError: x")}, ExitCode: 1, Reached: true, ReachedIn: []string{"s b"}}, true, Failed, "AssertionError: x", Killed, "AssertionError: x", false},
		{"failed after it ran at load", runner.Result{Tests: []runner.Test{pass, body("AssertionError: x")}, ExitCode: 1, Reached: true, ReachedOutside: []string{""}}, true, Failed, "AssertionError: x", Killed, "AssertionError: x", false},
		{"vitest's time-out in a test that never ran it", runner.Result{Tests: []runner.Test{pass, timedOut(runner.PhaseBody)}, ExitCode: 1, Reached: true, ReachedIn: []string{"s a"}}, true, Failed, "Error: Test timed out in 5000ms.",
			Error, "only a test that never executed the mutated code failed (a flaky test?): s w: Error: Test timed out in 5000ms.", false},
		{"passed, reached", runner.Result{Tests: []runner.Test{pass}, Reached: true}, true, Passed, "", Survived, "", false},
		{"passed, marker not reached", runner.Result{Tests: []runner.Test{pass, skip}}, true, Passed, "", NoCoverage, "", false},
		{"passed, no marker", runner.Result{Tests: []runner.Test{pass}}, false, Passed, "", Survived, "", false},
	}
	for _, c := range cases {
		if o, d := BaselineOutcome(c.r); o != c.base || d != c.baseDetail {
			t.Errorf("%s: baseline %s %q, want %s %q", c.name, o, d, c.base, c.baseDetail)
		}
		if o, d := MutantOutcome(c.r, c.marked); o != c.mutant || d != c.mutantDetail {
			t.Errorf("%s: mutant %s %q, want %s %q", c.name, o, d, c.mutant, c.mutantDetail)
		}
		if got := noTestRan(c.r); got != c.noTestRanFlag {
			t.Errorf("%s: no test ran %v, want %v", c.name, got, c.noTestRanFlag)
		}
	}
}

// TestJudgeVariant: the kill policy for one variant of a batch. vitest's
// time-out and the variant's own time limit are timeouts, a failure in a
// body a kill, each of a test that executed the variant's code; anything
// else (a pass, a setup failure, a failure of a test that never executed
// it, a hit-limit stop) is not decided in the batch: the mutant runs alone.
func TestJudgeVariant(t *testing.T) {
	pass := runner.Test{Name: "a", Status: runner.TestPassed}
	kill := runner.Test{Name: "b", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: "AssertionError: expected 2"}
	setup := runner.Test{Name: "c", Status: runner.TestFailed, Phase: runner.PhaseSetup, Failure: "Error: db down"}
	wait := runner.Test{Name: "d", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: "Error: Test timed out in 5000ms.", TimedOut: true}
	loop := runner.Test{Name: "e", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: edit.HitLimitMessage}
	if d := hitLimitDetail("100000"); d != edit.HitLimitMessage+": more than 100000 loop iterations and calls in one test (100 times the most a test of the original counted, at least 100000)" {
		t.Errorf("hit limit detail: %q", d)
	}
	all := map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true}
	only := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	cases := []struct {
		name           string
		v              variant
		want           Outcome
		detail, killer string
	}{
		// A hit-limit stop is a suspicion: the mutant runs alone, without the counter.
		{"hit limit", variant{tests: []runner.Test{pass, loop}, hit: true, limit: "100000", ran: all}, "", "", ""},
		{"hit limit, caught", variant{tests: []runner.Test{pass}, hit: true, limit: "100000", ran: all}, "", "", ""},
		{"vitest's time-out", variant{tests: []runner.Test{pass, wait}, ran: all}, Timeout, "the test timed out (vitest's time-out): d: Error: Test timed out in 5000ms.", "d"},
		{"assertion failure", variant{tests: []runner.Test{pass, kill}, ran: all}, Killed, "AssertionError: expected 2", "b"},
		{"a time-out and an assertion", variant{tests: []runner.Test{wait, kill}, ran: all}, Killed, "AssertionError: expected 2", "b"},
		{"a time-out in a test that ran it, an assertion in one that did not", variant{tests: []runner.Test{wait, kill}, ran: only("d")}, Timeout, "the test timed out (vitest's time-out): d: Error: Test timed out in 5000ms.", "d"},
		{"killed, then past its time limit", variant{tests: []runner.Test{kill}, slow: true, ran: all}, Killed, "AssertionError: expected 2", "b"},
		{"past its time limit", variant{tests: []runner.Test{pass}, slow: true, ran: all}, Timeout, "the variant ran past its time limit of 5s in the batch", ""},
		{"setup failure", variant{tests: []runner.Test{setup, pass}, ran: all}, "", "", ""},
		{"passed", variant{tests: []runner.Test{pass}, ran: all}, "", "", ""},
		{"no test", variant{}, "", "", ""},
		// SPEC "Runs and kills": only a test that executed the variant's code kills it.
		{"failed in a test that never ran it", variant{tests: []runner.Test{pass, kill}, ran: only("a")}, "", "", ""},
		{"failed in a test that never ran it, then in one that did", variant{tests: []runner.Test{kill, wait, {Name: "f", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: "AssertionError: f"}}, ran: only("f")}, Killed, "AssertionError: f", "f"},
		{"no test ran it", variant{tests: []runner.Test{kill}}, "", "", ""},
		{"ran at load: every test", variant{tests: []runner.Test{pass, kill}, ranAll: true}, Killed, "AssertionError: expected 2", "b"},
		{"vitest's time-out in a test that never ran it", variant{tests: []runner.Test{pass, wait}, ran: only("a")}, "", "", ""},
	}
	for _, c := range cases {
		o, d, k := variantOutcome(c.v, 5*time.Second)
		if o != c.want || d != c.detail || k != c.killer {
			t.Errorf("%s: %q %q by %q, want %q %q by %q", c.name, o, d, k, c.want, c.detail, c.killer)
		}
	}

	ok := []runner.Test{pass}
	red := []runner.Test{pass, kill}
	for _, c := range []struct {
		name        string
		r           runner.Result
		first, last []runner.Test
		want        bool
	}{
		{"clean", runner.Result{Tests: ok}, ok, ok, true},
		{"the batch timed out", runner.Result{TimedOut: true}, ok, ok, false},
		{"an unhandled error in the batch", runner.Result{Tests: ok, Unhandled: []string{"Error: floating"}}, ok, ok, false},
		{"no test reported", runner.Result{}, ok, ok, false},
		{"red at the start", runner.Result{Tests: ok}, red, ok, false},
		{"red at the end (contaminated)", runner.Result{Tests: ok}, ok, red, false},
		{"nothing ran at the end", runner.Result{Tests: ok}, ok, []runner.Test{{Status: runner.TestSkipped}}, false},
	} {
		if got := batchTrusted(c.r, c.first, c.last); got != c.want {
			t.Errorf("%s: trusted %v, want %v", c.name, got, c.want)
		}
	}
}

// A run alone that the hit counter stopped is a timeout of the counter,
// never a kill by the test that threw its error.
func TestJudgeAloneCounterStop(t *testing.T) {
	r := runner.Result{HitLimit: 10000000, Reached: true, ReachedIn: []string{"loops"},
		Tests: []runner.Test{{Name: "loops", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: "Error: oracle: hit limit reached: more than 10000000 loop iterations"}}}
	j := judgeAlone(r, true, "m1")
	if j.outcome != Timeout || !j.hit || j.by != "" || !strings.HasPrefix(j.detail, "oracle: hit limit reached: more than 10000000") {
		t.Errorf("%+v", j)
	}
	r.HitLimit = 0
	if j := judgeAlone(r, true, "m1"); j.outcome != Killed {
		t.Errorf("without the counter's line, the failure is the test's: %+v", j)
	}
}
