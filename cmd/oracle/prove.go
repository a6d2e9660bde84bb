package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/oracle-ts/oracle/generator"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/operators"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
	"github.com/oracle-ts/oracle/prove"
)

// proveDoc is the `oracle prove --json` document (SPEC "JSON documents").
type proveDoc struct {
	Schema     string        `json:"schema"`
	Ticket     string        `json:"ticket"`
	Verdict    string        `json:"verdict"`
	Operations []proveOp     `json:"operations"`
	Timings    *proveTimings `json:"timings,omitempty"` // with --timings
	// Fallbacks says which runs the long-lived runner handed to a fresh
	// vitest process, and why (the outcome is the same, only slower).
	Fallbacks []fallback `json:"fallbacks,omitempty"`
}

type fallback struct {
	Reason string `json:"reason"`
	Runs   int    `json:"runs"`
}

// fallbacks counts the runs the long-lived runner could not serve, by reason.
type fallbacks struct {
	mu     sync.Mutex
	counts map[string]int
	runner string // whose long-lived runner: "" vitest's, "jest"
}

func (f *fallbacks) add(_ runner.Spec, reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.counts == nil {
		f.counts = map[string]int{}
	}
	f.counts[reason]++
}

func (f *fallbacks) list() []fallback {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fallback
	for r, n := range f.counts {
		out = append(out, fallback{Reason: r, Runs: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Reason < out[j].Reason })
	return out
}

// proveTimings says where the time went: copying the repository into the
// sandbox(es), the runs (summed over workers: more than the wall time when
// they ran at once; the first run of each vitest includes its start-up),
// and the whole prove (loading the program excluded).
type proveTimings struct {
	SandboxSeconds float64 `json:"sandbox_seconds"`
	RunsSeconds    float64 `json:"runs_seconds"`
	TotalSeconds   float64 `json:"total_seconds"`
	Runs           int     `json:"runs"`
	Mutants        int     `json:"mutants"`
	Batched        int     `json:"batched"` // mutants whose outcome a batched run established
	Concurrency    int     `json:"concurrency"`
	// The lab's phases, summed over the operations: the baselines, the
	// batched runs and the mutants run alone (ran_alone of them); the
	// mutants that ran past the hit limit; the slowest mutant runs.
	BaselineSeconds float64 `json:"baseline_seconds"`
	BatchesSeconds  float64 `json:"batches_seconds"`
	AloneSeconds    float64 `json:"alone_seconds"`
	RanAlone        int     `json:"ran_alone"`
	HitLimits       int     `json:"hit_limits"`
	// AloneWhy counts the mutants run alone per reason (a run's aloneWhy).
	AloneWhy map[string]int `json:"alone_why"`
	Slowest  []slowTime     `json:"slowest"`
	// RefusedBatches are the batches whose results were not used: why, and
	// what the run said (the baseline test that failed there, and how).
	RefusedBatches []prove.RefusedBatch `json:"refused_batches"`
}

// slowTime is one of the slowest mutant runs.
type slowTime struct {
	Operation string  `json:"operation"`
	Mutant    string  `json:"mutant"`
	Outcome   string  `json:"outcome"`
	Batched   bool    `json:"batched"`
	Seconds   float64 `json:"seconds"`
}

func timingsOf(res *prove.Result) proveTimings {
	rt := res.Timings
	t := proveTimings{SandboxSeconds: rt.Sandbox.Seconds(), TotalSeconds: rt.Total.Seconds(), Concurrency: rt.Concurrency,
		BaselineSeconds: rt.Baseline.Seconds(), BatchesSeconds: rt.Batches.Seconds(), AloneSeconds: rt.Alone.Seconds(),
		RanAlone: rt.RanAlone, HitLimits: rt.HitLimits, AloneWhy: map[string]int{}, Slowest: []slowTime{},
		RefusedBatches: append([]prove.RefusedBatch{}, rt.Refused...)}
	for _, s := range rt.Slowest {
		t.Slowest = append(t.Slowest, slowTime{Operation: s.Operation, Mutant: s.Mutant, Outcome: string(s.Outcome), Batched: s.Batched, Seconds: s.Duration.Seconds()})
	}
	for _, op := range res.Operations {
		for _, r := range op.Runs {
			t.Runs++
			if r.Operator != "" {
				t.Mutants++
			}
			if r.Batched {
				t.Batched++
			}
			if r.AloneWhy != "" {
				t.AloneWhy[r.AloneWhy]++
			}
			t.RunsSeconds += r.Seconds
		}
	}
	return t
}

type proveOp struct {
	ID          string      `json:"id"`
	Function    string      `json:"function"`
	Oracle      string      `json:"oracle,omitempty"`
	Verdict     string      `json:"verdict"`
	Attribution string      `json:"attribution,omitempty"`
	Reason      string      `json:"reason,omitempty"`
	Stale       string      `json:"stale,omitempty"`
	Runs        []prove.Run `json:"runs"`
}

var verdictExit = map[prove.Verdict]int{prove.PASS: exitOK, prove.SKIP: exitOK, prove.FAIL: exitFail, prove.ERROR: exitError}

// runProve is the verb; ctx ends with an interrupt.
func runProve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	v := newVerb("prove", "prove [--json] [--timings] [--report FILE] [--timeout D] [--isolate] [--concurrency N] [--runner long-lived|process] [--root DIR] MANIFEST", "oracle.prove/v1", stderr)
	report := v.fs.String("report", "", "also write a mutation-testing-report-schema report to `FILE`")
	timeout := v.fs.Duration("timeout", 0, "time-out of one mutant run (default: derived from the baseline run)")
	isolate := v.fs.Bool("isolate", false, "run every mutant alone (a vitest run each), never batched")
	concurrency := v.fs.Int("concurrency", runtime.NumCPU(), "how many mutants run at once, each in a sandbox of its own (default: the number of cores)")
	timings := v.timingsFlag()
	runnerKind := v.fs.String("runner", "long-lived", "how vitest (or jest) runs: `long-lived` (one process per sandbox, modules invalidated between runs; falls back to a fresh process when it cannot serve a run) or process (a fresh vitest, or jest, per run)")
	asJSON := v.json
	pos, root, err := v.parse(args, 1)
	if err != nil {
		return err
	}
	if err := checkWritable("--report", *report); err != nil { // before any run, not after all of them
		return &exitStatus{code: exitUsage, msg: err.Error()}
	}
	in, plan, err := loadPlan(ctx, root, pos[0], stderr)
	if err != nil {
		return err
	}
	defer in.Program.Close()

	if *concurrency < 1 {
		return &exitStatus{code: exitUsage, msg: fmt.Sprintf("--concurrency %d: want 1 or more", *concurrency)}
	}
	opts := prove.Options{Timeout: *timeout, Concurrency: *concurrency, Isolate: *isolate}
	var fell fallbacks
	switch {
	case *runnerKind != "long-lived" && *runnerKind != "process":
		return &exitStatus{code: exitUsage, msg: fmt.Sprintf("--runner %q: want long-lived or process", *runnerKind)}
	case in.Runner.Jest && *runnerKind == "long-lived":
		// The oracle is a jest file: jest's runners, the gate's on jest (one
		// long-lived jest per sandbox, every mutant alone), or a fresh jest
		// per run (process).
		jl := runner.NewJestLongLived()
		jl.OnFallback = fell.add
		opts.Runner, fell.runner = jl, "jest"
	case in.Runner.Jest:
		opts.Runner = runner.NewJest()
	case *runnerKind == "long-lived":
		ll := runner.NewLongLived()
		ll.MaxProcesses = max(2, *concurrency) // one vitest per sandbox stays up
		ll.OnFallback = fell.add
		opts.Runner = ll
	default:
		opts.Runner = runner.New()
	}
	defer opts.Runner.Close()
	// On an interrupt, stop vitest at once (the runs in progress end), before
	// Prove removes the sandbox it runs in.
	defer context.AfterFunc(ctx, func() { opts.Runner.Close() })()
	defer sandbox.CloseAll()
	// What a killed prove left (its owner process is gone) goes at once.
	sandbox.SweepStale("", 0)

	line := progressLine(stderr, !*asJSON, "prove")
	opts.Progress = line.event
	jobs, err := proveJobs(in.Program.Root(), plan)
	if err != nil {
		return environment(err)
	}
	res, err := prove.Prove(ctx, in.Program.Root(), jobs, opts)
	line.clear() // before anything else is printed, on stdout or stderr
	if ctx.Err() != nil {
		return ctx.Err() // runVerb reports the interrupt
	}
	if err != nil {
		// The sandbox, the disk, the temp directory: the environment (exit 3),
		// never the caller's input.
		return environment(err)
	}
	if !*timings {
		res.DropTimings()
	}
	if *report != "" {
		data, err := prove.MutationReport(res.ReportOperations())
		if err == nil {
			err = os.WriteFile(*report, append(data, '\n'), 0o644)
		}
		if err != nil {
			return fmt.Errorf("--report: %w", err)
		}
	}
	return printProve(stdout, stderr, res, plan.Ticket, &fell, *asJSON, *timings)
}

