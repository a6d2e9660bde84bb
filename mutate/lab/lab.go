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
	"strconv"
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
	// BaselineBound, when set, replaces BaselineTimeout: each test file's
	// baseline run is bounded by it, given the times of the other files'
	// baselines that finished before it (empty, not nil, when none did; nil
	// for the joint run of them all), and a run past the bound is final (not run
	// again); the first baseline past it ends the baselines, and no mutant
	// runs (bound.go). The gate's "bound derived from the others".
	BaselineBound func(others []time.Duration) time.Duration
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
	// only): Result.EnteredBy says which test files ran each.
	Probes []Probe
	// Factories are the vi.mock factories of the test and setup files, by
	// file (byte ranges): Measure's entry markers record nothing while one
	// runs (the factory is the test's scaffolding, not the test).
	Factories map[string][][2]uint
	// NoJoint runs every baseline in a vitest run of its own, even when
	// the runner can run several test files at once (runner.JointRunner).
	NoJoint bool
	// Aside are tests every run leaves out, by test file (full names, as
	// runner.Test.Name): they fail the same way at the base revision
	// (aside.go).
	Aside map[string][]string
	// PlanOnly stops ExecuteJobs once its plan is made (Result.Plan): the
	// baselines run, no mutant does (oracle gate --dry-run).
	PlanOnly bool
	// inPlace are the test files whose batch harness takes the file's own
	// place (batchWave): beside it, vitest ran no test.
	inPlace map[string]bool
	// refused are the batches the last ExecuteJobs did not trust
	// (Result.Refused).
	refused []Refusal
	// origTests are the tests of each test file's baseline, as the last
	// ExecuteJobs ran them (their times: slow.go's confirmLimit).
	origTests map[string][]runner.Test
	// alone: every mutant of the last ExecuteJobs runs alone, as Isolate
	// has it, or because the runner's runs cannot hold a batch
	// (runner.CanBatch); aloneWhy says which (an Alone* reason).
	alone    bool
	aloneWhy string
	// own is the runner as the lab was given it (Runner may be wrapped
	// while ExecuteJobs runs: withAside): what it asks of the runner's
	// capabilities (runner.PrepareMutant) it asks of own.
	own runner.Runner
	// originals are the original code's hits counted per test file
	// (originalHits), measured once in an ExecuteJobs for all the mutants
	// of a file the counter stopped alone.
	originals *originalCounts
}

// Run is one run: a baseline or a mutant.
type Run struct {
	Key      string       // a mutant's: its job's key (Job.Key)
	Test     string       // the test file (a mutant's: the one that decided its outcome)
	Mutant   *edit.Mutant // nil for a baseline
	Outcome  Outcome
	Detail   string // why: the failure, the load error, the time-out
	Duration time.Duration
	// Batched: the outcome comes from a batched run (Duration is the
	// variant's own time in it, as the harness measured it).
	Batched bool
	// HitLimit: a timeout because the variant ran past the hit limit in its
	// batch, and again past the limit raised (again.go), or a run alone
	// that the counter stopped (count.go; or, where no counter could be
	// placed, that timed out after a batch's stop).
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
	// Bound is the time a baseline's run was bounded by (Lab.BaselineBound,
	// else BaselineTimeout); 0 for a mutant.
	Bound time.Duration
	// AloneWhy says why a mutant ran alone rather than being decided in a
	// batch (one of the Alone* reasons, alone.go); "" for a baseline, a
	// mutant a batch decided, and one no test file reached (no run).
	AloneWhy string
}

