package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
	"github.com/oracle-ts/oracle/testsuite"
)

type gateDoc struct {
	Schema string `json:"schema"`
	*gate.Result
	// This run's measures, shadowing the Result's: only with --timings
	// (nil: left out), so that the same inputs give the same bytes.
	Seconds *float64      `json:"seconds,omitempty"`
	Cached  *int          `json:"cached,omitempty"`
	Timings *gate.Timings `json:"timings,omitempty"`
}

// newGateDoc is the --json document of res; with timings, this run's
// measures too.
func newGateDoc(res *gate.Result, timings bool) gateDoc {
	doc := gateDoc{Schema: "oracle.gate/v1", Result: res}
	if timings {
		doc.Seconds, doc.Cached, doc.Timings = &res.Seconds, &res.Cached, &res.Timings
	}
	return doc
}

var gateExit = map[gate.Verdict]int{gate.PASS: exitOK, gate.SKIP: exitOK, gate.FAIL: exitFail, gate.ERROR: exitError}

// gateFlags are gate's flags as given.
type gateFlags struct {
	base, files, filesFrom, shard, scope, config, untested, report, htmlOut string
	threshold                                                               float64
	isolate, noCache, timings, worktree, json, dryRun                       bool
	concurrency                                                             int
	outs                                                                    results
	thresholdGiven, baseGiven                                               bool // --threshold, --base given
}

func runGate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, root, err := parseGateFlags(args, stderr)
	if err != nil {
		return err
	}
	sh, err := checkGateFlags(f)
	if err != nil {
		return err
	}
	cfg, err := manifest.LoadConfig(root)
	if err != nil {
		return inputError(err)
	}
	if !f.thresholdGiven {
		f.threshold = 70
		if cfg.Gate.Threshold != nil {
			f.threshold = *cfg.Gate.Threshold
		}
	}
	ch, origin, err := gateChange(f, root)
	if err != nil {
		return err
	}
	opts, err := gateOptions(f, root, cfg)
	if err != nil {
		return err
	}
	opts.Runner = suiteRunner(root, f.concurrency)
	opts.Shard = sh
	opts.Origin, opts.Version = origin, oracleVersion()
	defer opts.Runner.Close()
	defer context.AfterFunc(ctx, func() { opts.Runner.Close() })()
	defer sandbox.CloseAll()
	sandbox.SweepStale("", 0)
	line := progressLine(stderr, !f.json, "gate")
	opts.Progress = line.event
	line.step("setup", "reading the change, the code and the test suite")
	line.beat() // no phase silent for more than 10 s
	res, err := gate.Run(ctx, root, ch, opts)
	line.clear() // before anything else is printed, on stdout or stderr
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ce *testsuite.ConfigError
	if errors.As(err, &ce) {
		return &exitStatus{code: exitUsage, msg: ce.Error()} // the repository's configuration (exit 2), not the environment
	}
	if err != nil {
		return environment(err)
	}
	if res.Plan != nil && res.Verdict == "" {
		return printPlan(stdout, res)
	}
	if err := writeGateFiles(res, root, f.report, f.htmlOut, f.outs); err != nil {
		return err
	}
	return printGate(stdout, stderr, res, f)
}

// suiteRunner is the runner of the repository's tests: jest's, one
// long-lived jest per sandbox (every mutant alone: runner.CanBatch), when its
// tests run on jest (testsuite.RunsJest, as the suite decides it); else
// vitest's, one long-lived vitest per sandbox.
func suiteRunner(root string, concurrency int) runner.Runner {
	if jestInstead(root) != "" {
		return runner.NewJestLongLived()
	}
	ll := runner.NewLongLived()
	ll.MaxProcesses = max(2, concurrency) // one vitest per sandbox stays up
	return ll
}

