// Package lab runs mutants: a list of mutants against a list of test files,
// in a sandbox copy of the repository, and classifies each run into an
// outcome. It knows nothing of where the mutants came from (conditional-
// skip's operators for `prove`, the gate's for `gate`): discovery, the lab
// and the verdicts are kept apart, as cargo-mutants keeps them.
//
// The kill policy lives here, in one file (outcome.go), not in the runner:
// the runner reports what vitest reported, facts only; the lab decides that only a test failing in
// its body (an assertion, or an exception from the code under test) kills a
// mutant, and that a load, syntax or setup failure is an error, never a kill.
package lab

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Files are the files of the sandbox the lab writes mutants into: a
// repository copy whose files can be replaced and restored (sandbox.Sandbox
// is one).
type Files interface {
	WriteFile(rel string, data []byte) error
	Restore(rel string) error
}

// Slot is one sandbox a worker runs mutants in.
type Slot struct {
	Root  string // the sandbox's repository root, absolute
	Files Files  // the sandbox's files, for writing mutants
}

// Lab runs mutants in one sandbox, or spread over several, with one runner.
type Lab struct {
	Root   string // the sandbox's repository root, absolute
	Files  Files  // the sandbox's files, for writing mutants
	Runner runner.Runner
	// More are further sandboxes, copies of the same repository holding the
	// same test files: the mutants are spread over one worker per sandbox
	// (Root's and these), which run at the same time; the runner must serve
	// concurrent runs in different directories. Results keep the input
	// order whatever order the runs end in.
	More []Slot
	// Grow, when set and More is empty, is asked once for up to n more
	// sandboxes when more than one mutant is left to run alone (after the
	// batches): they are made only when they can be used. Its error ends
	// the lab.
	Grow func(n int) ([]Slot, error)
	// Config is the vitest config file, relative to the workspace ("" = the
	// package's own).
	Config string
	// BaselineTimeout bounds each baseline run (default 5 minutes).
	BaselineTimeout time.Duration
	// Timeout of one mutant run; 0 derives it from the slowest baseline
	// (DerivedTimeout).
	Timeout time.Duration
	// Progress, when set, hears of every run before it starts, and of
	// every mutant a batch decided (progress.go).
	Progress func(Event)
	// Isolate runs every mutant alone (a vitest run per mutant and test
	// file); otherwise mutants run batched first (batch.go) and only what a
	// batch cannot establish runs alone.
	Isolate bool
	// MarkerPrefix makes the reached markers of this lab's mutants unique in
	// the sandbox (prove uses the operation's id).
	MarkerPrefix string
	// Coverage makes the baselines coverage runs (coverage.go): the code
	// under test carries a marker per mutant, and each mutant then runs only
	// against the test files that reached its code; a mutant none reached is
	// no-coverage without a run. Off (prove), every mutant runs against every
	// test file in order until one kills it.
	Coverage bool
	// Probes are functions whose entry the baselines record (Coverage
	// only): Result.Entered says which test files ran each.
	Probes []Probe
	// NoJoint runs every baseline in a vitest run of its own, even when
	// the runner can run several test files at once (runner.JointRunner).
	NoJoint bool
}

// Run is one run: a baseline or a mutant.
type Run struct {
	Test     string       // the test file (a mutant's: the one that decided its outcome)
	Mutant   *edit.Mutant // nil for a baseline
	Outcome  Outcome
	Detail   string // why: the failure, the load error, the time-out
	Duration time.Duration
	// Batched: the outcome comes from a batched run (Duration is the
	// variant's own time in it, as the harness measured it).
	Batched bool
	// HitLimit: a timeout because the variant ran past the hit limit in its
	// batch, and its run alone, without the counter, timed out too.
	HitLimit bool
	// CoveredBy are the test files whose coverage run reached the mutant
	// (Lab.Coverage; nil otherwise, or when its code could not be marked).
	CoveredBy []string
	// KilledBy is the full name (runner.Test.Name) of the test of Test
	// that killed the mutant: the first that failed in its body, or the
	// one that ran into vitest's time-out; "" when no single test did (a
	// hit limit, the run's own time-out) or the mutant was not killed.
	KilledBy string
	// Tests are a baseline's tests, as vitest reported them (names,
	// lines); nil for a mutant.
	Tests []runner.Test
	// NoTestRan: a baseline's test file loaded but executed no test (every
	// test skipped, or none): it runs none of the code under test.
	NoTestRan bool
	// NoReport: a baseline's vitest left no result for the file (it did
	// not start, or failed before any report: a config, a reporter, an
	// install): the run says nothing of the tests.
	NoReport bool
	// AloneWhy says why a mutant ran alone rather than being decided in a
	// batch (one of the Alone* reasons, alone.go); "" for a baseline, a
	// mutant a batch decided, and one no test file reached (no run).
	AloneWhy string
}

