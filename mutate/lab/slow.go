package lab

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// SPEC "Runs and kills": vitest's own time-out of a test (its testTimeout,
// 5 s by default, or hookTimeout) is a suspicion, like a hit-limit stop: a
// loaded machine reaches it with a test that takes 4 s on a quiet one. A
// mutant whose run failed only by such a time-out, below the run's
// wall-clock limit (DerivedTimeout of the baselines, or Lab.Timeout), is
// confirmed once, that test alone (vitest's -t), its time-outs raised to
// three times what the test took on the original code (its baseline) plus a
// second, at least twice vitest's own (confirmLimit), never to the whole
// file's limit: timing out again, it is a timeout. Finishing, it is no
// loop: the file runs again whole with vitest's time-outs so raised, and
// its tests decide (a test that times out there too is a timeout). A
// baseline that failed only by vitest's time-out is the same question: it
// runs again with the time-outs raised (to half its bound), and is green
// when each test that timed out now takes less than vitest's own time-out
// (the first run was the load); else the first run stands (red: the test is
// past its time-out on this machine each time).

// confirmLimit is the time-out a test that ran into vitest's own (vitest)
// is confirmed under, given what it took on the original code (orig; 0:
// not known).
func confirmLimit(orig, vitest time.Duration) time.Duration {
	return max(3*orig+time.Second, 2*vitest)
}

// timedOutIn reads vitest's time-out from its message: "Test timed out in
// 5000ms", "Hook timed out in 10000ms"; or jest's: "Exceeded timeout of
// 5000 ms for a test".
var timedOutIn = regexp.MustCompile(`(?:(?:Test|Hook) timed out in|Exceeded timeout of) (\d+)\s*ms`)

// vitestLimit is the time-out of vitest's own that test t ran into, as its
// failure states it; 1 ns (below any limit: a suspicion) when the failure
// does not say; 0 when t did not time out.
func vitestLimit(t runner.Test) time.Duration {
	if !t.TimedOut {
		return 0
	}
	m := timedOutIn.FindStringSubmatch(t.Failure)
	if m == nil {
		return time.Nanosecond
	}
	ms, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return time.Nanosecond
	}
	return time.Duration(ms) * time.Millisecond
}

// suspect: vitest's time-out at vitest (0: not vitest's) is below limit,
// the wall-clock limit of the run: the run does not show that the code
// runs past the limit, only that a test ran past its own setting.
func suspect(vitest, limit time.Duration) bool {
	return vitest > 0 && limit > 0 && vitest < limit
}

// confirmSlow confirms the judgment j of spec's run (a mutant's run alone,
// its Timeout the wall-clock limit) when it rests on vitest's time-out
// below that limit: the test that timed out runs alone with its time-outs
// raised (confirmLimit); timing out again it is a timeout, else the file
// runs whole with them so raised, and that run is judged. Other judgments
// are returned as they are. The runs' durations are added to took.
func (l *Lab) confirmSlow(ctx context.Context, spec runner.Spec, j judgment, marked bool, took *time.Duration) (judgment, error) {
	if j.outcome != Timeout || !suspect(j.vitest, spec.Timeout) || spec.TestTimeout > 0 || j.by == "" {
		return j, nil
	}
	first, id := j, spec.ReachedMarker
	orig := testTime(l.origTests[spec.TestFile], first.by)
	spec.TestTimeout, spec.Once = confirmLimit(orig, first.vitest), true
	one := spec
	one.TestName, one.Timeout = first.by, spec.Timeout+spec.TestTimeout // vitest's own time-out ends it first
	r, err := l.Runner.Run(ctx, one)
	if err != nil {
		return j, l.fail(ctx, err)
	}
	*took += r.Duration
	again := fmt.Sprintf("%s; run again alone, that test only, with vitest's time-outs raised to %s (3 times its %s on the original code and a second, at least twice vitest's own)", first.detail, round(spec.TestTimeout), round(orig))
	if j = judgeAlone(r, marked, id); j.outcome == Timeout {
		j.detail = again + ", it timed out too: " + j.detail
		return j, nil
	}
	if r, err = l.Runner.Run(ctx, spec); err != nil {
		return j, l.fail(ctx, err)
	}
	*took += r.Duration
	j = judgeAlone(r, marked, id)
	whole := again + ", it finished; the whole file run so"
	switch j.outcome {
	case Timeout:
		j.detail = whole + ", a test timed out: " + j.detail
	case Killed:
		j.detail = whole + ", a test failed: " + j.detail
	case Survived:
		j.detail = whole + ", every test passed: the machine was slow, not the mutant"
	default:
		j.detail = strings.TrimSuffix(whole+": "+j.detail, ": ")
	}
	return j, nil
}

// testTime is the time of the test named name in ts (0: not there).
func testTime(ts []runner.Test, name string) time.Duration {
	for _, t := range ts {
		if t.Name == name {
			return t.Duration
		}
	}
	return 0
}

// confirmSlowBaseline runs a baseline (spec, its Timeout the bound) again
// with vitest's time-outs raised to half that bound when its run r failed
// only by vitest's time-outs below that: the second run is the baseline
// when it passes with each test that timed out now faster than the
// time-out it ran into; otherwise r stands.
func (l *Lab) confirmSlowBaseline(ctx context.Context, spec runner.Spec, r runner.Result) (runner.Result, error) {
	raised := spec.Timeout / 2
	if r.TimedOut || timedOutOnly(r.Tests) == nil || spec.TestTimeout > 0 {
		return r, nil
	}
	limits := map[string]time.Duration{}
	for _, u := range r.Tests {
		if u.TimedOut {
			if !suspect(vitestLimit(u), raised) {
				return r, nil
			}
			limits[u.Name] = vitestLimit(u)
		}
	}
	spec.TestTimeout, spec.Once = raised, true
	again, err := l.Runner.Run(ctx, spec)
	if err != nil {
		return r, l.fail(ctx, err)
	}
	if o, _ := BaselineOutcome(again); o != Passed {
		return r, nil
	}
	for _, u := range again.Tests {
		if n, ok := limits[u.Name]; ok && u.Duration >= n {
			return r, nil // past its time-out again: red on this machine
		}
	}
	return again, nil
}

// loadMarkerID is the id of the load marker of the mutant whose reached
// marker is id.
func loadMarkerID(id string) string { return id + "-loaded" }

// withLoadMarker appends to src (a mutated file carrying the reached marker
// id) a statement that records id's load marker: it runs when the module's
// top level has run to its end, so a run in which it is missing never
// loaded the mutated file (judgeAlone). No line moves.
func withLoadMarker(src []byte, id string) []byte {
	out := append([]byte{}, src...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, ";"+runner.MarkerStatement(loadMarkerID(id))+"\n"...)
}

// round says d for a detail, to the millisecond.
func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