// parseGateFlags reads gate's flags; root is the repository's.
func parseGateFlags(args []string, stderr io.Writer) (f *gateFlags, root string, err error) {
	v := newVerb("gate", "gate [--base REV [--worktree] | --files FILE | --files-from FILE] [--scope lines|function] [--threshold N] [--shard K/N] [--json] [--timings] [--report FILE] [--html FILE] [--summary FILE] [--sarif FILE] [--isolate] [--concurrency N] [--no-cache] [--dry-run] [--untested skip|fail] [--config FILE] [--root DIR]", "oracle.gate/v1", stderr)
	base := v.fs.String("base", "HEAD~1", "the change is `git diff --merge-base REV HEAD`")
	files := v.fs.String("files", "", "the change is the repo-relative paths listed in `FILE`, one per line (each file whole; - reads standard input)")
	filesFrom := v.fs.String("files-from", "", "the same as --files: the paths a pipeline recorded in `FILE`, one per line (- reads standard input)")
	threshold := v.fs.Float64("threshold", -1, "the lowest mutation score, in percent, a changed file may have (default: gate.threshold in oracle.yaml, else 70)")
	isolate := v.fs.Bool("isolate", false, "run every mutant alone (a vitest run each), never batched")
	concurrency := v.fs.Int("concurrency", runtime.NumCPU(), "how many mutants run alone at once, each in a sandbox of its own (default: the number of cores)")
	report := v.fs.String("report", "", "also write a mutation-testing-report-schema report (Stryker's viewer) to `FILE`")
	htmlOut := v.fs.String("html", "", "also write a self-contained HTML page (no network needed to open it) to `FILE`")
	outs := resultFlags(v)
	noCache := v.fs.Bool("no-cache", false, "ignore the result cache in .oracle/ (and do not update it)")
	shard := v.fs.String("shard", "", "run the deterministic shard `K/N` of the mutants (join the shards' --json with oracle gate merge)")
	scope := v.fs.String("scope", gate.ScopeLines, "where mutants go: `lines` (the lines the change added or modified, in the functions it touched) or function (the whole of each touched function)")
	config := v.fs.String("config", "", "the vitest config `FILE` (default: the one the test script of package.json names, else vitest's own search)")
	timings := v.timingsFlag()
	untested := v.fs.String("untested", gate.UntestedSkip, "what a changed function no test executes makes of the verdict: `skip` (it is not mutation-tested, with the reason) or fail (FAIL, attribution untested)")
	dryRun := v.fs.Bool("dry-run", false, "run the baselines and print the plan (each mutant's test files, batched or alone and why, its limits) without running a mutant; writes no report and no cache")
	worktree := v.fs.Bool("worktree", false, "take the working tree as the change (`git diff --merge-base REV` and untracked files); by default the change is as committed at HEAD and a working tree that differs in a file of it is refused")
	_, root, err = v.parse(args, 0)
	if err != nil {
		return nil, "", err
	}
	f = &gateFlags{base: *base, files: *files, filesFrom: *filesFrom, shard: *shard, scope: *scope, config: *config, untested: *untested, report: *report, htmlOut: *htmlOut,
		threshold: *threshold, isolate: *isolate, noCache: *noCache, timings: *timings, worktree: *worktree, json: *v.json, concurrency: *concurrency, outs: outs, dryRun: *dryRun}
	v.fs.Visit(func(fl *flag.Flag) {
		f.thresholdGiven = f.thresholdGiven || fl.Name == "threshold"
		f.baseGiven = f.baseGiven || fl.Name == "base"
	})
	return f, root, nil
}

// checkGateFlags checks --threshold, --shard and the output files before
// anything is read.
func checkGateFlags(f *gateFlags) (gate.Shard, error) {
	var sh gate.Shard
	if f.thresholdGiven && !(f.threshold >= 0 && f.threshold <= 100) { // NaN and ±Inf too: NaN compares false, and would pass every gate
		return sh, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--threshold %v: want a percentage from 0 to 100", f.threshold)}
	}
	if f.shard != "" {
		var err error
		if sh, err = gate.ParseShard(f.shard); err != nil {
			return sh, &exitStatus{code: exitUsage, msg: err.Error()}
		}
	}
	if f.dryRun {
		given := map[string]bool{"--json": f.json, "--report": f.report != "", "--html": f.htmlOut != "", "--summary": *f.outs.summary != "", "--sarif": *f.outs.sarif != ""}
		for _, name := range []string{"--json", "--report", "--html", "--summary", "--sarif"} {
			if given[name] {
				return sh, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--dry-run and %s: a dry run prints its plan as text and writes no result; drop one of them", name)}
			}
		}
	}
	// The output files are checked before any mutant runs: a path that
	// cannot be written is the user's to fix (exit 2), not an error after
	// the whole run.
	for _, out := range [][2]string{{"--report", f.report}, {"--html", f.htmlOut}, {"--summary", *f.outs.summary}, {"--sarif", *f.outs.sarif}} {
		if err := checkWritable(out[0], out[1]); err != nil {
			return sh, &exitStatus{code: exitUsage, msg: err.Error()}
		}
	}
	return sh, nil
}

