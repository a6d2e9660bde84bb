package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/internal/atomicfile"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/manifest"
	"github.com/oracle-ts/oracle/mutate/sandbox"
	"github.com/oracle-ts/oracle/testsuite"
)

type auditDoc struct {
	Schema   string          `json:"schema"`
	Findings []audit.Finding `json:"findings"`
	Counts   map[string]int  `json:"counts"`
	Static   bool            `json:"static"`
	Notes    []string        `json:"notes,omitempty"`
	Change   *change.Origin  `json:"change,omitempty"`  // with --base: the commits, and whether the working tree was the change
	Timings  *audit.Timings  `json:"timings,omitempty"` // with --timings
	// Tables: with --tables, the validator's three tables (the rows of
	// the Markdown file).
	Tables *audit.Tables `json:"tables,omitempty"`
}

// auditFail ends the audit on an error with code: "oracle audit: msg" on
// stderr, and with --json the one entry of errors[].
func auditFail(code int, format string, a ...any) error {
	return &exitStatus{code: code, msg: fmt.Sprintf(format, a...)}
}

// auditRun is what audit's flags and arguments ask for, checked.
type auditRun struct {
	root      string
	opts      audit.Options
	origin    *change.Origin // with --base
	static    bool
	json      bool
	timings   bool
	tablesOut string
	manifests []string // with --tables: the ticket manifests (ticketManifests)
	outs      results
}

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseAudit(args, stderr)
	if err != nil {
		return err
	}
	a.opts.Jest = jestInstead(a.root)
	if !a.static {
		r := suiteRunner(a.root, 1) // jest's on a jest repository, else one long-lived vitest
		defer r.Close()
		defer context.AfterFunc(ctx, func() { r.Close() })()
		defer sandbox.CloseAll()
		sandbox.SweepStale("", 0)
		a.opts.Runner = r
	}
	var reqs []requirement
	if a.opts.Tables {
		reqs = readRequirements(ctx, a.root, a.manifests) // every manifest read and checked before any test runs
	}
	rep, err := measureAudit(ctx, a, stderr)
	if err != nil {
		return err
	}
	if err := a.outs.write(auditSummary(rep.Findings), func() ([]byte, error) { return auditSARIF(rep.Findings) }); err != nil {
		return auditFail(exitError, "%v", err)
	}
	counts, code := countFindings(rep.Findings)
	if rep.Tables != nil {
		failed, err := writeTables(ctx, a, reqs, rep.Tables)
		if err != nil {
			return err
		}
		if failed {
			code = exitFail
		}
	}
	if a.json {
		doc := auditDoc{Schema: "oracle.audit/v1", Findings: rep.Findings, Counts: counts, Static: rep.Static, Notes: rep.Notes, Change: a.origin, Tables: rep.Tables}
		if a.timings {
			doc.Timings = &rep.Timings
		}
		if doc.Findings == nil {
			doc.Findings = []audit.Finding{}
		}
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
		return exited(code)
	}
	printAudit(stdout, rep, counts, a)
	return exited(code)
}

