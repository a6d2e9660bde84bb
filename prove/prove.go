package prove

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// Options tune a prove run.
type Options struct {
	// Timeout of one mutant run; 0 derives it from the baseline run
	// (DerivedTimeout).
	Timeout time.Duration
	// BaselineTimeout bounds the baseline run (default 5 minutes).
	BaselineTimeout time.Duration
	// Progress, when set, hears of every run before it starts (Done and
	// Total count runs, Op is the operation's id).
	Progress func(lab.Event)
	// Runner runs the oracle; nil means a new vitest process per run (closed
	// when Prove returns; a given runner is the caller's to close). A runner
	// with a CloseDir(dir) method (runner.LongLivedRunner) is told when a
	// sandbox goes away.
	Runner runner.Runner
	// TempDir holds the sandbox ("" = the system's).
	TempDir string
	// Concurrency is how many mutants run at once, each in a sandbox of its
	// own (0 or 1: one at a time). The runner must serve concurrent runs
	// in different directories (both runners do; a LongLivedRunner keeps
	// at most MaxProcesses idle processes).
	Concurrency int
	// Isolate runs every mutant alone; otherwise they run batched first
	// (mutate/lab, batch.go) and alone only where a batch cannot decide.
	Isolate bool
}

// Timings says where the time of a prove went.
type Timings struct {
	Sandbox     time.Duration // copying the repository into the sandbox(es)
	Total       time.Duration // the whole Prove, loading excluded
	Concurrency int           // mutants run at once
	// The lab's phases, summed over the operations: the baselines, the
	// batched runs, the mutants run alone (RanAlone of them), the mutants
	// that ran past the hit limit (timeouts).
	lab.Phases
	Slowest []SlowRun // the slowest mutant runs, slowest first (lab.SlowestKept)
	// Refused are the batches whose results were not used (their mutants
	// ran alone), by operation: why, and what the run said.
	Refused []RefusedBatch
}

// RefusedBatch is a batch of an operation's mutants whose results were not
// used.
type RefusedBatch struct {
	Operation string `json:"operation"`
	lab.Refusal
}

// SlowRun is one of the slowest mutant runs.
type SlowRun struct {
	Operation string        // the operation's id
	Mutant    string        // the mutant's name (its id)
	Outcome   lab.Outcome   // what it came to
	Batched   bool          // its time is its variant's in a batch
	Duration  time.Duration // its time
}

// addLab adds an operation's lab phases to t.
func (t *Timings) addLab(op string, r *lab.Result) {
	t.Phases.Add(r.Phases)
	for _, f := range r.Refused {
		t.Refused = append(t.Refused, RefusedBatch{Operation: op, Refusal: f})
	}
	for _, k := range r.Slowest {
		run := r.Mutant(k)
		t.Slowest = append(t.Slowest, SlowRun{Operation: op, Mutant: run.Mutant.Name, Outcome: run.Outcome, Batched: run.Batched, Duration: run.Duration})
	}
	slices.SortStableFunc(t.Slowest, func(a, b SlowRun) int { return cmp.Compare(b.Duration, a.Duration) })
	t.Slowest = t.Slowest[:min(len(t.Slowest), lab.SlowestKept)]
}

// DerivedTimeout is the per-mutant time-out for a baseline that took d
// (lab.DerivedTimeout).
func DerivedTimeout(d time.Duration) time.Duration { return lab.DerivedTimeout(d) }

// OpResult is the proof of one operation.
type OpResult struct {
	ID          string
	Function    string
	Oracle      string // the oracle's repo-relative path
	Verdict     Verdict
	Attribution Attribution
	Reason      string
	Stale       string // non-empty: the committed oracle differs from what gen writes now, and how
	Runs        []Run

	source string // the function's file, as proved
	file   string
}

// Result is the proof of a ticket.
type Result struct {
	Verdict    Verdict
	Operations []*OpResult
	Timings    Timings
}