// gateChange reads the change: the files --files or --files-from list, else
// git's diff from --base (origin its commits).
func gateChange(f *gateFlags, root string) (change.Change, *change.Origin, error) {
	listFlag, list := "--files", f.files
	if f.filesFrom != "" {
		listFlag, list = "--files-from", f.filesFrom
	}
	switch {
	case f.files != "" && f.filesFrom != "":
		return nil, nil, &exitStatus{code: exitUsage, msg: "--files and --files-from: give one list of changed files"}
	case list != "" && f.baseGiven:
		return nil, nil, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--base and %s: the change is either git's diff from the base or the files listed, not both", listFlag)}
	}
	var ch change.Change
	var origin *change.Origin
	var err error
	if list != "" {
		ch, err = change.FromList(listFlag, list, stdin)
	} else {
		ch, origin, err = change.Git(root, f.base, f.worktree)
	}
	var ue *change.UsageError
	if errors.As(err, &ue) {
		msg := ue.Msg
		if ue.NotGit {
			msg += ", or give the changed files with --files"
		}
		return nil, nil, &exitStatus{code: exitUsage, msg: msg}
	}
	if err != nil {
		return nil, nil, err
	}
	return ch, origin, nil
}

// gateOptions checks the rest of the flags (--config, --scope, --untested,
// the baseline's time-out, --concurrency) and makes the
// gate's options of them and of oracle.yaml (the runner, the shard and
// the change's origin left to the caller).
func gateOptions(f *gateFlags, root string, cfg *manifest.Config) (gate.Options, error) {
	if f.config != "" {
		rel, err := existingRepoFile(root, f.config)
		if err != nil {
			return gate.Options{}, &exitStatus{code: exitUsage, msg: "--config: " + err.Error()}
		}
		f.config = rel
	}
	if f.scope != gate.ScopeLines && f.scope != gate.ScopeFunction {
		return gate.Options{}, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--scope %q: want lines or function", f.scope)}
	}
	if f.untested != gate.UntestedSkip && f.untested != gate.UntestedFail {
		return gate.Options{}, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--untested %q: want skip or fail", f.untested)}
	}
	var baselineTimeout time.Duration
	if s := os.Getenv(gate.BaselineTimeoutEnv); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return gate.Options{}, &exitStatus{code: exitUsage, msg: fmt.Sprintf("%s=%q: want a duration such as 90s or 5m", gate.BaselineTimeoutEnv, s)}
		}
		baselineTimeout = d
	}
	if f.concurrency < 1 {
		return gate.Options{}, &exitStatus{code: exitUsage, msg: fmt.Sprintf("--concurrency %d: want 1 or more", f.concurrency)}
	}
	opts := gate.Options{Threshold: f.threshold, Isolate: f.isolate, NoCache: f.noCache, Concurrency: f.concurrency, DryRun: f.dryRun,
		Arid: gate.Arid{Loggers: cfg.Gate.Loggers}, Scope: f.scope, Config: f.config, Untested: f.untested, BaselineTimeout: baselineTimeout}
	for _, fx := range cfg.Fixtures {
		opts.Fixtures = append(opts.Fixtures, fx.File)
	}
	return opts, nil
}

// printPlan prints a dry run's plan (gate.Result.Plan): the gate's targets
// as the text output has them, the mutants the cache answers, and the
// lab's plan for the others (lab.Plan.String). Exit 0: no verdict.
func printPlan(w io.Writer, res *gate.Result) error {
	fmt.Fprintf(w, "GATE DRY RUN: %d mutants planned, %d from the cache (not in the plan); no mutant ran\n", len(res.Plan.Steps)+res.Cached, res.Cached)
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	_, err := io.WriteString(w, res.Plan.String())
	return err
}