// parseAudit reads audit's flags and arguments and checks them (the files
// to write, --config, --tables and --tickets, --enable, the paths, the
// change of --base) before anything runs.
func parseAudit(args []string, stderr io.Writer) (*auditRun, error) {
	v := newVerb("audit", "audit [--json] [--timings] [--summary FILE] [--sarif FILE] [--base REV [--worktree]] [--enable RULE,...] [--static] [--config FILE] [--tables FILE.md [--tickets DIR]] [--root DIR] [PATH...]", "oracle.audit/v1", stderr)
	base := v.fs.String("base", "", "functions the change `git diff --merge-base REV HEAD` touched make an error when blind (the rest warnings)")
	worktree := v.fs.Bool("worktree", false, "with --base: take the working tree as the change; by default the change is as committed at HEAD and a working tree that differs in a file of it is refused")
	timings := v.timingsFlag()
	outs := resultFlags(v)
	enable := v.fs.String("enable", "", "turn on sub-rules that are off by default, comma-separated: `vacuous-test/no-assertion`")
	static := v.fs.Bool("static", false, "decide blind-function from the code alone, without running the tests (fast; a function reached only in ways the walk does not see is reported blind)")
	config := v.fs.String("config", "", "the vitest config `FILE` (default: the one the test script of package.json names, else vitest's own search)")
	tablesOut := v.fs.String("tables", "", "write the validator's three tables (requirements, cross-component with the mock-swap run, test integrity) to `FILE.md`; exit 1 when a cell is FAIL")
	tickets := v.fs.String("tickets", "", "with --tables: the ticket manifests of the requirements table, a `DIR` (default: every manifest under tickets/)")
	pos, root, err := v.parse(args, -1)
	if err != nil {
		return nil, err
	}
	for _, out := range [][2]string{{"--summary", *outs.summary}, {"--sarif", *outs.sarif}} {
		if err := checkWritable(out[0], out[1]); err != nil { // before any run
			return nil, auditFail(exitUsage, "%v", err)
		}
	}
	cfg, err := manifest.LoadConfig(root)
	if err != nil {
		return nil, inputError(err)
	}
	if *config != "" {
		rel, err := existingRepoFile(root, *config)
		if err != nil {
			return nil, auditFail(exitUsage, "--config: %v", err)
		}
		*config = rel
	}
	opts := audit.Options{Config: *config, Tables: *tablesOut != ""}
	if *tickets != "" && *tablesOut == "" {
		return nil, auditFail(exitUsage, "--tickets needs --tables FILE.md")
	}
	var manifests []string
	if *tablesOut != "" {
		if fi, err := os.Stat(filepath.Dir(*tablesOut)); err != nil || !fi.IsDir() {
			return nil, auditFail(exitUsage, "--tables %s: no directory %s to write it in", *tablesOut, filepath.Dir(*tablesOut))
		}
		if err := checkWritable("--tables", *tablesOut); err != nil {
			return nil, auditFail(exitUsage, "%v", err)
		}
		if manifests, err = ticketManifests(root, *tickets); err != nil {
			return nil, auditFail(exitUsage, "%v", err)
		}
	}
	for _, e := range strings.Split(*enable, ",") {
		if e = strings.TrimSpace(e); e != "" {
			opts.Enable = append(opts.Enable, e)
		}
	}
	if err := audit.CheckEnable(opts.Enable); err != nil {
		return nil, auditFail(exitUsage, "%v", err)
	}
	for _, fx := range cfg.Fixtures {
		opts.Fixtures = append(opts.Fixtures, fx.File)
	}
	for _, p := range pos {
		rel, err := repoRel(root, p)
		if err != nil {
			return nil, auditFail(exitUsage, "%v", err)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			return nil, auditFail(exitUsage, "%s: no such file or directory in the repository %s", p, root)
		}
		opts.Paths = append(opts.Paths, rel)
	}
	a := &auditRun{root: root, static: *static, json: *v.json, timings: *timings, tablesOut: *tablesOut, manifests: manifests, outs: outs}
	if *base != "" {
		ch, o, err := change.Git(root, *base, *worktree)
		var ue *change.UsageError
		if errors.As(err, &ue) {
			return nil, auditFail(exitUsage, "%s", ue.Msg)
		}
		if err != nil {
			return nil, auditFail(exitError, "%v", err)
		}
		opts.Change = ch
		a.origin = o
	}
	a.opts = opts
	return a, nil
}

// measureAudit runs the audit, its progress on stderr.
func measureAudit(ctx context.Context, a *auditRun, stderr io.Writer) (*audit.Report, error) {
	line := progressLine(stderr, !a.json, "audit")
	if a.static {
		line.step("static", "reading the code and the test suite")
	} else {
		swap := ""
		if a.opts.Tables {
			swap = ", then the mock-swap (the test files with their mocks, then the mocked ones with the real modules) and the requirements' proofs"
		}
		line.step("measure", "reading the code and the test suite, then running the candidate test files once with markers%s", swap)
	}
	rep, err := audit.Audit(ctx, a.root, a.opts)
	line.clear()
	if ctx.Err() != nil {
		return nil, ctx.Err() // runVerb reports the interrupt
	}
	var ce *testsuite.ConfigError
	if errors.As(err, &ce) {
		return nil, auditFail(exitUsage, "%v", err) // the repository's configuration (exit 2), not the environment
	}
	if err != nil {
		return nil, auditFail(exitError, "%v", err)
	}
	return rep, nil
}