// DropTimings clears every run's seconds: this run's measures, which a
// document of the same inputs leaves out unless asked (--timings).
func (r *Result) DropTimings() {
	for _, op := range r.Operations {
		for i := range op.Runs {
			op.Runs[i].Seconds = 0
		}
	}
}

// ReportOperations is what MutationReport needs of the result.
func (r *Result) ReportOperations() []ReportOperation {
	var out []ReportOperation
	for _, op := range r.Operations {
		if op.file != "" {
			out = append(out, ReportOperation{ID: op.ID, File: op.file, Source: op.source, Oracle: op.Oracle, Runs: op.Runs})
		}
	}
	return out
}

// Job is one operation to prove, as the caller built it from gen's plan:
// the oracle gen writes now and the mutants of the function it guards. A
// job whose Skip, NoOracle or MutantsErr is set does not run: it is judged
// as it is.
type Job struct {
	ID       string
	Function string // <file>#<name>
	Oracle   string // the oracle's repo-relative path
	Content  []byte // the oracle as gen writes it now (proved in place of the committed one)
	// Skip: gen skipped the operation, and why (SKIP).
	Skip string
	// NoOracle: no oracle can be generated, and why (FAIL [oracle]).
	NoOracle string
	// File and Source are the function's file (repo-relative) and its
	// contents, as proved; Mutants are red-first and the operation's
	// mutants of it, or MutantsErr why they cannot be built (ERROR
	// [generator]).
	File       string
	Source     []byte
	Mutants    []edit.Mutant
	MutantsErr error
}

// Prove runs, in a sandbox copy of the repository at root, each job's
// oracle against the code as it is (baseline), against red-first, and
// against every mutant, and judges each operation. The repository is never
// written.
func Prove(ctx context.Context, root string, jobs []Job, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Runner == nil {
		r := runner.New()
		defer r.Close()
		opts.Runner = r
	}
	if opts.BaselineTimeout == 0 {
		opts.BaselineTimeout = 5 * time.Minute
	}
	res := &Result{}
	type run struct {
		op  *OpResult
		job *Job
	}
	var runs []run
	total := 0
	for i := range jobs {
		j := &jobs[i]
		op := &OpResult{ID: j.ID, Function: j.Function, Oracle: j.Oracle}
		res.Operations = append(res.Operations, op)
		switch {
		case j.Skip != "":
			op.Verdict, op.Reason = SKIP, j.Skip
			continue
		case j.NoOracle != "":
			op.Verdict, op.Attribution, op.Reason = FAIL, Oracle, "no oracle can be generated: "+j.NoOracle
			continue
		}
		op.Stale = staleness(root, j.Oracle, j.Content)
		op.source, op.file = string(j.Source), j.File
		if j.MutantsErr != nil {
			op.Verdict, op.Attribution, op.Reason = ERROR, Generator, "cannot build the mutants: "+j.MutantsErr.Error()
			continue
		}
		runs = append(runs, run{op: op, job: j})
		total += 1 + len(j.Mutants)
	}

	if len(runs) > 0 {
		most := 0
		for _, r := range runs {
			most = max(most, len(r.job.Mutants))
		}
		pool := lab.SandboxPool(root, opts.TempDir, min(max(opts.Concurrency, 1), max(most, 1)), opts.Runner)
		defer func() { res.Timings.Sandbox = pool.Spent }()
		defer pool.Close()
		if _, err := pool.Grow(1); err != nil {
			return nil, err
		}
		res.Timings.Concurrency = pool.Max
		i := 0
		progress := func(e lab.Event) {
			if e.Kind != lab.BatchRun { // a batch starting is no run decided
				i++
			}
			if opts.Progress != nil {
				e.Done, e.Total, e.Unit = i, total, lab.Runs
				opts.Progress(e)
			}
		}
		for _, r := range runs {
			if err := proveOne(ctx, pool, r.op, r.job, opts, progress, &res.Timings); err != nil {
				return nil, err
			}
		}
	}
	res.Timings.Total = time.Since(start)
	var vs []Verdict
	for _, op := range res.Operations {
		vs = append(vs, op.Verdict)
	}
	res.Verdict = Overall(vs)
	return res, nil
}

