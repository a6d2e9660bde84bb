package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
)

type gateDoc struct {
	Schema string `json:"schema"`
	*gate.Result
}

var gateExit = map[string]int{gate.PASS: exitOK, gate.SKIP: exitOK, gate.FAIL: exitFail, gate.ERROR: exitError}

func runGate(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runGateMerge(args[1:], stdout, stderr)
	}
	return withInterrupts("gate", "nothing was decided; the sandbox is removed", args, stdout, stderr, gateVerb)
}

func gateVerb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	v := newVerb("gate", "gate [--base REV] [--files FILE] [--threshold N] [--shard K/N] [--json] [--report FILE] [--html FILE] [--isolate] [--concurrency N] [--no-cache] [--root DIR]", "oracle.gate/v1", stderr)
	base := v.fs.String("base", "HEAD~1", "the change is `git diff --merge-base REV HEAD`")
	files := v.fs.String("files", "", "the change is the repo-relative paths listed in `FILE`, one per line (each file whole)")
	threshold := v.fs.Float64("threshold", -1, "the lowest mutation score, in percent, a changed file may have (default: gate.threshold in oracle.yaml, else 70)")
	isolate := v.fs.Bool("isolate", false, "run every mutant alone (a vitest run each), never batched")
	concurrency := v.fs.Int("concurrency", runtime.NumCPU(), "how many mutants run alone at once, each in a sandbox of its own (default: the number of cores)")
	report := v.fs.String("report", "", "also write a mutation-testing-report-schema report (Stryker's viewer) to `FILE`")
	htmlOut := v.fs.String("html", "", "also write a self-contained HTML page (no network needed to open it) to `FILE`")
	noCache := v.fs.Bool("no-cache", false, "ignore the result cache in .oracle/ (and do not update it)")
	shard := v.fs.String("shard", "", "run the deterministic shard `K/N` of the mutants (join the shards' --json with oracle gate merge)")
	pos, root, code, ok := v.parse(args, 0)
	if !ok {
		return &exitStatus{code: code}
	}
	_ = pos
	given := false
	v.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "threshold" })
	if given && (*threshold < 0 || *threshold > 100) {
		return &exitStatus{code: exitUsage, msg: fmt.Sprintf("--threshold %v: want a percentage from 0 to 100", *threshold)}
	}
	cfg, err := manifest.LoadConfig(root)
	if err != nil {
		return &exitStatus{code: reportInputError(err, "oracle.gate/v1", *v.json, stdout, stderr)}
	}
	if !given {
		*threshold = 70
		if cfg.Gate.Threshold != nil {
			*threshold = *cfg.Gate.Threshold
		}
	}
	var ch change.Change
	if *files != "" {
		ch, err = change.FromList(*files)
	} else {
		ch, err = change.FromGit(root, *base)
	}
	var ue *change.UsageError
	if errors.As(err, &ue) {
		return &exitStatus{code: exitUsage, msg: ue.Msg}
	}
	if err != nil {
		return err
	}
	if *concurrency < 1 {
		return &exitStatus{code: exitUsage, msg: fmt.Sprintf("--concurrency %d: want 1 or more", *concurrency)}
	}
	ll := runner.NewLongLived()
	ll.MaxProcesses = max(2, *concurrency) // one vitest per sandbox stays up
	opts := gate.Options{Threshold: *threshold, Isolate: *isolate, NoCache: *noCache, Runner: ll, Concurrency: *concurrency,
		Arid: gate.Arid{Loggers: cfg.Gate.Loggers}}
	if *shard != "" {
		if _, err := fmt.Sscanf(*shard, "%d/%d", &opts.ShardK, &opts.ShardN); err != nil || opts.ShardN < 1 || opts.ShardK < 1 || opts.ShardK > opts.ShardN {
			return &exitStatus{code: exitUsage, msg: fmt.Sprintf("--shard %q: want K/N with 1 <= K <= N, e.g. 2/4", *shard)}
		}
	}
	for _, fx := range cfg.Fixtures {
		opts.Fixtures = append(opts.Fixtures, fx.File)
	}
	defer opts.Runner.Close()
	defer context.AfterFunc(ctx, func() { opts.Runner.Close() })()
	defer sandbox.CloseAll()
	sandbox.SweepStale("", 0)
	if !*v.json && isTerminal(stderr) {
		opts.Progress = func(i, n int, what string) { fmt.Fprintf(stderr, "\r\033[Kmutant %d of %d: %s", i, n, what) }
		defer fmt.Fprint(stderr, "\r\033[K")
	}
	res, err := gate.Run(ctx, root, ch, opts)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("environment: %w", err)
	}
	if *report != "" {
		data, err := res.Report(root)
		if err == nil {
			err = os.WriteFile(*report, append(data, '\n'), 0o644)
		}
		if err != nil {
			return fmt.Errorf("--report: %w", err)
		}
	}
	if *htmlOut != "" {
		if err := os.WriteFile(*htmlOut, res.HTML(root), 0o644); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	code = gateExit[res.Verdict]
	if *v.json {
		code = writeJSON(stdout, stderr, gateDoc{Schema: "oracle.gate/v1", Result: res}, code)
	} else {
		writeGateText(stdout, res)
	}
	if code != exitOK {
		return &exitStatus{code: code}
	}
	return nil
}

