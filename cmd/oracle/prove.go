package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/mutate"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

// proveDoc is the `oracle prove --json` document (SPEC "JSON documents").
type proveDoc struct {
	Schema     string    `json:"schema"`
	Ticket     string    `json:"ticket"`
	Verdict    string    `json:"verdict"`
	Operations []proveOp `json:"operations"`
}

type proveOp struct {
	ID          string       `json:"id"`
	Function    string       `json:"function"`
	Oracle      string       `json:"oracle,omitempty"`
	Verdict     string       `json:"verdict"`
	Attribution string       `json:"attribution,omitempty"`
	Reason      string       `json:"reason,omitempty"`
	Stale       string       `json:"stale,omitempty"`
	Runs        []mutate.Run `json:"runs"`
}

var verdictExit = map[mutate.Verdict]int{mutate.PASS: exitOK, mutate.SKIP: exitOK, mutate.FAIL: exitFail, mutate.ERROR: exitError}

func runProve(args []string, stdout, stderr io.Writer) int {
	v := newVerb("prove", "prove [--json] [--report FILE] [--timeout D] [--runner long-lived|process] [--root DIR] MANIFEST", "oracle.prove/v1", stderr)
	report := v.fs.String("report", "", "also write a mutation-testing-report-schema report to `FILE`")
	timeout := v.fs.Duration("timeout", 0, "time-out of one mutant run (default: derived from the baseline run)")
	runnerKind := v.fs.String("runner", "long-lived", "how vitest runs: `long-lived` (one process per sandbox, modules invalidated between runs; falls back to a fresh process when it cannot serve a run) or process (a fresh vitest per run)")
	asJSON := v.json
	pos, root, code, ok := v.parse(args, 1)
	if !ok {
		return code
	}
	in, plan, code, ok := loadPlan(root, pos[0], "oracle.prove/v1", *asJSON, stdout, stderr)
	if !ok {
		return code
	}
	defer in.Program.Close()

	opts := mutate.ProveOptions{Timeout: *timeout}
	switch *runnerKind {
	case "long-lived":
		ll := runner.NewLongLived()
		defer ll.Close()
		opts.Runner = ll
	case "process":
		opts.Runner = runner.New()
	default:
		fmt.Fprintf(stderr, "oracle prove: --runner %q: want long-lived or process\n", *runnerKind)
		return exitUsage
	}
	// Interrupts stop vitest, remove the sandbox and exit 130/143; a sandbox
	// left by a killed run is removed by the next one.
	// One handler owns SIGINT/SIGTERM: it cancels the runs, stops vitest,
	// removes the sandbox and exits; the main path must not race it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := sandbox.CloseAllOnSignal(cancel, func() {
		if c, ok := opts.Runner.(interface{ Close() error }); ok {
			c.Close()
		}
	})
	defer stop()
	defer sandbox.CloseAll()
	sandbox.SweepStale("", time.Hour)

	if !*asJSON && isTerminal(stderr) {
		opts.Progress = func(i, n int, op, run string) {
			fmt.Fprintf(stderr, "\r\033[Krun %d of %d: %s %s", i, n, op, run)
		}
	}
	res, err := mutate.Prove(ctx, in, plan, opts)
	if ctx.Err() != nil {
		select {} // interrupted: the signal handler is cleaning up and exits 130/143
	}
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return reportInputError(err, "oracle.prove/v1", *asJSON, stdout, stderr)
	}
	if *report != "" {
		data, err := mutate.MutationReport(res.ReportOperations())
		if err == nil {
			err = os.WriteFile(*report, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "oracle prove: --report: %v\n", err)
			return exitError
		}
	}
	code = verdictExit[res.Verdict]
	if *asJSON {
		doc := proveDoc{Schema: "oracle.prove/v1", Ticket: plan.Ticket, Verdict: string(res.Verdict), Operations: []proveOp{}}
		for _, op := range res.Operations {
			runs := op.Runs
			if runs == nil {
				runs = []mutate.Run{}
			}
			doc.Operations = append(doc.Operations, proveOp{ID: op.ID, Function: op.Function, Oracle: op.Oracle,
				Verdict: string(op.Verdict), Attribution: string(op.Attribution), Reason: op.Reason, Stale: op.Stale, Runs: runs})
		}
		return writeJSON(stdout, stderr, doc, code)
	}
	writeProveText(stdout, res)
	return code
}

// writeProveText: a line per operation, a line per run, and the diff of every
// mutant the oracle did not kill.
func writeProveText(w io.Writer, res *mutate.Result) {
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
			if r.Detail != "" && r.Outcome != mutate.Killed {
				detail = "  " + r.Detail
			}
			fmt.Fprintf(w, "  %-44s %-11s %5.1fs%s%s\n", r.Name, r.Outcome, r.Seconds, where, detail)
			if r.Outcome == mutate.Survived || r.Outcome == mutate.NoCoverage {
				for _, l := range strings.Split(strings.TrimRight(r.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "      %s\n", l)
				}
			}
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
