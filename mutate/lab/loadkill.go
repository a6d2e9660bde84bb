package lab

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// LoadKillFailure begins the detail of a mutant run whose only killer
// executed the mutated code while its file loaded, not in the test itself
// (a module's top-level value: a regex, a table), and failed the same way
// on the code as it is: a flaky test (a timing assertion on a loaded
// machine), an error naming it, never a kill.
const LoadKillFailure = "the test that failed executed the mutated code only while its file loaded, and fails on the code as it is too (a flaky test?): "

// loadOnlyKill says whether the kill j of run r is by a test that executed
// the mutated code only outside every test (the file's load, a beforeAll
// hook): for a module's top-level code every test of every file that
// loads the module counts as executing it, and a flaky one among them (a
// timing assertion in vuejs/core's computed.spec.ts, which loads @vue/shared
// with its regexes) would count as a kill.
func loadOnlyKill(r runner.Result, j judgment, marked bool) bool {
	return marked && j.outcome == Killed && j.by != "" && len(r.ReachedOutside) > 0 && !slices.Contains(r.ReachedIn, j.by)
}

// confirmLoadKill confirms such a kill: the run is repeated with the
// mutant (not killed again: the repeat's outcome stands), then the test
// file runs on the code as it is, under the same conditions; when the
// killing test fails there too, the kill is not the mutant's (an error
// naming the test). Other kills are returned as they are.
func (l *Lab) confirmLoadKill(ctx context.Context, sl Slot, path string, src []byte, spec runner.Spec, r runner.Result, j judgment, marked bool, took *time.Duration) (judgment, error) {
	if !loadOnlyKill(r, j, marked) {
		return j, nil
	}
	first := j
	again, err := l.Runner.Run(ctx, spec)
	if err != nil {
		return j, l.fail(ctx, err)
	}
	*took += again.Duration
	if j = judgeAlone(again, marked, spec.ReachedMarker); j.outcome != Killed {
		if j.outcome == Survived || j.outcome == NoCoverage {
			j.detail = fmt.Sprintf("killed by %s in a first run (it executed the mutated code only while its file loaded); run again, every test passed", first.by)
		}
		return j, nil
	}
	o, err := l.runOriginal(ctx, sl, path, src, spec, took)
	if err != nil {
		return j, err
	}
	for _, t := range o.Tests {
		if t.Name == j.by && t.Status == runner.TestFailed {
			return judgment{Error, LoadKillFailure + j.by + ": " + orNo(t.Failure), j.by, false, 0, false}, nil
		}
	}
	return j, nil
}

// runOriginal runs spec (a mutant's run alone in slot sl) on the original
// code, under the same conditions and without the marker: path is put back
// as it was, run, and the mutant, src, written again. The run's duration is
// added to took.
func (l *Lab) runOriginal(ctx context.Context, sl Slot, path string, src []byte, spec runner.Spec, took *time.Duration) (runner.Result, error) {
	if err := sl.Files.Restore(path); err != nil {
		return runner.Result{}, fmt.Errorf("sandbox: %w", err)
	}
	spec.ReachedMarker = ""
	o, err := l.Runner.Run(ctx, spec)
	if werr := sl.Files.WriteFile(path, src); werr != nil && err == nil {
		return o, fmt.Errorf("sandbox: %w", werr)
	}
	if err != nil {
		return o, l.fail(ctx, err)
	}
	*took += o.Duration
	return o, nil
}