// Result is what a lab established, in input order.
type Result struct {
	Baselines []Run // one per test file
	// Mutants answers each job, in the jobs' order, with one run carrying
	// its key, when every baseline passed; else none.
	Mutants []Run
	// entered has, by probe (Lab.Probes), the test files whose baseline
	// entered it (EnteredBy).
	entered map[Probe][]string
	// Idle are the test files whose baseline reached no marker, or executed
	// no test (with Probes only): they run none of the code under test,
	// whatever their outcome, and no mutant runs against them.
	Idle []string
	// Phases say where the time went (phases.go).
	Phases
	// Slowest are the keys of the (at most) SlowestKept runs of Mutants
	// that took longest, slowest first.
	Slowest []string
	// Refused are the batches whose results were not used, and what each
	// run said, in the order they ran (a joint run refused is run again on
	// its own: that run's word is kept).
	Refused []Refusal
	// Plan is what the lab planned for the mutants once the baselines
	// passed (plan.go), with Lab.PlanOnly; nil otherwise.
	Plan *Plan
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

// Job is one mutant for the lab to run (cargo-mutants' Scenario): the
// mutant, the test files it may run against, and the caller's key, which
// the job's result (a Run) carries back.
type Job struct {
	Key    string
	Mutant edit.Mutant
	// Tests are the test files it may run against (of the lab's, in their
	// order); nil: every one of them.
	Tests []string
}

// Execute runs every test file on the unmodified code, then, when all of
// them passed, every mutant against the test files in order until one kills
// it. The runs done so far are returned with an error: ctx's when it was
// cancelled, an *EnvError when the environment failed, a plain error when
// the workspace could not be written. Mutant k's job key is k in decimal.
func (l *Lab) Execute(ctx context.Context, tests []string, ms []edit.Mutant) (*Result, error) {
	jobs := make([]Job, 0, len(ms))
	for k, m := range ms {
		jobs = append(jobs, Job{Key: strconv.Itoa(k), Mutant: m})
	}
	return l.ExecuteJobs(ctx, tests, jobs)
}

// ExecuteJobs is Execute over jobs, each of which may run only against the
// test files it names: one lab, one baseline per test file, for mutants of
// several functions with test files of their own (the gate). Result.Mutants
// answers each job with one run carrying its key, in the jobs' order.
func (l *Lab) ExecuteJobs(ctx context.Context, tests []string, jobs []Job) (*Result, error) {
	if len(tests) == 0 {
		return nil, fmt.Errorf("lab: no test file")
	}
	l.own = l.Runner
	l.originals = &originalCounts{m: map[string]int64{}}
	l.alone, l.aloneWhy = l.Isolate, AloneIsolate
	if !l.Isolate && !runner.CanBatch(l.Runner) {
		l.alone, l.aloneWhy = true, AloneRunner
	}
	if len(l.Aside) > 0 {
		r := l.Runner
		l.Runner = withAside(r, l.Aside)
		defer func() { l.Runner = r }()
	}
	bt := l.BaselineTimeout
	if bt == 0 {
		bt = 5 * time.Minute
	}
	if l.BaselineBound != nil {
		bt = l.BaselineBound(nil)
	}
	res := &Result{}
	l.refused = nil
	defer func() { res.Refused = l.refused }()
	phase := time.Now()
	tasks := newTasks(l, jobs)
	var cov *coverage
	if l.Coverage {
		var err error
		if cov, err = l.instrument(tasks, probeMarker); err != nil {
			return res, err
		}
	}
	base, err := l.baselines(ctx, res, tests, cov, bt)
	res.Baseline = time.Since(phase) // a red or stopped baseline phase is timed too
	if err != nil {
		return res, err
	}
	if !base.green {
		return res, ctx.Err()
	}
	timeout := l.Timeout
	if timeout == 0 {
		timeout = DerivedTimeout(base.slowest)
	}
	l.origTests = map[string][]runner.Test{}
	for _, b := range res.Baselines {
		l.origTests[b.Test] = b.Tests
	}
	phase = time.Now()
	assign(tasks, base.used, res.Idle, cov)
	if l.PlanOnly {
		res.Plan = l.plan(tasks, base.used, timeout)
		return res, ctx.Err()
	}
	if err := l.batchAll(ctx, tasks, base.used, res.Baselines, timeout); err != nil {
		return res, err
	}
	if err := l.grow(tasks); err != nil {
		return res, err
	}
	res.Batches = time.Since(phase)
	phase = time.Now()
	for _, t := range tasks {
		if t.run == nil {
			res.RanAlone++
			t.why = cmp.Or(t.why, AloneUndecided)
		}
	}
	if red, err := l.confirmAlone(ctx, res, tasks, base.jointOnly, bt); err != nil || red {
		return res, err
	}
	err = l.spread(ctx, tasks, timeout)
	res.Alone = time.Since(phase)
	res.answer(tasks)
	return res, err
}

// task is one job on its way through the lab: the one record of its
// mutant from the coverage runs to its result.
type task struct {
	job Job
	n   int    // its place among the lab's jobs: its switch in a schema is n+1
	id  string // its markers' id
	// tests are the test files it runs against: its job's (or all), those
	// whose coverage run reached it when covered.
	tests   []string
	marked  bool // its code carries a coverage marker (coverage.go)
	covered bool
	run     *Run   // its outcome, once known (no test reached it, a batch, its runs alone)
	told    bool   // Progress heard of its batch's decision
	hit     string // the hit limit that stopped it in a batch
	why     string // why it runs alone, when it does (an Alone* reason)
	passed  int    // the clean batches it passed every test of
	// whole: its kill came under a test selection that left out a test
	// before the killing one; suspect: its batch's hit limit stopped it.
	// Either runs again in a batch of that test file (again.go).
	whole, suspect bool
	// finished is the hit limit that stopped it in a batch, when it then
	// finished under the limit raised (again.go).
	finished string
}

func newTasks(l *Lab, jobs []Job) []*task {
	tasks := make([]*task, 0, len(jobs))
	for k, j := range jobs {
		tasks = append(tasks, &task{job: j, n: k, id: l.markerID(k)})
	}
	switch {
	case l.alone:
		for _, t := range tasks {
			t.why = l.aloneWhy
		}
	case len(tasks) <= 1:
		for _, t := range tasks {
			t.why = AloneSingle
		}
	}
	return tasks
}

// result is the task's answer to its job: its run, with the job's key.
func (t *task) result() Run {
	r := *t.run
	r.Key = t.job.Key
	if t.finished != "" && r.Detail == "" && (r.Outcome == Survived || r.Outcome == NoCoverage) {
		r.Detail = hitFinishedDetail(t.finished)
	}
	if t.covered && r.CoveredBy == nil {
		r.CoveredBy = t.tests
	}
	return r
}

// baselined is what the baselines established: the test files mutants may
// run against (every one, or with probes those that ran some of the code
// under test), whether they all passed, the slowest, and the files green
// only in the joint run.
type baselined struct {
	used      []string
	green     bool
	slowest   time.Duration
	jointOnly map[string]bool
}

// baselines runs every test file on the unmodified code (the coverage runs
// when cov is set), in res.Baselines, and with probes res.entered and
// res.Idle.
func (l *Lab) baselines(ctx context.Context, res *Result, tests []string, cov *coverage, bt time.Duration) (baselined, error) {
	b := baselined{used: tests, green: true, jointOnly: map[string]bool{}}
	joint, err := l.jointBaselines(ctx, tests, bt, cov != nil)
	if err != nil {
		cov.restore(l.Files)
		return b, l.fail(ctx, err)
	}
	hung := false
	for _, t := range tests {
		l.progress(Event{Kind: BaselineRun, Test: t})
		bound := bt
		r, ok := joint[t]
		b.jointOnly[t] = ok
		if o, _ := BaselineOutcome(r); !ok || o != Passed {
			b.jointOnly[t] = false
			// Not in the joint run, or red there (where another file's leftovers
			// may be the cause): its own run says.
			spec := l.spec(l.Root, t, l.boundOf(t, bt, joint, res.Baselines), "")
			spec.Coverage, spec.Once = cov != nil, l.BaselineBound != nil
			bound = spec.Timeout
			if r, err = l.Runner.Run(ctx, spec); err != nil {
				cov.restore(l.Files)
				return b, l.fail(ctx, err)
			}
			if r, err = l.confirmSlowBaseline(ctx, spec, r); err != nil {
				cov.restore(l.Files)
				return b, err
			}
		}
		o, detail := BaselineOutcome(r)
		res.Baselines = append(res.Baselines, Run{Test: t, Outcome: o, Detail: detail, Duration: r.Duration, Tests: r.Tests, NoTestRan: noTestRan(r), NoReport: r.NoReport, Bound: bound})
		b.slowest = max(b.slowest, r.Duration)
		b.green = b.green && o == Passed
		cov.record(t, r.Markers)
		if hung = o == Timeout && l.BaselineBound != nil; hung {
			break // past its bound: the verdict cannot rest on the baselines (bound.go)
		}
	}
	if err := cov.restore(l.Files); err != nil {
		return b, err
	}
	res.entered = cov.entered(tests)
	if hung {
		b.green = false // no mutant runs: the verdict cannot rest on the baselines
		return b, ctx.Err()
	}
	if l.Probes != nil {
		// With probes every function under test carries a marker: a test
		// file whose baseline reached none runs none of it, and its outcome
		// (red, or no test executed) cannot matter.
		b.used, b.green = nil, true
		for _, r := range res.Baselines {
			if len(cov.reached[r.Test]) == 0 || r.NoTestRan {
				res.Idle = append(res.Idle, r.Test)
				continue
			}
			b.used = append(b.used, r.Test)
			b.green = b.green && r.Outcome == Passed
		}
	}
	return b, nil
}

// assign gives each task the test files it runs against (its job's, but
// the idle ones; all of used for a job that names none), those whose
// coverage run reached it when it carries a marker, and decides the
// tasks no test file reached (no-coverage, without a run).
func assign(tasks []*task, used, idle []string, cov *coverage) {
	for _, t := range tasks {
		mine := used
		if t.job.Tests != nil {
			mine = make([]string, 0, len(t.job.Tests))
			for _, f := range t.job.Tests {
				if !slices.Contains(idle, f) {
					mine = append(mine, f)
				}
			}
		}
		t.tests = mine
		if len(mine) == 0 {
			t.run = &Run{Mutant: &t.job.Mutant, Outcome: NoCoverage, Detail: "no test file to run it against", CoveredBy: []string{}}
			continue
		}
		if by, marked := cov.of(t, mine); marked {
			t.tests, t.covered = by, true
			if len(by) == 0 {
				t.run = &Run{Mutant: &t.job.Mutant, Outcome: NoCoverage, Detail: "no related test file reached it", CoveredBy: []string{}}
			}
		}
	}
}

// batchAll decides in batches what they can establish (not with Isolate,
// nor on a runner that cannot batch, nor for a single mutant), telling Progress of each mutant a batch
// decided.
func (l *Lab) batchAll(ctx context.Context, tasks []*task, tests []string, baselines []Run, timeout time.Duration) error {
	if l.alone || len(tasks) <= 1 {
		return nil
	}
	baseline := map[string]time.Duration{}
	for _, b := range baselines {
		baseline[b.Test] = b.Duration
	}
	for _, group := range schemaGroups(l.Root, tasks) {
		if err := l.batch(ctx, tests, group, timeout, baseline); err != nil {
			return err
		}
	}
	for _, t := range tasks {
		if t.run != nil && t.run.Batched && !t.told {
			t.told = true
			l.progress(Event{Kind: Batched, Mutant: t.job.Mutant.Name}) // counted as run
		}
	}
	return nil
}

// grow asks Lab.Grow, once, for a sandbox per mutant left to run alone
// but the first (when more than one is).
func (l *Lab) grow(tasks []*task) error {
	if l.Grow == nil || len(l.More) != 0 {
		return nil
	}
	left := 0
	for _, t := range tasks {
		if t.run == nil {
			left++
		}
	}
	if left <= 1 {
		return nil
	}
	more, err := l.Grow(left - 1)
	if err != nil {
		return err
	}
	l.More = more
	return nil
}

// answer fills res.Mutants with the tasks' results, in order, up to the
// first that has none (its run failed, or was cancelled), and the counts
// over them.
func (res *Result) answer(tasks []*task) {
	res.Mutants = nil
	for _, t := range tasks {
		if t.run == nil {
			break
		}
		res.Mutants = append(res.Mutants, t.result())
	}
	res.HitLimits, res.Slowest = 0, slowestRuns(res.Mutants)
	for _, r := range res.Mutants {
		if r.HitLimit {
			res.HitLimits++
		}
	}
}

// Mutant is the run that answered the job of key (nil: none did).
func (res *Result) Mutant(key string) *Run {
	for i := range res.Mutants {
		if res.Mutants[i].Key == key {
			return &res.Mutants[i]
		}
	}
	return nil
}

// EnteredBy lists the test files whose baseline entered probe p, in the
// order of the tests; nil when p could not be marked (or is not one of the
// lab's probes).
func (res *Result) EnteredBy(p Probe) []string { return res.entered[p] }

// slowestRuns are the keys of the SlowestKept runs that took longest,
// slowest first (ties in input order).
func slowestRuns(runs []Run) []string {
	order := slices.Clone(runs)
	slices.SortStableFunc(order, func(a, b Run) int { return cmp.Compare(b.Duration, a.Duration) })
	var out []string
	for _, r := range order[:min(len(order), SlowestKept)] {
		out = append(out, r.Key)
	}
	return out
}

// spread runs the tasks left (no run yet) on one worker per slot, each
// taking the next task not yet taken, and sets their runs. Its error is
// the first task's (in order) whose run did not complete, or ctx's. After
// an error no worker starts another mutant.
func (l *Lab) spread(ctx context.Context, tasks []*task, timeout time.Duration) error {
	var todo []*task
	for _, t := range tasks {
		if t.run == nil {
			todo = append(todo, t)
		}
	}
	errs := map[*task]error{}
	var mu sync.Mutex
	failed := false
	l.onSlots(len(todo), func(i int) bool {
		mu.Lock()
		defer mu.Unlock()
		if failed || ctx.Err() != nil {
			return false
		}
		l.progress(Event{Kind: Alone, Mutant: todo[i].job.Mutant.Name}) // one at a time: progress is heard so
		return true
	}, func(sl Slot, i int) {
		t := todo[i]
		run, err := l.runMutant(ctx, sl, t.id, &t.job.Mutant, t.tests, timeout, t.hit, t.why)
		run.AloneWhy = t.why
		mu.Lock()
		if err == nil {
			t.run = &run
		}
		errs[t] = err
		failed = failed || err != nil
		mu.Unlock()
	})
	for _, t := range tasks {
		if errs[t] != nil {
			return errs[t]
		}
		if t.run == nil {
			return ctx.Err()
		}
	}
	return ctx.Err()
}

// onSlots calls do(sl, i) for every i in [0, n) that start(i) lets begin:
// one worker per sandbox (l's own and l.More, at most n), each taking the
// next i when its last is done. start is called one i at a time, in order;
// once it says false no i begins, and onSlots returns when the begun ones
// are done.
func (l *Lab) onSlots(n int, start func(i int) bool, do func(sl Slot, i int)) {
	slots := append([]Slot{{Root: l.Root, Files: l.Files}}, l.More...)
	var mu sync.Mutex
	next, stopped := 0, false
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopped || next == n || !start(next) {
			stopped = true
			return 0, false
		}
		next++
		return next - 1, true
	}
	var wg sync.WaitGroup
	for _, sl := range slots[:min(len(slots), n)] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ok := take(); ok; i, ok = take() {
				do(sl, i)
			}
		}()
	}
	wg.Wait()
}