// Result is what a lab established, in input order.
type Result struct {
	Baselines []Run // one per test file
	// Mutants has one run per mutant when every baseline passed, else none.
	Mutants []Run
	// Entered has, per probe (Lab.Probes), the test files whose baseline
	// entered it, in the order of the tests; nil for a probe that could not
	// be marked.
	Entered [][]string
	// Idle are the test files whose baseline reached no marker, or executed
	// no test (with Probes only): they run none of the code under test,
	// whatever their outcome, and no mutant runs against them.
	Idle []string
	// Where the time went: the baselines (with coverage), the batched runs,
	// the mutants run alone; and how many ran alone.
	Baseline, Batches, Alone time.Duration
	RanAlone                 int
	// HitLimits counts the mutants that ran past the hit limit and timed
	// out alone (a timeout).
	HitLimits int
	// Slowest are the indexes in Mutants of the (at most) SlowestKept runs
	// that took longest, slowest first.
	Slowest []int
}

// SlowestKept is how many of the slowest mutant runs a Result keeps.
const SlowestKept = 5

// DerivedTimeout is the per-mutant time-out for a baseline that took d: a
// mutant that makes the code slower is not a time-out unless it takes three
// times as long, and never less than 10 s (vitest start-up varies with load).
func DerivedTimeout(d time.Duration) time.Duration {
	return max(3*d+5*time.Second, 10*time.Second)
}

// EnvError is a run that could not happen for a reason of the environment
// (vitest or node missing, the runner closed): no outcome, the whole lab
// stops.
type EnvError struct{ Err error }

func (e *EnvError) Error() string { return e.Err.Error() }
func (e *EnvError) Unwrap() error { return e.Err }

// Execute runs every test file on the unmodified code, then, when all of
// them passed, every mutant against the test files in order until one kills
// it. The runs done so far are returned with an error: ctx's when it was
// cancelled, an *EnvError when the environment failed, a plain error when
// the workspace could not be written.
func (l *Lab) Execute(ctx context.Context, tests []string, ms []edit.Mutant) (*Result, error) {
	return l.ExecuteFor(ctx, tests, ms, nil)
}