// countFindings counts the findings by rule and by severity (the ignored
// ones apart) and returns the exit code they make.
func countFindings(findings []audit.Finding) (map[string]int, int) {
	code := exitOK
	counts := map[string]int{}
	for _, f := range findings {
		if f.Ignored != "" {
			counts["ignored"]++
			continue
		}
		counts[f.Rule]++
		counts[string(f.Severity)]++
		if f.Severity == audit.Error {
			code = exitFail
		}
	}
	return counts, code
}

// writeTables completes the requirements table read before the runs (the
// proofs) and writes the tables to --tables; failed when a cell is FAIL.
func writeTables(ctx context.Context, a *auditRun, reqs []requirement, tables *audit.Tables) (failed bool, err error) {
	rows, err := proveRequirements(ctx, a.root, reqs, a.opts.Runner)
	if err != nil {
		return false, err // the interrupt: runVerb reports it
	}
	tables.Requirements = rows
	var md strings.Builder
	if err := tables.WriteMarkdown(&md); err != nil {
		return false, auditFail(exitError, "%v", err)
	}
	if err := atomicfile.Write(a.tablesOut, []byte(md.String()), 0o644); err != nil {
		return false, auditFail(exitError, "--tables: %v", err)
	}
	return tables.Failed(), nil
}

// printAudit prints the audit as text: the findings by rule (with GitHub
// annotations in Actions), the summary line, the tables' and the change's.
func printAudit(stdout io.Writer, rep *audit.Report, counts map[string]int, a *auditRun) {
	if rep.Static {
		fmt.Fprintln(stdout, "static audit: blind-function decided from the code alone, no test ran")
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(stdout, "  note: %s\n", n)
	}
	rule := ""
	for _, f := range rep.Findings {
		if f.Rule != rule {
			if rule != "" {
				fmt.Fprintln(stdout)
			}
			rule = f.Rule
			fmt.Fprintf(stdout, "%s (%d)\n", rule, counts[rule])
		}
		ign := ""
		if f.Ignored != "" {
			ign = " [ignored: " + f.Ignored + "]"
		}
		fmt.Fprintf(stdout, "  %s %s:%d %s%s\n", f.Severity, f.File, f.Line, f.Message, ign)
		if inGitHubActions() && f.Ignored == "" {
			kind := "warning"
			if f.Severity == audit.Error {
				kind = "error"
			}
			fmt.Fprintln(stdout, "::"+kind+annotation(f.File, f.Line, f.Rule+": "+f.Message)[len("::error"):])
		}
	}
	summary := fmt.Sprintf("AUDIT %d error(s), %d warning(s), %d ignored", counts["error"], counts["warning"], counts["ignored"])
	if counts["info"] > 0 {
		summary += fmt.Sprintf(", %d info", counts["info"])
	}
	if counts[audit.CannotAudit] > 0 {
		summary += fmt.Sprintf(", %d test file(s) cannot be audited", counts[audit.CannotAudit])
	}
	if counts[audit.CannotMeasure] > 0 {
		summary += fmt.Sprintf(", %d function(s) cannot be measured (a test file that may run them could not run)", counts[audit.CannotMeasure])
	}
	fmt.Fprintln(stdout, summary)
	if a.timings {
		writeAuditTimings(stdout, rep.Timings)
	}
	if rep.Tables != nil {
		n := rep.Tables.Count()
		fmt.Fprintf(stdout, "TABLES %d PASS, %d FAIL, %d UNKNOWN written to %s\n", n[audit.CellPass], n[audit.CellFail], n[audit.CellUnknown], a.tablesOut)
		for _, f := range rep.Tables.Failures() {
			fmt.Fprintf(stdout, "  FAIL %s\n", f)
		}
	}
	if a.origin != nil {
		fmt.Fprintf(stdout, "  the change: %s\n", a.origin.Describe())
	}
}

// writeAuditTimings prints this run's measures (--timings): where the time
// went, and how many vitest runs measured the suite (and the tables' swap).
func writeAuditTimings(w io.Writer, t audit.Timings) {
	fmt.Fprintf(w, "  timings: suite %.1fs, walk %.1fs, sandbox %.1fs, measure %.1fs (%d runs), rules %.1fs", t.Suite, t.Walk, t.Sandbox, t.Measure, t.Runs, t.Rules)
	if t.SwapRuns > 0 {
		fmt.Fprintf(w, ", swap %.1fs (%d runs)", t.Swap, t.SwapRuns)
	}
	fmt.Fprintln(w)
}