// runMutant writes m (with its reached marker where one can be placed, and
// its hits counted: count.go), runs the test files until one kills it, and
// restores the file. A run
// that failed only by tests that never executed the mutated code is
// repeated once (SPEC "Runs and kills"); failing so again, it is an error
// naming that test. hit, when set, is the hit limit that stopped m in its
// batch: the run alone, counted (or, without a counter, not repeated after
// a time-out), confirms it (a timeout) or not (its outcome stands). why is why
// it runs alone: a survivor of its batch, or a mutant of many test files,
// first runs against them all at once (jointPasses).
func (l *Lab) runMutant(ctx context.Context, sl Slot, id string, m *edit.Mutant, tests []string, timeout time.Duration, hit, why string) (run Run, err error) {
	limit := aloneLimit()
	src, marked, counted := aloneSource(m, id, limit)
	if !marked {
		id = ""
	}
	src = l.prepared(m.Path, src)
	if err := sl.Files.WriteFile(m.Path, src); err != nil {
		return Run{}, fmt.Errorf("sandbox: %w", err)
	}
	defer func() {
		if rerr := sl.Files.Restore(m.Path); rerr != nil && err == nil {
			err = fmt.Errorf("sandbox: %w", rerr)
		}
	}()
	var runs []Run
	if hit == "" && len(tests) >= 2 && (why == AloneSurvivor || len(tests) >= JointMutantFiles) {
		passed, err := l.jointPasses(ctx, sl, m, tests, timeout, id)
		if err != nil {
			return Run{}, err
		}
		if len(passed) < len(tests) {
			if err := sl.Files.WriteFile(m.Path, src); err != nil { // the version with the alone runs' markers
				return Run{}, fmt.Errorf("sandbox: %w", err)
			}
		}
		var rest []string
		for _, t := range tests {
			if r, ok := passed[t]; ok {
				r.Mutant = m
				runs = append(runs, r)
			} else {
				rest = append(rest, t)
			}
		}
		tests = rest
	}
	for _, t := range tests {
		spec := l.aloneSpec(sl.Root, t, timeout, id, hit)
		r, err := l.Runner.Run(ctx, spec)
		if err != nil {
			return Run{}, l.fail(ctx, err)
		}
		j := judgeAlone(r, marked, id)
		took := r.Duration
		if r.HitLimit > 0 && counted {
			if j, err = l.confirmCount(ctx, sl, m, spec, r.HitLimit, &took); err != nil {
				return Run{}, err
			}
			if err := sl.Files.WriteFile(m.Path, src); err != nil { // the confirmation wrote other code
				return Run{}, fmt.Errorf("sandbox: %w", err)
			}
		} else if j.other {
			if r, err = l.Runner.Run(ctx, spec); err != nil {
				return Run{}, l.fail(ctx, err)
			}
			took += r.Duration
			if j = judgeAlone(r, marked, id); j.other {
				j.detail = RepeatedFailure + j.detail
			}
		}
		if j, err = l.confirmSlow(ctx, spec, j, marked, &took); err != nil {
			return Run{}, err
		}
		if j, err = l.confirmLoadKill(ctx, sl, m.Path, src, spec, r, j, marked, &took); err != nil {
			return Run{}, err
		}
		run := Run{Test: t, Mutant: m, Outcome: j.outcome, Detail: j.detail, Duration: took, HitLimit: j.hit}
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
		switch {
		case out.Outcome == Timeout && out.HitLimit:
			out.Detail = hitLimitDetail(hit) + " in its batch; run alone, " + out.Detail
		case out.Outcome == Timeout:
			out.HitLimit = true
			out.Detail = hitLimitDetail(hit) + "; run alone without the counter, it timed out too: " + out.Detail
		case out.Outcome == Survived && counted:
			out.Detail = fmt.Sprintf("%s in its batch; run alone with its hits counted (a limit of at least %d), it finished and every test passed: no loop", hitLimitDetail(hit), limit)
		case out.Outcome == Survived:
			out.Detail = hitLimitDetail(hit) + " in its batch; run alone without the counter, it finished within the time limit and every test passed: no loop"
		}
	}
	return out, nil
}