// ExecuteFor is Execute where mutant k may run only against the test files
// allowed[k] (a subset of tests, in tests' order; nil: all of them): one
// lab, one baseline per test file, for mutants of several functions with
// test files of their own (the gate).
func (l *Lab) ExecuteFor(ctx context.Context, tests []string, ms []edit.Mutant, allowed [][]string) (*Result, error) {
	if allowed != nil && len(allowed) != len(ms) {
		return nil, fmt.Errorf("lab: %d mutants, %d lists of test files", len(ms), len(allowed))
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("lab: no test file")
	}
	bt := l.BaselineTimeout
	if bt == 0 {
		bt = 5 * time.Minute
	}
	res := &Result{}
	phase := time.Now()
	slowest := time.Duration(0)
	green := true
	var cov *coverage
	if l.Coverage {
		var err error
		if cov, err = l.instrument(ms); err != nil {
			return res, err
		}
	}
	joint, err := l.jointBaselines(ctx, tests, bt, cov != nil)
	if err != nil {
		cov.restore(l.Files)
		return res, l.fail(ctx, err)
	}
	jointOnly := map[string]bool{} // green in the joint run, never run alone
	for _, t := range tests {
		l.progress(Event{Kind: BaselineRun, Test: t})
		r, ok := joint[t]
		jointOnly[t] = ok
		if o, _ := BaselineOutcome(r); !ok || o != Passed {
			jointOnly[t] = false
			// Not in the joint run, or red there (where another file's leftovers
			// may be the cause): its own run says.
			spec := l.spec(l.Root, t, bt, "")
			spec.Coverage = cov != nil
			if r, err = l.Runner.Run(ctx, spec); err != nil {
				cov.restore(l.Files)
				return res, l.fail(ctx, err)
			}
		}
		o, detail := BaselineOutcome(r)
		res.Baselines = append(res.Baselines, Run{Test: t, Outcome: o, Detail: detail, Duration: r.Duration, Tests: r.Tests, NoTestRan: noTestRan(r), NoReport: r.NoReport})
		slowest = max(slowest, r.Duration)
		green = green && o == Passed
		cov.record(t, r.Markers)
	}
	if err := cov.restore(l.Files); err != nil {
		return res, err
	}
	res.Entered = cov.entered(l, tests)
	if l.Probes != nil {
		// With probes every function under test carries a marker: a test
		// file whose baseline reached none runs none of it, and its outcome
		// (red, or no test executed) cannot matter.
		var used []string
		green = true
		for _, b := range res.Baselines {
			if len(cov.reached[b.Test]) == 0 || b.NoTestRan {
				res.Idle = append(res.Idle, b.Test)
				continue
			}
			used = append(used, b.Test)
			green = green && b.Outcome == Passed
		}
		tests = used
		if allowed != nil {
			allowed = slices.Clone(allowed)
			for k := range allowed {
				allowed[k] = slices.DeleteFunc(slices.Clone(allowed[k]), func(t string) bool { return slices.Contains(res.Idle, t) })
			}
		}
	}
	if !green {
		return res, ctx.Err()
	}
	timeout := l.Timeout
	if timeout == 0 {
		timeout = DerivedTimeout(slowest)
	}
	ids := make([]string, len(ms))
	for k := range ms {
		ids[k] = l.markerID(k)
	}
	// Which test files each mutant runs against, and the mutants no test
	// file reached (no-coverage, without a run).
	runsOf := make([][]string, len(ms))
	covered := make([]bool, len(ms)) // runsOf[k] are the test files whose coverage run reached k
	pre := make([]*Run, len(ms))
	for k := range ms {
		mine := tests
		if allowed != nil {
			mine = allowed[k]
		}
		runsOf[k] = mine
		if len(mine) == 0 {
			pre[k] = &Run{Mutant: &ms[k], Outcome: NoCoverage, Detail: "no test file to run it against", CoveredBy: []string{}}
			continue
		}
		if by, marked := cov.of(k, ids[k], mine); marked {
			runsOf[k], covered[k] = by, true
			if len(by) == 0 {
				pre[k] = &Run{Mutant: &ms[k], Outcome: NoCoverage, Detail: "no related test file reached it", CoveredBy: []string{}}
			}
		}
	}
	res.Baseline = time.Since(phase)
	phase = time.Now()
	hits := make([]string, len(ms)) // the hit limit that stopped mutant k in a batch
	why := make([]string, len(ms))  // why mutant k runs alone, when it does
	switch {
	case l.Isolate:
		fill(why, AloneIsolate)
	case len(ms) <= 1:
		fill(why, AloneSingle)
	}
	if !l.Isolate && len(ms) > 1 {
		baseline := map[string]time.Duration{}
		for _, b := range res.Baselines {
			baseline[b.Test] = b.Duration
		}
		batched, hit, whys, err := l.batch(ctx, tests, runsOf, covered, ms, ids, pre, timeout, baseline)
		if err != nil {
			return res, err
		}
		hits, why = hit, whys
		for k, r := range batched {
			if r != nil {
				pre[k] = r
				l.progress(Event{Kind: Batched, Mutant: ms[k].Name}) // counted as run
			}
		}
	}
	if l.Grow != nil && len(l.More) == 0 {
		left := 0
		for _, r := range pre {
			if r == nil {
				left++
			}
		}
		if left > 1 {
			more, err := l.Grow(left - 1)
			if err != nil {
				return res, err
			}
			l.More = more
		}
	}
	res.Batches = time.Since(phase)
	phase = time.Now()
	for k, r := range pre {
		if r == nil {
			res.RanAlone++
			if why[k] == "" {
				why[k] = AloneUndecided
			}
		}
	}
	if red, err := l.confirmAlone(ctx, res, runsOf, pre, jointOnly, bt); err != nil || red {
		return res, err
	}
	runs, err := l.spread(ctx, runsOf, ms, ids, pre, hits, timeout)
	res.Alone = time.Since(phase)
	for k := range runs {
		if covered[k] && runs[k].CoveredBy == nil {
			runs[k].CoveredBy = runsOf[k]
		}
		if pre[k] == nil {
			runs[k].AloneWhy = why[k]
		}
	}
	res.Mutants = runs
	res.HitLimits, res.Slowest = 0, slowestRuns(runs)
	for _, r := range runs {
		if r.HitLimit {
			res.HitLimits++
		}
	}
	return res, err
}

