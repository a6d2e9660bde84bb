package lab

import (
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// boundOf is the bound of test's baseline run alone: Lab.BaselineBound of
// the times of the other test files' baselines known so far (the joint
// run's, which ran them all at once, and the runs alone before this one),
// leaving out those that ran past their own bound; bt without a
// BaselineBound.
func (l *Lab) boundOf(test string, bt time.Duration, joint map[string]runner.Result, done []Run) time.Duration {
	if l.BaselineBound == nil {
		return bt
	}
	others := []time.Duration{} // not nil: nil asks for the joint run's bound
	seen := map[string]bool{test: true}
	for _, b := range done {
		if !seen[b.Test] && b.Outcome != Timeout {
			others = append(others, b.Duration)
		}
		seen[b.Test] = true
	}
	for t, r := range joint {
		if !seen[t] && !r.TimedOut && !r.NoReport {
			others = append(others, r.Duration)
		}
	}
	return l.BaselineBound(others)
}