// JointMutantFiles is the number of test files from which a mutant run
// alone first runs against them all at once (jointPasses), whatever it is
// expected to do: a module's top-level code that 181 of vuejs/core's test
// files load took 8 minutes of runs one file at a time.
const JointMutantFiles = 8

// jointPasses runs mutant m against tests in one vitest run when the runner
// can, written in sl with a marker id that names the test file (the alone
// runs' marker names tests, which a run of several files cannot attribute;
// id "": unmarked): the files whose part of it passed (survived, or never
// reached the mutated code), which stand for their own runs as a file's
// part of the baselines' joint run stands for its baseline (confirmAlone
// ran alone, before any mutant, each file green only there). Every other
// part (a failure, a time-out, a file the run did not attribute) is left to
// the file's own run: a kill only ever comes from a file's own run, as
// before (SPEC "Runs and kills").
func (l *Lab) jointPasses(ctx context.Context, sl Slot, m *edit.Mutant, tests []string, timeout time.Duration, id string) (map[string]Run, error) {
	jr, ok := l.Runner.(runner.JointRunner)
	if !ok || l.NoJoint {
		return nil, nil
	}
	var src []byte
	marked := false
	if id != "" {
		// Counted as a run alone is (count.go): a loop stops in its test,
		// whose file is then left to its own run, not the joint run's clock.
		if s, _, err := edit.MarkCounted(*m, runner.FileMarkerStatement(id), hitCounter(id, aloneLimit(), 0)); err == nil {
			src, marked = s, true
		}
	}
	if !marked {
		src, id = m.Source(), ""
	}
	if err := sl.Files.WriteFile(m.Path, l.prepared(m.Path, src)); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	spec := l.aloneSpec(sl.Root, "", timeout, id, "")
	spec.Once = true
	out, err := jr.RunJoint(ctx, spec, tests)
	if err != nil {
		return nil, l.fail(ctx, err)
	}
	passed := map[string]Run{}
	for t, r := range out {
		if j := judgeAlone(r, marked, id); j.outcome == Survived || j.outcome == NoCoverage {
			passed[t] = Run{Test: t, Outcome: j.outcome, Detail: j.detail, Duration: r.Duration}
		}
	}
	return passed, ctx.Err()
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
// with any red baseline. The files run at the same time, one per sandbox
// (vercel/ai c6d57f3902: one mutant's 9 files, one after the other, were
// 25 s of a 66-s alone phase).
func (l *Lab) confirmAlone(ctx context.Context, res *Result, tasks []*task, jointOnly map[string]bool, bt time.Duration) (red bool, err error) {
	type confirm struct {
		file string
		r    runner.Result
		err  error
	}
	var todo []*confirm
	for _, tk := range tasks {
		if tk.run != nil {
			continue
		}
		for _, t := range tk.tests {
			if jointOnly[t] {
				jointOnly[t] = false
				todo = append(todo, &confirm{file: t})
			}
		}
	}
	l.onSlots(len(todo), func(int) bool { return ctx.Err() == nil }, func(sl Slot, i int) {
		c := todo[i]
		c.r, c.err = l.Runner.Run(ctx, l.spec(sl.Root, c.file, bt, ""))
	})
	for _, c := range todo {
		if c.err != nil {
			return false, l.fail(ctx, c.err)
		}
		if o, detail := BaselineOutcome(c.r); o != Passed {
			for j := range res.Baselines {
				if res.Baselines[j].Test == c.file {
					res.Baselines[j] = Run{Test: c.file, Outcome: o, Duration: c.r.Duration, Tests: c.r.Tests, NoTestRan: noTestRan(c.r), NoReport: c.r.NoReport,
						Detail: "green only with other test files in its vitest worker; alone: " + detail}
				}
			}
			red = true
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

// prepared is src, a mutant of the file at path, as the lab's runner runs it
// (runner.PrepareMutant).
func (l *Lab) prepared(path string, src []byte) []byte {
	r := l.own
	if r == nil {
		r = l.Runner
	}
	return runner.PrepareMutant(r, path, src)
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
