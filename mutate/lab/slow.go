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
// wall-clock limit (DerivedTimeout of the baselines, or Lab.Timeout), runs
// again alone with vitest's time-outs raised to that limit: it is a
// timeout when it runs past the limit again, or passes but takes at least
// vitest's own time-out and at least SlowFactor times the original code's
// time for that test, run the same way right after (the mutant made it
// slow: on a quiet machine too it runs past vitest's time-out); killed
// when a test then fails otherwise; survived when every test passes in
// less (the machine was slow, not the mutant). A baseline that failed only by
// vitest's time-out is the same question: it runs again with the time-outs
// raised (to half its bound), and is green when each test that timed out
// now takes less than vitest's own time-out (the first run was the load);
// else the first run stands (red: the test is past its time-out on this
// machine each time).

// SlowFactor: a mutant's test that passes with vitest's time-outs raised
// is a timeout only when it took at least this many times the original's
// (and at least vitest's own time-out).
const SlowFactor = 2

// timedOutIn reads vitest's time-out from its message: "Test timed out in
// 5000ms", "Hook timed out in 10000ms".
var timedOutIn = regexp.MustCompile(`(?:Test|Hook) timed out in (\d+)\s*ms`)

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

// confirmSlow runs spec (a mutant's run alone in slot sl, its Timeout the
// wall-clock limit) again with vitest's time-outs raised to that limit,
// once, when the judgment j of its run rests on vitest's time-out below the
// limit; otherwise it returns j as it is. When the test passes then, but in
// at least vitest's own time-out, the original code (path put back as it
// was, then the mutant, src, written again) runs the same way, at once and
// in the same kind of process: the mutant is a timeout when its test took
// SlowFactor times the original's or more. The runs' durations are added
// to took.
func (l *Lab) confirmSlow(ctx context.Context, sl Slot, path string, src []byte, spec runner.Spec, j judgment, marked bool, took *time.Duration) (judgment, error) {
	if j.outcome != Timeout || !suspect(j.vitest, spec.Timeout) || spec.TestTimeout > 0 {
		return j, nil
	}
	first, id := j, spec.ReachedMarker
	spec.TestTimeout, spec.Once = spec.Timeout, true
	r, err := l.Runner.Run(ctx, spec)
	if err != nil {
		return j, l.fail(ctx, err)
	}
	*took += r.Duration
	j = judgeAlone(r, marked, id)
	again := fmt.Sprintf("%s; run again alone with vitest's time-outs raised to %s (the run's limit)", first.detail, round(spec.Timeout))
	switch j.outcome {
	case Timeout:
		j.detail = again + ", it timed out too: " + j.detail
	case Survived:
		tm := testTime(r.Tests, first.by)
		if tm < first.vitest {
			j.detail = fmt.Sprintf("%s, every test passed (%s in %s, within vitest's own %s): the machine was slow, not the mutant", again, first.by, round(tm), first.vitest)
			break
		}
		// As slow as vitest's own time-out again: the original's time, in
		// the same conditions, is the measure.
		o, err := l.runOriginal(ctx, sl, path, src, spec, took)
		if err != nil {
			return j, err
		}
		orig := testTime(o.Tests, first.by)
		if tm >= SlowFactor*orig {
			j = judgment{Timeout, fmt.Sprintf("%s, %s passed in %s: past vitest's own time-out of %s, and %d times the original's %s or more, run the same way: the mutant made it slow", again, first.by, round(tm), first.vitest, SlowFactor, round(orig)), first.by, false, 0}
		} else {
			j.detail = fmt.Sprintf("%s, every test passed (%s in %s; the original, run the same way, in %s): the machine was slow, not the mutant", again, first.by, round(tm), round(orig))
		}
	case Killed:
		j.detail = again + ", a test failed: " + j.detail
	default:
		j.detail = strings.TrimSuffix(again+": "+j.detail, ": ")
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