// printGate prints the gate's result (--json or text, with annotations in
// GitHub Actions) and returns its exit status.
func printGate(stdout, stderr io.Writer, res *gate.Result, f *gateFlags) error {
	code := gateExit[res.Verdict]
	if res.Shard != "" && res.Attribution == "" && (res.Verdict == gate.PASS || res.Verdict == gate.FAIL) {
		code = exitOK // the slice ran: the verdict is the merge's (a red baseline is FAIL already)
	}
	if res.Cached > 0 && !f.timings {
		// How many outcomes came from the cache is this run's, not the
		// verdict's: a note on stderr, in the output with --timings.
		fmt.Fprintf(stderr, "oracle gate: %d of %d mutants from the cache (.oracle/; --no-cache runs them all)\n", res.Cached, len(res.Mutants))
	}
	if f.json {
		if err := writeJSON(stdout, newGateDoc(res, f.timings)); err != nil {
			return err
		}
	} else {
		writeGateText(stdout, res, f.timings)
		if inGitHubActions() {
			annotateGate(stdout, res)
		}
	}
	if code != exitOK {
		return &exitStatus{code: code}
	}
	return nil
}

// writeGateFiles writes --report, --html, --summary and --sarif (when
// given) of a gate's result, reading the sources from root.
func writeGateFiles(res *gate.Result, root, report, htmlOut string, outs results) error {
	if err := outs.write(gateSummary(res), func() ([]byte, error) { return gateSARIF(res) }); err != nil {
		return err
	}
	if report != "" {
		data, err := res.Report(root)
		if err == nil {
			err = os.WriteFile(report, append(data, '\n'), 0o644)
		}
		if err != nil {
			return fmt.Errorf("--report: %w", err)
		}
	}
	if htmlOut != "" {
		if err := os.WriteFile(htmlOut, res.HTML(root), 0o644); err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	return nil
}

// writeGateText prints the line a loop appends to its log, then what the
// next worker strengthens: each surviving mutant with its place, operator
// and diff; and the targets skipped, with why. With timings, how many
// mutants came from the cache.
func writeGateText(w io.Writer, res *gate.Result, timings bool) {
	switch {
	case res.Shard != "" && res.Identity != nil && res.Attribution == "" && res.Verdict != gate.ERROR:
		// A shard: its slice ran; the verdict is oracle gate merge's.
		ran := len(res.Mutants)
		if ran == 0 && res.Identity.Mutants > 0 {
			fmt.Fprintf(w, "GATE SHARD %s: empty, no mutant in this shard (%d in the whole gate, fewer than the shards); merge it with the others for the verdict\n", res.Shard, res.Identity.Mutants)
		} else {
			sc, th := gate.Figures(res.Score, res.Threshold)
			fmt.Fprintf(w, "GATE SHARD %s: %d of %d mutants ran (this slice alone: %s %s%% (%d/%d) threshold %s); oracle gate merge of every shard gives the verdict\n",
				res.Shard, ran, res.Identity.Mutants, res.Verdict, sc, res.Detected, res.Total, th)
		}
	case res.Verdict == gate.PASS || res.Verdict == gate.FAIL && res.Attribution == "":
		// The figures as compared: never "FAIL 74% ... threshold 74".
		sc, th := gate.Figures(res.Score, res.Threshold)
		scope := res.ScopeText()
		if scope != "" {
			scope = " " + scope
		}
		fmt.Fprintf(w, "GATE %s %s%% (%d/%d)%s threshold %s\n", res.Verdict, sc, res.Detected, res.Total, scope, th)
		if res.Verdict == gate.FAIL && res.Reason != "" {
			fmt.Fprintf(w, "  %s\n", res.Reason)
		}
		if res.Timings.HitLimits > 0 {
			fmt.Fprintf(w, "  %d mutant(s) ran past the hit limit (a loop that does not end): timeout\n", res.Timings.HitLimits)
		}
	default:
		attr := ""
		if res.Attribution != "" {
			attr = " (attribution: " + res.Attribution + ")"
		}
		fmt.Fprintf(w, "GATE %s%s: %s\n", res.Verdict, attr, res.Reason)
	}
	if timings {
		writeGateTimings(w, res)
	}
	if res.Change != nil {
		fmt.Fprintf(w, "  the change: %s\n", res.Change.Describe())
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, f := range res.Files {
		sc, _ := gate.Figures(f.Score, res.Threshold)
		fmt.Fprintf(w, "  %s %s%% (%d/%d)\n", f.File, sc, f.Detected, f.Total)
	}
	for _, t := range res.Targets {
		if t.Skipped != "" {
			fmt.Fprintf(w, "  skipped %s: %s\n", t.ID, t.Skipped)
		}
	}
	for _, m := range res.Mutants {
		if !m.Open() {
			continue
		}
		fmt.Fprintf(w, "\n%s %s:%d:%d %s (%s)\n%s", m.Outcome, m.File, m.Line, m.Column, m.Operator, m.Target, m.Diff)
	}
}

// writeGateTimings prints this run's measures (--timings): how many
// mutants came from the cache, where the time went, the mutants that ran
// alone (per reason) and the slowest.
func writeGateTimings(w io.Writer, res *gate.Result) {
	t := res.Timings
	if res.Cached > 0 {
		fmt.Fprintf(w, "  %d of %d mutants from the cache (.oracle/; --no-cache runs them all)\n", res.Cached, len(res.Mutants))
	}
	fmt.Fprintf(w, "  timings: %.1fs: setup %.1fs, sandbox %.1fs, baselines %.1fs, batches %.1fs, alone %.1fs\n", res.Seconds, t.Setup, t.Sandbox, t.Baseline, t.Batches, t.Alone)
	if t.RanAlone > 0 {
		var why []string
		for _, r := range slices.Sorted(maps.Keys(t.AloneWhy)) {
			why = append(why, fmt.Sprintf("%d %s", t.AloneWhy[r], r))
		}
		fmt.Fprintf(w, "  ran alone: %d (%s)\n", t.RanAlone, strings.Join(why, "; "))
	}
	for _, r := range t.Refused {
		writeRefused(w, "  ", r.Test, r.Why, r.Detail)
	}
	if len(t.Slowest) > 0 {
		var slow []string
		for _, m := range t.Slowest {
			slow = append(slow, fmt.Sprintf("%s %.1fs (%s)", m.ID, m.Seconds, m.Outcome))
		}
		fmt.Fprintf(w, "  slowest: %s\n", strings.Join(slow, ", "))
	}
}

// writeRefused prints, after indent, the line of a batch whose results
// were not used (--timings): its test file, why, and what its run said.
func writeRefused(w io.Writer, indent, test, why, detail string) {
	line := fmt.Sprintf("%sbatch of %s not used: %s", indent, test, why)
	if detail != "" {
		line += ": " + detail
	}
	fmt.Fprintln(w, line)
}

// runGateMerge is `oracle gate merge SHARD.json...`: the shards' --json
// documents joined into one decision, printed as a gate prints it.
func runGateMerge(_ context.Context, args []string, stdout, stderr io.Writer) error {
	v := newVerb("gate merge", "gate merge [--json] [--report FILE] [--html FILE] [--summary FILE] [--sarif FILE] [--root DIR] SHARD.json...", "oracle.gate/v1", stderr)
	report := v.fs.String("report", "", "also write the merged mutation-testing-report-schema report (Stryker's viewer) to `FILE` (the sources are read from the repository root)")
	htmlOut := v.fs.String("html", "", "also write the merged self-contained HTML page to `FILE`")
	outs := resultFlags(v)
	files, root, err := v.parse(args, -1)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return &exitStatus{code: exitUsage, msg: "give the --json documents of the shards"}
	}
	var parts []gate.Part
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return &exitStatus{code: exitUsage, msg: err.Error()}
		}
		var doc struct {
			Schema string `json:"schema"`
			gate.Result
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.Schema != "oracle.gate/v1" {
			return &exitStatus{code: exitUsage, msg: f + " is not an oracle.gate/v1 document"}
		}
		r := doc.Result
		parts = append(parts, gate.Part{Name: f, Result: &r})
	}
	res, err := gate.Merge(parts)
	if err != nil {
		return &exitStatus{code: exitUsage, msg: err.Error()}
	}
	if err := writeGateFiles(res, root, *report, *htmlOut, outs); err != nil {
		return err
	}
	code := gateExit[res.Verdict]
	if *v.json {
		if err := writeJSON(stdout, newGateDoc(res, false)); err != nil {
			return err
		}
		return exited(code)
	}
	writeGateText(stdout, res, false)
	if inGitHubActions() {
		annotateGate(stdout, res)
	}
	return exited(code)
}