// writeGateText prints the line a loop appends to its log, then what the
// next worker strengthens: each surviving mutant with its place, operator
// and diff; and the targets skipped, with why.
func writeGateText(w io.Writer, res *gate.Result) {
	switch res.Verdict {
	case gate.PASS, gate.FAIL:
		fmt.Fprintf(w, "GATE %s %.0f%% (%d/%d) threshold %.0f\n", res.Verdict, res.Score, res.Detected, res.Total, res.Threshold)
		if res.Cached > 0 {
			fmt.Fprintf(w, "  %d of %d mutants from the cache (.oracle/; --no-cache runs them all)\n", res.Cached, len(res.Mutants))
		}
		if res.Timings.HitLimits > 0 {
			fmt.Fprintf(w, "  %d mutant(s) ran past the hit limit (a loop that does not end): timeout\n", res.Timings.HitLimits)
		}
	default:
		fmt.Fprintf(w, "GATE %s: %s\n", res.Verdict, res.Reason)
	}
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %s %.0f%% (%d/%d)\n", f.File, f.Score, f.Detected, f.Total)
	}
	for _, t := range res.Targets {
		if t.Skipped != "" {
			fmt.Fprintf(w, "  skipped %s: %s\n", t.ID, t.Skipped)
		}
	}
	for _, m := range res.Mutants {
		if m.Outcome != "survived" && m.Outcome != "no-coverage" {
			continue
		}
		fmt.Fprintf(w, "\n%s %s:%d:%d %s (%s)\n%s", m.Outcome, m.File, m.Line, m.Column, m.Operator, m.Target, m.Diff)
	}
}

// runGateMerge is `oracle gate merge SHARD.json...`: the shards' --json
// documents joined into one decision, printed as a gate prints it.
func runGateMerge(args []string, stdout, stderr io.Writer) int {
	v := newVerb("gate merge", "gate merge [--json] SHARD.json...", "oracle.gate/v1", stderr)
	files, _, code, ok := v.parse(args, -1)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "oracle gate merge: give the --json documents of the shards")
		return exitUsage
	}
	var parts []*gate.Result
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "oracle gate merge: %v\n", err)
			return exitUsage
		}
		var doc struct {
			Schema string `json:"schema"`
			gate.Result
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.Schema != "oracle.gate/v1" {
			fmt.Fprintf(stderr, "oracle gate merge: %s is not an oracle.gate/v1 document\n", f)
			return exitUsage
		}
		r := doc.Result
		parts = append(parts, &r)
	}
	res, err := gate.Merge(parts)
	if err != nil {
		fmt.Fprintf(stderr, "oracle gate merge: %v\n", err)
		return exitUsage
	}
	code = gateExit[res.Verdict]
	if *v.json {
		return writeJSON(stdout, stderr, gateDoc{Schema: "oracle.gate/v1", Result: res}, code)
	}
	writeGateText(stdout, res)
	return code
}
