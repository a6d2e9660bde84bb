package gate

import (
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestRedBaselineKinds: a file whose every test was skipped is not red; a
// file that failed with no test executed is. Two red runs fail "the same
// way" when their outcome, their detail without the sandbox's path and
// their failing tests agree.
func TestRedBaselineKinds(t *testing.T) {
	skipped := lab.Run{Outcome: lab.Error, NoTestRan: true, Tests: []runner.Test{{Name: "a", Status: runner.TestSkipped}}, Detail: lab.NoTestExecuted + " (1 skipped)"}
	beforeAll := skipped
	beforeAll.Detail = lab.NoTestExecuted + " (1 skipped): beforeAll threw"
	if !skippedOnly(skipped) || skippedOnly(beforeAll) {
		t.Errorf("skippedOnly: every test skipped %v, a beforeAll that threw %v", skippedOnly(skipped), skippedOnly(beforeAll))
	}
	load := func(detail string, failed ...string) lab.Run {
		r := lab.Run{Outcome: lab.Error, Detail: detail}
		for _, f := range failed {
			r.Tests = append(r.Tests, runner.Test{Name: f, Status: runner.TestFailed})
		}
		return r
	}
	cases := []struct {
		a, b lab.Run
		same bool
	}{
		{load("the test file failed to load: Cannot find module '/tmp/oracle-prove-123/repo/src/fmt'"),
			load("the test file failed to load: Cannot find module '/tmp/x/oracle-prove-9/repo/src/fmt'"), true},
		{load("the test file failed to load: Cannot find module '/tmp/oracle-prove-123/repo/src/fmt'"),
			load("the test file failed to load: Cannot find module '/tmp/oracle-prove-9/repo/src/format'"), false},
		{load("expected 1 to be 2", "a"), load("expected 1 to be 2", "b"), false},
		{load("AssertionError: expected 136.92191500001354 to be less than 100", "perf"), load("AssertionError: expected 141.3 to be less than 100", "perf"), true},
		{lab.Run{Outcome: lab.Error, NoTestRan: true, Detail: lab.NoTestExecuted + " (0 skipped): unhandled error: Error: browserType.launch: Executable doesn't exist"},
			lab.Run{Outcome: lab.Error, NoTestRan: true, Detail: lab.NoTestExecuted + " (0 skipped): Error: browser closed"}, true},
		{lab.Run{Outcome: lab.Error, NoTestRan: true, Detail: lab.NoTestExecuted + " (0 skipped): Error: x"}, load("the test file failed to load: Error: x"), false},
		{load("AssertionError: expected 136.92191500001354 to be less than 100", "perf"), load("AssertionError: expected 'x' to be less than 100", "perf"), false},
		{load("expected 1 to be 2", "a"), lab.Run{Outcome: lab.Failed, Detail: "expected 1 to be 2", Tests: load("", "a").Tests}, false},
	}
	for i, c := range cases {
		if got := failure(c.a) == failure(c.b); got != c.same {
			t.Errorf("case %d: the same way %v, want %v (%q, %q)", i, got, c.same, c.a.Detail, c.b.Detail)
		}
	}
}

// TestBaselineBound: a candidate's baseline bound is ten times the slowest
// other candidate's baseline, at least DefaultBaselineTimeout (2 minutes:
// also the joint run's) and at most BaselineCeiling (5 minutes: also the
// bound with no other candidate to compare to: a lone slow file on a
// loaded machine is not an ERROR); ORACLE_BASELINE_TIMEOUT sets one bound
// for all. The ERROR
// says which bound and why.
func TestBaselineBound(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		name   string
		fixed  time.Duration
		others []time.Duration
		want   time.Duration
		why    string
	}{
		{"the joint run: the floor", 0, nil, 2 * time.Minute, "the bound: the floor; 10 times the slowest other candidate's baseline is less"},
		{"no other candidate to compare to: the ceiling", 0, []time.Duration{}, 5 * time.Minute, "the bound: the ceiling; 10 times the slowest other candidate's baseline is more, or there is none to compare to"},
		{"fast others: the floor", 0, []time.Duration{s, 3 * s}, 2 * time.Minute, "the floor"},
		{"slow others: ten times the slowest", 0, []time.Duration{5 * s, 18 * s, 2 * s}, 3 * time.Minute, "the bound: 10 times the slowest other candidate's baseline, 18 seconds"},
		{"very slow others: the ceiling", 0, []time.Duration{time.Minute}, 5 * time.Minute, "the bound: the ceiling"},
		{"set by the variable", 2 * s, []time.Duration{time.Minute}, 2 * s, "the bound: set by ORACLE_BASELINE_TIMEOUT"},
	} {
		got := baselineBound(c.fixed)(c.others)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
			continue
		}
		bs := []lab.Run{{Test: "test/a.test.ts", Outcome: lab.Passed, Duration: s}, {Test: "test/hang.test.ts", Outcome: lab.Timeout, Bound: got}}
		reason := hungReason([]string{"test/hang.test.ts"}, bs, c.fixed > 0)
		if !strings.Contains(reason, "test/hang.test.ts did not finish within "+minutes(got)) || !strings.Contains(reason, c.why) {
			t.Errorf("%s: %q does not say %q", c.name, reason, c.why)
		}
	}
}