// printProve prints prove's result (--json or text, the fallbacks from the
// long-lived vitest, annotations in GitHub Actions) and returns its exit
// status.
func printProve(stdout, stderr io.Writer, res *prove.Result, ticket string, fell *fallbacks, asJSON, timings bool) error {
	code := verdictExit[res.Verdict]
	if asJSON {
		doc := proveDoc{Schema: "oracle.prove/v1", Ticket: ticket, Verdict: string(res.Verdict), Operations: []proveOp{}}
		for _, op := range res.Operations {
			runs := op.Runs
			if runs == nil {
				runs = []prove.Run{}
			}
			doc.Operations = append(doc.Operations, proveOp{ID: op.ID, Function: op.Function, Oracle: op.Oracle,
				Verdict: string(op.Verdict), Attribution: string(op.Attribution), Reason: op.Reason, Stale: op.Stale, Runs: runs})
		}
		if timings {
			t := timingsOf(res)
			doc.Timings = &t
		}
		doc.Fallbacks = fell.list()
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
	} else {
		writeProveText(stdout, res, timings)
		for _, f := range fell.list() {
			fmt.Fprintf(stderr, "note: %d run(s) fell back from the long-lived %s to a fresh process (same outcome, slower): %s\n", f.Runs, cmp.Or(fell.runner, "vitest"), f.Reason)
		}
		if inGitHubActions() {
			annotateProve(stdout, res)
		}
	}
	if code != exitOK {
		return &exitStatus{code: code}
	}
	return nil
}