// staleness compares the committed oracle with what gen writes now.
func staleness(root, oracle string, content []byte) string {
	old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(oracle)))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no oracle is committed at " + oracle + "; proved what `oracle gen` would write"
	case err != nil:
		return "cannot read the committed oracle: " + err.Error()
	case !bytes.Equal(old, content):
		return "the committed oracle " + oracle + " differs from what `oracle gen` writes now (stale): proved the new one; run `oracle gen`"
	}
	return ""
}

// proveOne runs an operation's oracle against its mutants in the lab, the
// mutants spread over the sandboxes sbs, and judges it.
func proveOne(ctx context.Context, pool *sandbox.Pool, op *OpResult, o *Job, opts Options, progress func(lab.Event), timings *Timings) error {
	slots := func(sbs []*sandbox.Sandbox) ([]lab.Slot, error) {
		var out []lab.Slot
		for _, sb := range sbs {
			if err := sb.WriteFile(o.Oracle, o.Content); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
			out = append(out, lab.Slot{Root: sb.Root, Files: sb})
		}
		return out, nil
	}
	all, err := slots(pool.List)
	if err != nil {
		return err
	}
	l := &lab.Lab{Root: all[0].Root, Files: all[0].Files, More: all[1:], Runner: opts.Runner, MarkerPrefix: op.ID, Isolate: opts.Isolate,
		BaselineTimeout: opts.BaselineTimeout, Timeout: opts.Timeout,
		Progress: func(e lab.Event) {
			e.Op = op.ID
			progress(e)
		},
		Grow: func(n int) ([]lab.Slot, error) {
			sbs, err := pool.Grow(n)
			if err != nil {
				return nil, err
			}
			return slots(sbs)
		}}
	res, err := l.Execute(ctx, []string{o.Oracle}, o.Mutants)
	if res != nil {
		timings.addLab(op.ID, res)
		for _, b := range res.Baselines {
			op.Runs = append(op.Runs, Run{Name: "baseline", Baseline: true, Decision: b.Decision(), Seconds: b.Duration.Seconds()})
		}
		for _, r := range res.Mutants {
			run := mutantRun(*r.Mutant, []byte(op.source))
			run.Decision, run.Seconds, run.Batched = r.Decision(), r.Duration.Seconds(), r.Batched
			op.Runs = append(op.Runs, run)
		}
	}
	var env *lab.EnvError
	switch {
	case ctx.Err() != nil:
		op.Verdict, op.Attribution, op.Reason = Judge(op.Runs, ctx.Err().Error())
		return ctx.Err()
	case errors.As(err, &env):
		op.Verdict, op.Attribution, op.Reason = Judge(op.Runs, env.Error())
		return nil
	case err != nil:
		return err
	}
	op.Verdict, op.Attribution, op.Reason = Judge(op.Runs, "")
	if op.Attribution == Generator {
		op.Attribution = AttributeLoadError(op.Reason, op.Oracle)
		op.Reason += LoadErrorHint(op.Reason, op.Oracle)
	}
	return nil
}

// mutantRun describes a mutant before it runs: where it changed the code, and
// how. The location addresses the original source (the file the user has,
// which the report shows), in the columns of the report format: UTF-16 code
// units, 1-based, end exclusive; the replacement is the text that takes the
// place of that span.
func mutantRun(m edit.Mutant, orig []byte) Run {
	r := Run{Name: m.Name, Operator: m.Operator, File: m.Path, Line: m.Line, Diff: m.Diff}
	start, end := m.Original.Start.Offset, m.Original.End.Offset
	if m.Original.Start.Line > 0 && end >= start && int(end) <= len(orig) {
		r.Line, r.Column = m.Original.Start.Line, edit.UTF16Column(orig, start)
		r.EndLine, r.EndColumn = m.Original.End.Line, edit.UTF16Column(orig, end)
		r.Replacement = m.Replacement
	}
	if r.Line == 0 {
		r.Line = 1
	}
	return r
}
