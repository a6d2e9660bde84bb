package gate

import (
	"testing"

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
		{load("expected 1 to be 2", "a"), lab.Run{Outcome: lab.Failed, Detail: "expected 1 to be 2", Tests: load("", "a").Tests}, false},
	}
	for i, c := range cases {
		if got := failure(c.a) == failure(c.b); got != c.same {
			t.Errorf("case %d: the same way %v, want %v (%q, %q)", i, got, c.same, c.a.Detail, c.b.Detail)
		}
	}
}