// proveJobs are the jobs of gen's plan: each generated operation's oracle
// and the mutants of its function, built from what the plan located (the
// function's file read as it is now). A file that cannot be read is an
// error of the environment.
func proveJobs(root string, plan *generator.Result) ([]prove.Job, error) {
	var jobs []prove.Job
	for _, o := range plan.Operations {
		j := prove.Job{ID: o.ID, Function: o.Function, Oracle: o.File, Content: o.Content}
		switch o.Status {
		case generator.StatusSkipped:
			j.Skip = o.Reason
		case generator.StatusError:
			j.NoOracle = o.Reason
		default:
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(o.Located.File.Path)))
			if err != nil {
				return nil, err
			}
			j.File, j.Source = o.Located.File.Path, src
			j.Mutants, j.MutantsErr = operationMutants(o, src)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// operationMutants are red-first and the mutants of a generated operation
// (mutate/operators), src the function's file as the plan located it.
func operationMutants(o *generator.Operation, src []byte) ([]edit.Mutant, error) {
	loc := o.Located
	flag := edit.Flag{Param: o.Op.Flag.Param, Props: o.Op.Flag.Props}
	return operators.Prove(edit.Target{Path: loc.File.Path, Src: src, Fn: loc.Func, Flag: flag}, loc.Wrap, loc.Preserves)
}

// writeProveText: a line per operation, a line per run, and the diff of every
// mutant the oracle did not kill.
func writeProveText(w io.Writer, res *prove.Result, timings bool) {
	for _, op := range res.Operations {
		line := fmt.Sprintf("%s %s %s", op.Verdict, op.ID, op.Function)
		if op.Attribution != "" {
			line += fmt.Sprintf(" [%s]", op.Attribution)
		}
		if op.Reason != "" {
			line += ": " + op.Reason
		}
		fmt.Fprintln(w, line)
		if op.Stale != "" {
			fmt.Fprintf(w, "  note: %s\n", op.Stale)
		}
		for _, r := range op.Runs {
			where := ""
			if r.File != "" {
				where = fmt.Sprintf(" %s:%d", r.File, r.Line)
			}
			detail := ""
			if r.Detail != "" && r.Outcome != lab.Killed {
				detail = "  " + r.Detail
			}
			secs := ""
			if timings {
				secs = fmt.Sprintf(" %5.1fs", r.Seconds)
			}
			fmt.Fprintf(w, "  %-44s %-11s%s%s%s\n", r.Name, r.Outcome, secs, where, detail)
			if r.Outcome.Open() {
				for _, l := range strings.Split(strings.TrimRight(r.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "      %s\n", l)
				}
			}
		}
	}
	if t := timingsOf(res); t.Runs > 0 {
		if timings {
			rate := 0.0
			if t.TotalSeconds > 0 {
				rate = float64(t.Mutants) / t.TotalSeconds
			}
			fmt.Fprintf(w, "%d runs (%d mutants) in %.1fs, %d at once: %.1f mutants/s\n", t.Runs, t.Mutants, t.TotalSeconds, t.Concurrency, rate)
			for _, r := range t.RefusedBatches {
				writeRefused(w, r.Operation+": ", r.Test, r.Why, r.Detail)
			}
		}
		if t.HitLimits > 0 {
			fmt.Fprintf(w, "%d mutant(s) ran past the hit limit (a loop that does not end): timeout\n", t.HitLimits)
		}
	}
	fmt.Fprintln(w, res.Verdict)
}

// isTerminal reports whether w is a character device (progress goes there
// only).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