// slowestRuns are the indexes of the SlowestKept runs that took longest,
// slowest first (ties in input order).
func slowestRuns(runs []Run) []int {
	out := make([]int, len(runs))
	for k := range out {
		out[k] = k
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(runs[b].Duration, runs[a].Duration) })
	return out[:min(len(out), SlowestKept)]
}

// spread runs the mutants on one worker per slot (mutant k against the
// test files runsOf[k]), each taking the next
// mutant not yet taken. It returns the runs of the mutants in input order up
// to the first that did not complete, and that one's error. After an error
// no worker starts another mutant.
func (l *Lab) spread(ctx context.Context, runsOf [][]string, ms []edit.Mutant, ids []string, pre []*Run, hits []string, timeout time.Duration) ([]Run, error) {
	slots := append([]Slot{{Root: l.Root, Files: l.Files}}, l.More...)
	runs := make([]Run, len(ms))
	errs := make([]error, len(ms))
	done := make([]bool, len(ms))
	for k, r := range pre {
		if r != nil {
			runs[k], done[k] = *r, true
		}
	}
	var mu sync.Mutex
	next, failed := 0, false
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		for next < len(ms) && done[next] {
			next++
		}
		if failed || next == len(ms) || ctx.Err() != nil {
			return -1
		}
		next++
		l.progress(Event{Kind: Alone, Mutant: ms[next-1].Name}) // under mu: progress is heard one at a time
		return next - 1
	}
	var wg sync.WaitGroup
	for _, sl := range slots[:min(len(slots), max(len(ms), 1))] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := take(); k >= 0; k = take() {
				run, err := l.runMutant(ctx, sl, ids[k], &ms[k], runsOf[k], timeout, hits[k])
				mu.Lock()
				runs[k], errs[k], done[k] = run, err, err == nil
				failed = failed || err != nil
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for k := range ms {
		if errs[k] != nil {
			return runs[:k], errs[k]
		}
		if !done[k] {
			return runs[:k], ctx.Err()
		}
	}
	return runs, ctx.Err()
}

// runMutant writes m (with its reached marker where one can be placed),
// runs the test files until one kills it, and restores the file. A run
// that failed only by tests that never executed the mutated code is
// repeated once (SPEC "Runs and kills"); failing so again, it is an error
// naming that test. hit, when set, is the hit limit that stopped m in its
// batch: the run alone, without the counter and not repeated after a
// time-out, confirms it (a timeout) or not (its outcome stands).
func (l *Lab) runMutant(ctx context.Context, sl Slot, id string, m *edit.Mutant, tests []string, timeout time.Duration, hit string) (run Run, err error) {
	src, merr := edit.MarkReached(*m, runner.RanMarkerStatement(id))
	marked := merr == nil
	if !marked {
		src, id = m.Source, ""
	}
	if err := sl.Files.WriteFile(m.Path, src); err != nil {
		return Run{}, fmt.Errorf("sandbox: %w", err)
	}
	defer func() {
		if rerr := sl.Files.Restore(m.Path); rerr != nil && err == nil {
			err = fmt.Errorf("sandbox: %w", rerr)
		}
	}()
	var runs []Run
	for _, t := range tests {
		spec := l.aloneSpec(sl.Root, t, timeout, id, hit)
		r, err := l.Runner.Run(ctx, spec)
		if err != nil {
			return Run{}, l.fail(ctx, err)
		}
		j := judgeMutant(r, marked)
		took := r.Duration
		if j.other {
			if r, err = l.Runner.Run(ctx, spec); err != nil {
				return Run{}, l.fail(ctx, err)
			}
			took += r.Duration
			if j = judgeMutant(r, marked); j.other {
				j.detail = RepeatedFailure + j.detail
			}
		}
		run := Run{Test: t, Mutant: m, Outcome: j.outcome, Detail: j.detail, Duration: took}
		if j.outcome.Kills() {
			run.KilledBy = j.by
		}
		runs = append(runs, run)
		if j.outcome.Kills() {
			break
		}
	}
	out := Combine(runs)
	if hit != "" {
		switch out.Outcome {
		case Timeout:
			out.HitLimit = true
			out.Detail = hitLimitDetail(hit) + "; run alone without the counter, it timed out too: " + out.Detail
		case Survived:
			out.Detail = hitLimitDetail(hit) + " in its batch; run alone without the counter, it finished within the time limit and every test passed: no loop"
		}
	}
	return out, nil
}

// jointBaselines runs the baselines of tests in one vitest run when the
// runner can (runner.JointRunner) and there are several: the results it
// could attribute to a file, which stand for that file's own run when they
// pass (a run per file costs a vitest worker and the file's imports each
// time: most of a baseline's time on a suite of small files). A file
// missing from the result runs alone, as every file does without it.
func (l *Lab) jointBaselines(ctx context.Context, tests []string, bt time.Duration, coverage bool) (map[string]runner.Result, error) {
	jr, ok := l.Runner.(runner.JointRunner)
	if !ok || l.NoJoint || len(tests) < 2 {
		return nil, nil
	}
	spec := l.spec(l.Root, "", bt, "")
	spec.Coverage = coverage
	// Past the time-out of one baseline the run goes on while its tests
	// finish (one may be slow, many are many); one that stops is ended and
	// its files run alone.
	spec.Stall, spec.Once = bt, true
	return jr.RunJoint(ctx, spec, tests)
}

// confirmAlone runs alone, once, each test file that mutants are about to
// run alone against and whose baseline was green only in the joint run: in
// a shared worker another file's leftovers (a global it set) may have made
// it pass, and alone a red file would kill every mutant. A file red alone
// replaces its baseline in res, and red says so: no mutant runs then, as
// with any red baseline.
func (l *Lab) confirmAlone(ctx context.Context, res *Result, runsOf [][]string, pre []*Run, jointOnly map[string]bool, bt time.Duration) (red bool, err error) {
	for k, r := range pre {
		if r != nil {
			continue
		}
		for _, t := range runsOf[k] {
			if !jointOnly[t] {
				continue
			}
			jointOnly[t] = false
			r, err := l.Runner.Run(ctx, l.spec(l.Root, t, bt, ""))
			if err != nil {
				return false, l.fail(ctx, err)
			}
			if o, detail := BaselineOutcome(r); o != Passed {
				for i := range res.Baselines {
					if res.Baselines[i].Test == t {
						res.Baselines[i] = Run{Test: t, Outcome: o, Duration: r.Duration, Tests: r.Tests, NoTestRan: noTestRan(r), NoReport: r.NoReport,
							Detail: "green only with other test files in its vitest worker; alone: " + detail}
					}
				}
				red = true
			}
		}
	}
	return red, ctx.Err()
}

// aloneSpec is the run of a mutant alone against test: within timeout, and
// past it while the run progresses (its tests keep finishing: a hanging
// test ends at vitest's own time-out, a kill), ended once it has made no
// progress for as long again. A run of a big test file that a loaded
// machine made slower than its baseline (vercel/ai's stream-text.test.ts:
// 25 tests failing, 77 s against a limit of 68 s, twice) is judged on its
// report, not called a timeout. hit, the hit limit that stopped the mutant
// in its batch: the run confirms it once, not re-run after a time-out.
func (l *Lab) aloneSpec(root, test string, timeout time.Duration, marker, hit string) runner.Spec {
	spec := l.spec(root, test, timeout, marker)
	spec.Stall = timeout
	spec.Once = hit != ""
	return spec
}

func (l *Lab) spec(root, test string, timeout time.Duration, marker string) runner.Spec {
	return runner.Spec{Dir: root, TestFile: test, Timeout: timeout, ReachedMarker: marker, Config: l.Config}
}

func (l *Lab) progress(e Event) {
	if l.Progress != nil {
		l.Progress(e)
	}
}

// fail is the error of a run the runner could not make.
func (l *Lab) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &EnvError{Err: err}
}
