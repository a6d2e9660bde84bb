// Package gate is `oracle gate`, the task-scoped mutation gate (SPEC "oracle
// gate"): from a change alone (internal/change: git, or a list of files) it
// finds the functions the change touched (testsuite.TouchedFunctions) and
// the top-level code it wrote (<file>#<module>), mutates the code the change
// wrote in them (change.CodeTokens, change.Counts; the gate's operators of
// mutate/operators), runs them against the test files measured to execute
// each function (testsuite's candidates, entered by the lab's probes), on
// the engine `prove` uses (mutate/lab: sandbox, runner, outcome rules), and
// scores them against a threshold: PASS, FAIL or SKIP a pipeline can route
// on. Run is stages over one list of jobs: targets, mutants, shard, cache,
// lab, score; Merge joins the shards (merge.go, shard.go).
package gate

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/internal/jsonorder"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/report"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
	"github.com/oracle-ts/oracle/testsuite"
)

// Verdict of the gate: the lab's verdicts, typed beside the outcomes.
type Verdict = lab.Verdict

// Verdicts of the gate.
const (
	PASS  = lab.PASS
	FAIL  = lab.FAIL
	SKIP  = lab.SKIP
	ERROR = lab.ERROR
)

// Options tune a gate run.
type Options struct {
	Threshold float64 // percent; a file scoring below fails the gate
	Tests     []string
	Fixtures  []string
	Arid      Arid
	Runner    runner.Runner
	Isolate   bool
	// Concurrency is how many mutants run alone at once, each in a sandbox
	// of its own (0 or 1: one sandbox).
	Concurrency int
	// Progress, when set, hears of every run before it starts (Done and
	// Total count mutants).
	Progress func(lab.Event)
	// NoCache ignores (and does not write) the result cache.
	NoCache bool
	// Shard is the shard of the gate's mutants to run (the zero Shard:
	// all of them).
	Shard Shard
	// Scope is where mutants go: ScopeLines (the default) the code the
	// change wrote (a token diff; a list of files: all of them),
	// ScopeFunction the whole of every touched function.
	Scope string
	// Config is the vitest config file (--config), "" for vitest's own.
	Config string
	// Origin is where the change was read (change.Git: the commits, and
	// whether the working tree is the change); nil for a list of files.
	Origin *change.Origin
	// Version is oracle's (its release and a digest of its executable): an
	// input of the cache key and of a shard's identity.
	Version string
	// BaselineTimeout bounds the run of each candidate test file on the
	// unmutated code (0: a bound derived from the other candidates'
	// baselines, base.go's baselineBound); one that does not end within it
	// makes the verdict ERROR, naming it.
	BaselineTimeout time.Duration
	// Untested is what a target that no test executes makes of the
	// verdict: UntestedSkip (the default: it is skipped, with the reason)
	// or UntestedFail (FAIL, attribution untested).
	Untested string
	// DryRun stops the gate once the lab has planned the mutants
	// (Result.Plan): the baselines and coverage runs run, no mutant does,
	// and nothing is cached.
	DryRun bool
}

// What --untested makes of a target no test executes.
const (
	UntestedSkip = "skip"
	UntestedFail = "fail"
)

// AttributionUntested: a FAIL because a target is executed by no test
// (--untested fail).
const AttributionUntested = "untested"

// DefaultBaselineTimeout is the floor of a candidate's baseline bound
// (base.go's baselineBound: ten times the slowest other candidate's
// baseline, at least this, at most BaselineCeiling), and the bound of the
// joint run of them all: far past what a test file of a unit suite takes,
// and short of the quarter of an hour a test file hanging at import used to
// cost.
const DefaultBaselineTimeout = 2 * time.Minute

// BaselineTimeoutEnv names the variable that sets Options.BaselineTimeout
// from the command line (a Go duration: "90s", "5m").
const BaselineTimeoutEnv = "ORACLE_BASELINE_TIMEOUT"

// minutes says d for a message: "2 minutes", "1.5 minutes", "3 seconds".
func minutes(d time.Duration) string {
	if d >= time.Minute {
		if d == time.Minute {
			return "1 minute"
		}
		return strconv.FormatFloat(d.Minutes(), 'f', -1, 64) + " minutes"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " seconds"
}

// Scopes of the gate's mutants.
const (
	ScopeLines    = "lines"
	ScopeFunction = "function"
)

func (o Options) scope() string {
	if o.Scope == "" {
		return ScopeLines
	}
	return o.Scope
}

// Target is one function the change touched.
type Target struct {
	ID      string   `json:"id"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Tests   []string `json:"tests"`             // the related test files
	Skipped string   `json:"skipped,omitempty"` // why it was not mutation-tested
}

// Mutant is one mutant and its outcome: the outcome its run decided, or
// the cache kept of that run (the same record, byte for byte in every
// document).
type Mutant struct {
	ID          string `json:"id"`
	Target      string `json:"target"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Column      int    `json:"column"` // UTF-16 code units, 1-based, as the report format counts
	EndLine     int    `json:"endLine"`
	EndColumn   int    `json:"endColumn"` // exclusive
	Operator    string `json:"mutatorName"`
	Replacement string `json:"replacement"`
	Diff        string `json:"diff,omitempty"`
	// Decision is its outcome, its detail, the test file that decided a
	// kill (KilledBy) and the test of it (KilledByTest: a TestCase.ID of
	// Result.Tests), the related test files whose coverage run reached it
	// (CoveredBy: all of them when its code could not be marked) and why
	// it ran alone (AloneWhy: from the cache, the reason of the run that
	// decided it).
	lab.Decision
}

// mutantKeys are a Mutant's members in the order of the oracle.gate/v1
// document (the diff after the outcome's detail, before who killed it).
var mutantKeys = []string{"id", "target", "file", "line", "column", "endLine", "endColumn", "mutatorName", "replacement",
	"outcome", "detail", "diff", "killedBy", "killedByTest", "coveredBy", "aloneWhy"}

// MarshalJSON writes m's members in the document's order (mutantKeys).
func (m Mutant) MarshalJSON() ([]byte, error) {
	type plain Mutant
	return jsonorder.Marshal(plain(m), mutantKeys)
}

// Open reports whether m is what the next worker strengthens: a survivor,
// or a mutant no related test reached.
func (m Mutant) Open() bool { return m.Outcome.Open() }

// TestCase is one test (an it) of a related test file, as its baseline ran
// it: ID is the file and Name joined by " > ", unique in the gate; Name the
// describe titles and its own title joined by " > "; Line where it is
// declared (0 when vitest did not say).
type TestCase struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Line int    `json:"line,omitempty"`
	// FullName is vitest's full name of the test (the titles joined by
	// spaces): how a run names the test that failed.
	FullName string `json:"fullName"`
}

// FileScore is the score of one target file.
type FileScore struct {
	File     string  `json:"file"`
	Score    float64 `json:"score"` // percent
	Detected int     `json:"detected"`
	Total    int     `json:"total"` // detected + survived + no-coverage
	Errors   int     `json:"errors"`
}

// Result is the gate's decision.
type Result struct {
	Verdict   Verdict     `json:"verdict"`
	Reason    string      `json:"reason,omitempty"`
	Threshold float64     `json:"threshold"`
	Score     float64     `json:"score"`
	Detected  int         `json:"detected"`
	Total     int         `json:"total"`
	Files     []FileScore `json:"files"`
	Targets   []Target    `json:"targets"`
	Mutants   []Mutant    `json:"mutants"`
	Seconds   float64     `json:"seconds"`
	Shard     string      `json:"shard,omitempty"` // "K/N" when one shard ran
	// Scope is where the mutants were placed: "lines" (the lines the change
	// added or modified) or "function" (the whole touched functions).
	Scope string `json:"scope"`
	// Changed are the lines that hold the tokens the change wrote in the
	// target files (1-based, inclusive ranges), by file; nil for a file
	// counted whole.
	Changed map[string][][2]int `json:"changed,omitempty"`
	Cached  int                 `json:"cached"` // mutants whose outcome came from the cache
	Timings Timings             `json:"timings"`
	// Attribution of a FAIL or ERROR: AttributionTests when a candidate
	// test file fails on the unmutated code and not the same way at the
	// base (no mutant is judged then); AttributionUntested when a target no
	// test executes fails the gate (--untested fail).
	Attribution string         `json:"attribution,omitempty"`
	Change      *change.Origin `json:"change,omitempty"`   // where the change was read
	Identity    *Identity      `json:"identity,omitempty"` // what makes shards one set (shard.go)
	Notes       []string       `json:"notes,omitempty"`    // what the run could not do (the cache not writable)
	// Unexecuted counts the mutants left out because their target turned
	// out to be executed by no test (it is skipped): with the mutants, they
	// add up to the gate's (a shard's) whole list.
	Unexecuted int `json:"unexecuted,omitempty"`
	// Tests are the tests of each related test file, as its baseline ran
	// them, in their order.
	Tests map[string][]TestCase `json:"tests,omitempty"`
	// Plan is the lab's plan for the mutants left to run (the cached ones
	// Cached counts are not in it) when Options.DryRun stopped the gate
	// there: no verdict was reached (Verdict ""), unless the baselines
	// decided one (a red suite, a test file past its bound).
	Plan *lab.Plan `json:"-"`
	// sources are the target files and their candidate test files as the
	// targets stage read them, for the report and the page (a merged
	// result has none: they are read from the checkout).
	sources map[string][]byte
}

// noCodeReason is why a change with no code token SKIPs.
const noCodeReason = "the change touches no code (only comments, whitespace, type syntax or file names changed)"

// codeTokens is the token diff of every TypeScript file of ch (nil, nil
// for a list of files, which has no base).
func codeTokens(root string, ch change.Change, opts Options) (change.Tokens, change.Bases, error) {
	if opts.Origin == nil {
		return nil, nil, nil
	}
	ts := change.Change{}
	for f, r := range ch {
		if _, ok := analyzer.LangFor(f); ok {
			ts[f] = r
		}
	}
	if len(ts) == 0 {
		return nil, nil, nil
	}
	return change.CodeChange(root, opts.Origin, ts)
}

// AttributionTests: a related test fails before any mutant (SPEC "oracle
// gate": FAIL, exit 1).
const AttributionTests = "tests"

// Timings say where a gate's time went, in seconds: finding the change's
// functions and their tests (vitest list, the graph), copying the sandbox,
// the baselines (coverage runs), the batched runs, and the mutants run
// alone (RanAlone of them: what a batch could not establish).
type Timings struct {
	Setup    float64 `json:"setup"`
	Sandbox  float64 `json:"sandbox"`
	Baseline float64 `json:"baseline"`
	Batches  float64 `json:"batches"`
	Alone    float64 `json:"alone"`
	RanAlone int     `json:"ranAlone"`
	// HitLimits: mutants that ran past the hit limit (timeouts); Slowest:
	// the slowest mutant runs, slowest first (lab.SlowestKept).
	HitLimits int          `json:"hitLimits"`
	Slowest   []SlowMutant `json:"slowest"`
	// AloneWhy counts the mutants that ran alone, per reason (a mutant's
	// aloneWhy).
	AloneWhy map[string]int `json:"aloneWhy"`
	// Refused are the batches whose results were not used (their mutants
	// ran alone): the test file, why, and what the run said (the baseline
	// test that failed in the batch and its failure, the unhandled error).
	Refused []lab.Refusal `json:"refusedBatches"`
}

// SlowMutant is one of the slowest mutant runs, in seconds.
type SlowMutant struct {
	ID      string      `json:"id"`
	Outcome lab.Outcome `json:"outcome"`
	Seconds float64     `json:"seconds"`
}

// Run decides the gate for a change of the repository at root, in stages
// over one list of jobs (a job is a touched function and its mutants):
// targets (the functions the change touched, and the test files that may
// run them) → mutants (on the changed lines, or the whole function) →
// shard → cached or not → the lab (the candidates' baselines measure which
// of them execute each target; the mutants run against those) → score.
func Run(ctx context.Context, root string, ch change.Change, opts Options) (*Result, error) {
	start := time.Now()
	res := &Result{Threshold: opts.Threshold, Files: []FileScore{}, Targets: []Target{}, Mutants: []Mutant{}, Scope: opts.scope(), Change: opts.Origin,
		Timings: Timings{Slowest: []SlowMutant{}, AloneWhy: map[string]int{}, Refused: []lab.Refusal{}}}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	// The token diff first: a change of comments, whitespace or types only
	// SKIPs before vitest is asked anything (its config probe is most of a
	// small gate's setup).
	allToks, allBases, err := codeTokens(root, ch, opts)
	if err != nil {
		return nil, err
	}
	if allToks != nil && !allToks.Any() {
		res.Identity = identity(ch, opts, opts.scope(), newMutantList())
		res.Verdict, res.Reason = SKIP, noCode(allBases, slices.Sorted(maps.Keys(allBases)))
		untested(res, opts)
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	suite, err := testsuite.Load(p, testsuite.Options{Config: opts.Config, Tests: opts.Tests, Fixtures: opts.Fixtures, KeepWarm: runner.WarmOffer(opts.Runner), Stop: ctx.Done(), TypeTests: true})
	if err != nil {
		return nil, err
	}
	opts.Config = suite.Config // the test script's, when --config is not given
	// The probe's node said whether it has what the markers need: no node -e to ask again.
	runner.KnowMarkerSupport(suite.Node.Version, suite.Node.Builtin)
	if suite.ConfigNote != "" {
		res.Notes = append(res.Notes, suite.ConfigNote)
	}
	res.Shard = opts.Shard.String()
	for i, pr := range suite.Problems {
		if i == 3 {
			res.Notes = append(res.Notes, fmt.Sprintf("%d more test files cannot run here", len(suite.Problems)-3))
			break
		}
		res.Notes = append(res.Notes, fmt.Sprintf("%s:%d is not counted: %s", pr.File, pr.Line, pr.Reason))
	}
	// The code the change wrote, token by token (a list of files: all of
	// them).
	var toks change.Tokens
	var bases change.Bases
	if opts.Origin != nil {
		toks, bases = change.Tokens{}, change.Bases{}
		for f := range ch {
			if suite.IsProduction(f) {
				if t, ok := allToks[f]; ok {
					toks[f] = t
				}
				if b, ok := allBases[f]; ok {
					bases[f] = b
				}
			}
		}
		withoutInSourceTests(root, toks)
	}
	jobs, sources, why := targets(p, suite, ch, toks, bases, opts, res)
	var planned []*mutant
	if why == "" {
		var notes []string
		planned, res.Identity, notes = mutants(jobs, sources, ch, toks, bases, opts)
		res.Notes = append(res.Notes, notes...)
	}
	if why != "" {
		res.Identity = identity(ch, opts, opts.scope(), newMutantList())
		res.Verdict, res.Reason = SKIP, why
		untested(res, opts)
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	res.Timings.Setup = time.Since(start).Seconds()
	res.Changed, res.sources = map[string][][2]int{}, sources
	for _, j := range jobs {
		file := j.target.File
		res.Changed[file] = ch[file]
		if toks != nil {
			res.Changed[file] = toks.Lines(file, sources[file])
		}
	}
	if err := execute(ctx, suite, jobs, planned, opts, res); err != nil {
		return nil, err
	}
	if res.Verdict == "" && res.Plan == nil {
		score(res)
		if res.Total == 0 {
			res.Verdict, res.Reason = SKIP, noMutantReason(res, len(planned))
		}
		untested(res, opts)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// noMutantReason is why a gate (a shard) that scored no mutant skips: its
// shard is empty (planned none of the gate's mutants), its targets were
// skipped (no test executes them: why), or no mutant could be built.
func noMutantReason(res *Result, planned int) string {
	if id := res.Identity; planned == 0 && res.Shard != "" && id != nil && id.Mutants > 0 {
		return fmt.Sprintf("shard %s is empty: none of the gate's %d mutants is in it (fewer mutants than shards); oracle gate merge of every shard gives the verdict", res.Shard, id.Mutants)
	}
	if reason := skippedReason(res.Targets); reason != "" {
		return reason
	}
	errs, first := 0, ""
	for _, m := range res.Mutants {
		if m.Outcome == lab.Error {
			errs++
			first = cmp.Or(first, m.ID+": "+m.Detail)
		}
	}
	if errs > 0 && errs == len(res.Mutants) {
		return fmt.Sprintf("every mutant of the change was an error (%d), and errors are never counted: %s", errs, first)
	}
	return "no mutant could be built on what the change touched"
}

// redAtBase begins why a candidate red at the base too runs nothing.
const redAtBase = "red at the base too: "

// untestedPrefix begins the Skipped of a target no test executes.
const untestedPrefix = "no test executes it"

// Untested says whether t is skipped because no test executes it: what
// --untested fail counts (not a target that could not be measured).
func (t Target) Untested() bool { return strings.HasPrefix(t.Skipped, untestedPrefix) }

// untested applies --untested fail: a PASS or SKIP with a target that no
// test executes is a FAIL, attribution untested, naming the target.
func untested(res *Result, opts Options) {
	if opts.Untested != UntestedFail || (res.Verdict != PASS && res.Verdict != SKIP) {
		return
	}
	var ids []string
	for _, t := range res.Targets {
		if t.Untested() {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	first := res.Targets[slices.IndexFunc(res.Targets, func(t Target) bool { return t.ID == ids[0] })]
	res.Verdict, res.Attribution = FAIL, AttributionUntested
	res.Reason = fmt.Sprintf("%s is executed by no test (--untested fail): %s", first.ID, strings.TrimPrefix(strings.TrimPrefix(first.Skipped, untestedPrefix), ": "))
	if len(ids) > 1 {
		res.Reason += fmt.Sprintf(" (also untested: %s)", strings.Join(ids[1:], ", "))
	}
}

// ScopeText says what the score is about: "on 2 changed lines" (the lines
// of the target files the change added or modified), or "in 3 functions";
// "" when the result does not say.
func (res *Result) ScopeText() string {
	if res.Scope == ScopeFunction {
		n := 0
		for _, t := range res.Targets {
			if t.Skipped == "" {
				n++
			}
		}
		return "in " + plural(n, "function", "functions")
	}
	if len(res.Changed) == 0 {
		return ""
	}
	lines, whole := 0, 0
	for _, rs := range res.Changed {
		if rs == nil {
			whole++
		}
		for _, r := range rs {
			lines += r[1] - r[0] + 1
		}
	}
	switch {
	case whole == 0:
		return "on " + plural(lines, "changed line", "changed lines")
	case lines == 0:
		return "on " + plural(whole, "whole file", "whole files")
	}
	return "on " + plural(lines, "changed line", "changed lines") + " and " + plural(whole, "whole file", "whole files")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// job is one touched function (or a module's top-level code) on its way
// through the stages.
type job struct {
	target *Target
	fn     *analyzer.Function
	// changed are the spans of the code the change wrote in the target's
	// file (its top-level code's, for a module); nil: the lines of the
	// change decide (a list of files).
	changed []change.Span
	module  bool          // the module's top-level code: fn is the whole program
	entry   uint          // a module's load marker goes there (also a <fields> no marker wraps)
	apart   []change.Span // a module's: the analyzer's functions, whose code is theirs
	// read are the exported names of the base the change deleted that
	// another file of the repository reads (readElsewhere); nil: every
	// exported name is read.
	read map[string]bool
	// root is the repository's directory: whether a module a revert
	// restores an import of is still there.
	root string
}

// probe is the job's probe: its body's entry (a module's load), which the
// baselines watch to say which candidates execute it.
func (j *job) probe() lab.Probe {
	if j.module || j.fn.BodyEndByte <= j.fn.BodyStartByte { // the module's load (a <fields> no marker wraps: targets)
		return lab.Probe{Path: j.target.File, Body: [2]uint{j.entry, j.entry}}
	}
	return lab.Probe{Path: j.target.File, Body: [2]uint{j.fn.BodyStartByte, j.fn.BodyEndByte}}
}

// mutant is one mutant of a job, the one record of it from the mutants
// stage to the result: the edit, its index among the target's mutants (the
// ID keeps it across shards), and its cache key.
type mutant struct {
	job   *job
	edit  edit.Mutant
	index int
	key   string
}

// id is the mutant's ID in the gate (and its job's key in the lab).
func (m *mutant) id() string { return fmt.Sprintf("%s#%d", m.job.target.ID, m.index+1) }

// describe is the mutant's entry in the result before its outcome is
// known: its ID, where it changed src (the original source, in the
// report's UTF-16 columns) and how; covered by its target's test files
// until the lab says which.
func (m *mutant) describe(src []byte) Mutant {
	e := m.edit
	return Mutant{ID: m.id(), Target: m.job.target.ID, File: e.Path,
		Line: e.Original.Start.Line, Column: edit.UTF16Column(src, e.Original.Start.Offset),
		EndLine: e.Original.End.Line, EndColumn: edit.UTF16Column(src, e.Original.End.Offset),
		Operator: string(e.Operator), Replacement: e.Replacement, Diff: e.Diff}
}

// targets is the first stage: the functions of the change's production
// files whose lines it touched, each with its candidate test files (the
// test files that load its module). A function no test loads is skipped
// here with the reason. It returns the jobs, the sources of the target
// files and of their candidates, and why the gate skips when there is
// nothing to do.
func targets(p *callgraph.Program, suite *testsuite.Suite, ch change.Change, toks change.Tokens, bases change.Bases, opts Options, res *Result) ([]*job, map[string][]byte, string) {
	switch {
	case len(ch) == 0 && opts.Origin != nil:
		return nil, nil, "the diff is empty: no file differs from the base"
	case len(ch) == 0:
		return nil, nil, "the list of changed files is empty"
	}
	var prod, test, broken []string
	for _, file := range ch.Files() {
		if _, ok := analyzer.LangFor(file); !ok {
			continue
		}
		if suite.IsProduction(file) {
			prod = append(prod, file)
		} else if _, err := os.Stat(filepath.Join(p.Root(), filepath.FromSlash(file))); err == nil {
			test = append(test, file)
			if suite.Unparsed(file) {
				broken = append(broken, file)
			}
		}
	}
	if len(prod) == 0 {
		if len(test) > 0 {
			return nil, nil, fmt.Sprintf("the change has no production TypeScript (test code only: %s)", strings.Join(test, ", "))
		}
		return nil, nil, "the change has no production TypeScript"
	}
	sources := map[string][]byte{}
	var jobs []*job
	cc := changedCode{lines: ch, modules: map[string]*job{}}
	if toks != nil {
		if cc = codeChanged(p, toks, bases, prod, opts); !cc.code {
			return nil, nil, noCode(bases, prod)
		}
	}
	all := withModules(p.Root(), testsuite.TouchedFunctions(p, cc.lines, prod), cc.modules, toks, prod, cc.read)
	// Each job's target moves into the result, which the job then points
	// at (the capacity holds them all: no append moves them).
	res.Targets = make([]Target, 0, len(all))
	for _, j := range all {
		tg := *j.target
		// A test file the change left unparsable (a syntax error) loads
		// nothing vitest can run, and what it loaded cannot be read from it:
		// a candidate of every target, whose red baseline FAILs the gate
		// (SPEC "A red suite is never PASS or SKIP").
		tg.Tests = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(suite.Candidates(tg.File)), broken...))))
		res.Targets = append(res.Targets, tg)
		j.target = &res.Targets[len(res.Targets)-1]
	}
	for _, j := range all {
		tg := j.target
		if len(tg.Tests) == 0 {
			tg.Skipped = "no test executes it: " + suite.Explain(tg.File)
			continue
		}
		if sources[tg.File] == nil {
			src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(tg.File)))
			if err != nil {
				tg.Skipped = "unreadable: " + err.Error()
				continue
			}
			sources[tg.File] = src
		}
		for _, t := range tg.Tests { // for the report's tests
			if _, ok := sources[t]; !ok {
				sources[t], _ = os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(t)))
			}
		}
		if !j.module && j.fn.BodyEndByte <= j.fn.BodyStartByte {
			// A class's <fields> whose initializers a marker cannot wrap
			// (each an object literal): the module's load stands for it.
			if _, syn := analyzer.ParseSyntax(tg.File, sources[tg.File]); syn != nil {
				_, j.entry = moduleBody(syn, tg.File)
			}
		}
		j.root = p.Root()
		jobs = append(jobs, j)
	}
	switch {
	case len(res.Targets) == 0 && cc.topLevel && len(cc.dead) > 0:
		return nil, nil, fmt.Sprintf("the change changes no behaviour: it deletes declarations nothing in the repository reads (%s), and no other top-level code it wrote has a mutant", strings.Join(cc.dead, "; "))
	case len(res.Targets) == 0 && cc.topLevel:
		return nil, nil, "no mutant could be built on what the change touched: it wrote top-level code no operator changes"
	case len(res.Targets) == 0:
		return nil, nil, "the change touches no function of its TypeScript files"
	case len(jobs) == 0:
		return nil, nil, skippedReason(res.Targets)
	}
	return jobs, sources, ""
}

// noCode is why a change with no code token in files SKIPs: the
// refactors it made, or that it touches no code.
func noCode(bases change.Bases, files []string) string {
	if refs := refactors(bases, files); len(refs) > 0 {
		return fmt.Sprintf("the change changes no behaviour: %s (nothing else but comments, whitespace, type syntax or file names changed)", strings.Join(refs, "; "))
	}
	return noCodeReason
}

// refactors are what the change did in the production files prod that
// changes no behaviour (a function moved, a local renamed: change.Base's
// Refactors), each "file: what".
func refactors(bases change.Bases, prod []string) []string {
	var out []string
	for _, file := range prod {
		if b := bases[file]; b != nil {
			for _, r := range b.Refactors {
				out = append(out, file+": "+r)
			}
		}
	}
	return out
}

// skippedReason is the SKIP reason when every target was skipped.
func skippedReason(ts []Target) string {
	for _, t := range ts {
		if t.Skipped == "" {
			return ""
		}
	}
	if len(ts) == 1 {
		return fmt.Sprintf("%s is not mutation-tested: %s", ts[0].ID, ts[0].Skipped)
	}
	return fmt.Sprintf("no function the change touched is executed by a test (%s: %s)", ts[0].ID, ts[0].Skipped)
}

// mutants is the second stage: each job's mutants (on the lines the change
// wrote, or the whole function with --scope function; then the revert
// mutants of the change's code no operator mutates (operators.Revert); one of
// those that make the same program: the first), then the shard's slice of
// them (the mutants it Selects by their index among all). It returns the
// shard's mutants, the identity of the whole list, which every shard
// records, and notes of the reverts that could not be built.
func mutants(jobs []*job, sources map[string][]byte, ch change.Change, toks change.Tokens, bases change.Bases, opts Options) ([]*mutant, *Identity, []string) {
	list := newMutantList() // every mutant, for the shards' identity
	var out []*mutant
	var notes []string
	global := 0
	progs := newPrograms()
	var parsed string // the file syn is of: a file's jobs come one after another, its tree parsed once
	var syn *analyzer.Syntax
	for _, j := range jobs {
		file := j.target.File
		src := sources[file]
		if file != parsed {
			_, syn = analyzer.ParseSyntax(file, src)
			parsed = file
		}
		progs.Original(file, src, syn) // a mutant that makes it is none
		ms, all := scopedMutants(file, src, syn, j, ch, opts)
		var counted []edit.Mutant // those on the change's code (every mutant of the function may be a target's)
		for _, mu := range ms {
			if opts.scope() == ScopeLines || j.module || j.changed == nil || change.Counts(site(syn, mu.edit), j.changed) {
				counted = append(counted, mu.edit)
			}
		}
		var importable func(spec, name string) bool
		if j.root != "" {
			importable = importableFrom(j.root, file, bases)
		}
		rs, why := reverts(file, src, syn, j, toks[file], counted, bases[file], opts.Arid, importable)
		notes = append(notes, why...)
		for k, m := range rs { // after every operator's mutant: the ids of those stay
			ms = append(ms, &mutant{job: j, edit: m, index: all + k})
		}
		for _, mu := range ms {
			if !progs.Add(mu.edit) {
				continue // the program of a mutant before it, in scope: one mutant
			}
			list.add(j.target.ID, mu.index, mu.edit)
			if opts.Shard.Selects(global) {
				out = append(out, mu)
			}
			global++
		}
	}
	return out, identity(ch, opts, opts.scope(), list), notes
}

// execute is the lab stage: cached outcomes first, then one lab for the
// rest: a baseline (coverage run) per candidate test file, which also
// measures which of them enter each target (a probe in its body). A target
// no candidate executes is skipped with the static walk's explanation, and
// its mutants do not count; the others' mutants run against the test files
// that reached them.
func execute(ctx context.Context, suite *testsuite.Suite, jobs []*job, planned []*mutant, opts Options, res *Result) error {
	root := suite.Program.Root()
	pool := lab.SandboxPool(root, "", max(opts.Concurrency, 1), opts.Runner)
	pool.Config = opts.Config // a workspace's config above the package is placed in each sandbox
	defer pool.Close()
	defer func() { res.Timings.Sandbox = pool.Spent.Seconds() }()
	if _, err := pool.Grow(1); err != nil {
		return err
	}
	if !opts.NoCache && !opts.DryRun { // a dry run reads the cache, writes nothing
		if err := CheckCacheWritable(root); err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("the cache cannot be written (%v): this run's results are not saved", err))
			opts.NoCache = true
		}
	}
	// The cache: an outcome is reused while the mutant, its file and every
	// input of its key (cache.go) are byte for byte what they were. The
	// baselines run even when every mutant is cached: a related test that
	// fails now is a FAIL, never a cached PASS.
	inputs := KeyInputs(suite.Program, suite.SetupFiles, opts.Version)
	if strings.HasPrefix(opts.Config, "../") { // a workspace's config above the package: an input of every run
		inputs.Shared = append(inputs.Shared, opts.Config)
		sort.Strings(inputs.Shared)
	}
	cache := openCache(root, opts.NoCache, inputs)
	hits, left := lookUp(cache, root, planned, res.sources)
	l := newLab(pool, jobs, opts, len(planned), len(hits))
	m, err := measure(ctx, root, l, jobs, left, opts)
	if err != nil || m.stop(res) {
		return err
	}
	lr := m.lr
	if opts.DryRun {
		res.Plan, res.Cached = cmp.Or(lr.Plan, &lab.Plan{}), len(hits)
		res.Notes = append(res.Notes, m.notes...)
		return nil
	}
	res.Notes = append(res.Notes, m.notes...)
	m.timings(res)
	res.Tests = testCases(lr.Baselines)
	for _, t := range lr.Idle {
		m.idle[t] = true
	}
	again, kept := reuse(hits, lr, res.Tests)
	ran, err := m.runAgain(ctx, l, again)
	if err != nil {
		return err
	}
	decided := maps.Clone(kept)
	for _, r := range ran {
		decided[r.mu] = record(r.mu, r.run, res, cache)
	}
	for _, key := range lr.Slowest {
		r := lr.Mutant(key)
		res.Timings.Slowest = append(res.Timings.Slowest, SlowMutant{ID: key, Outcome: r.Outcome, Seconds: r.Duration.Seconds()})
	}
	res.Mutants, res.Unexecuted = attribute(suite, jobs, planned, byJob(planned, decided), lr, m)
	res.Cached = countCached(res.Mutants, planned, kept)
	return cache.save()
}

// byJob are the entries of the mutants decided, by job, in the planned
// order (a fresh run's, whichever came from the cache).
func byJob(planned []*mutant, decided map[*mutant]Mutant) map[*job][]Mutant {
	out := map[*job][]Mutant{}
	for _, mu := range planned {
		if e, ok := decided[mu]; ok {
			out[mu.job] = append(out[mu.job], e)
		}
	}
	return out
}

// countCached is how many of the result's mutants (out) came from the
// cache (kept): never those of a target found unexecuted, which are not
// in the result.
func countCached(out []Mutant, planned []*mutant, kept map[*mutant]Mutant) int {
	in := map[string]bool{}
	for _, e := range out {
		in[e.ID] = true
	}
	n := 0
	for _, mu := range planned {
		if _, ok := kept[mu]; ok && in[mu.id()] {
			n++
		}
	}
	return n
}

// hit is a mutant whose outcome came from the cache.
type hit struct {
	mu    *mutant
	entry Mutant
}

// lookUp keys every mutant (its key in the cache) and splits them into
// those the cache holds an outcome of (hits) and the others.
func lookUp(cache *resultCache, root string, planned []*mutant, sources map[string][]byte) (hits []hit, left []*mutant) {
	for _, mu := range planned {
		tests := mu.job.target.Tests
		mu.key = cache.key(root, mu.edit, tests)
		c, ok := cache.get(mu.key)
		if !ok {
			left = append(left, mu)
			continue
		}
		e := mu.describe(sources[mu.edit.Path])
		e.Decision = c
		if e.CoveredBy == nil { // an entry that does not say (never written so since coveredBy is always kept)
			e.CoveredBy = tests
		}
		hits = append(hits, hit{mu, e})
	}
	return hits, left
}

// newLab is the gate's lab on the pool's first sandbox, growing the pool
// for mutants run alone, with a probe per job, telling opts.Progress of
// every mutant of total as it goes (done of them from the cache).
func newLab(pool *sandbox.Pool, jobs []*job, opts Options, total, done int) *lab.Lab {
	sb := pool.List[0]
	var probes []lab.Probe
	for _, j := range jobs {
		probes = append(probes, j.probe())
	}
	l := &lab.Lab{Root: sb.Root, Files: sb, Runner: opts.Runner, MarkerPrefix: "gate", Isolate: opts.Isolate, Coverage: true, Probes: probes, Config: opts.Config, PlanOnly: opts.DryRun,
		BaselineTimeout: cmp.Or(opts.BaselineTimeout, DefaultBaselineTimeout),
		BaselineBound:   baselineBound(opts.BaselineTimeout),
		Grow: func(n int) ([]lab.Slot, error) {
			var slots []lab.Slot
			sbs, err := pool.Grow(n)
			for _, sb := range sbs {
				slots = append(slots, lab.Slot{Root: sb.Root, Files: sb})
			}
			return slots, err
		},
		Progress: mutantProgress(opts.Progress, total, done)}
	return l
}

// BaselineFiles is the Unit of the gate's baseline events (lab.BaselineRun):
// their Done of Total count the test files whose baseline has finished, of
// those the lab runs, and their Test is the file that starts (none when the
// lab starts: the files then run together first).
const BaselineFiles lab.Unit = "baseline"

// baselinesStart tells l's progress that an execution of the lab starts,
// over files test files: "baselines 0/N".
func baselinesStart(l *lab.Lab, files int) {
	if l.Progress != nil {
		l.Progress(lab.Event{Kind: lab.BaselineRun, Done: 0, Total: files, Unit: BaselineFiles})
	}
}

// mutantProgress tells report of a lab's events, counting the mutants
// decided of total: the cached ones, then one per mutant the lab decides.
// Each execution of the lab tells its baselines before its mutants, and
// decides every mutant left again (measure runs the lab once more after a
// red baseline): a baseline after mutants starts the count again from the
// cached ones, so that it never passes total. A baseline event counts the
// baselines instead (BaselineFiles): the lab tells of each test file's as
// it starts, after the one before it finished, so the k-th says k-1 of the
// files have finished (files: how many the execution runs, as measure set
// it with baselinesStart).
func mutantProgress(report func(lab.Event), total, cached int) func(lab.Event) {
	done, counting, baselines, files := cached, false, 0, 0
	return func(e lab.Event) {
		switch {
		case e.Kind == lab.BatchRun: // a batch starts: nothing decided yet
			if report != nil {
				e.Done, e.Total, e.Unit = done, total, lab.Mutants
				report(e)
			}
			return
		case e.Kind != lab.BaselineRun:
			done, counting = done+1, true
		case e.Unit == BaselineFiles: // an execution starts (baselinesStart)
			baselines, files = 0, e.Total
			if counting {
				done, counting = cached, false
			}
			if report != nil {
				report(e)
			}
			return
		case counting: // a new execution
			done, counting, baselines = cached, false, 0
		}
		if report == nil {
			return
		}
		if e.Kind == lab.BaselineRun && files > 0 {
			baselines++
			e.Done, e.Total, e.Unit = min(baselines-1, files), files, BaselineFiles
			report(e)
			return
		}
		e.Done, e.Total, e.Unit = done, total, lab.Mutants
		report(e)
	}
}

// labJobs are the lab's jobs of ms: each against its target's test files
// but the idle ones.
func labJobs(ms []*mutant, idle map[string]bool) []lab.Job {
	var jobs []lab.Job
	for _, mu := range ms {
		tests := make([]string, 0, len(mu.job.target.Tests))
		for _, t := range mu.job.target.Tests {
			if !idle[t] {
				tests = append(tests, t)
			}
		}
		jobs = append(jobs, lab.Job{Key: mu.id(), Mutant: mu.edit, Tests: tests})
	}
	return jobs
}

// measured is what the lab established of the candidates, and of the
// mutants when their baselines allowed: the lab's result; the candidates
// that run nothing of the targets (idle), and why (red); the related test
// files still counted; the mutants the lab ran, by key; the notes; and
// why the gate stops before any mutant (a verdict, when it does).
type measured struct {
	lr   *lab.Result
	idle map[string]bool
	red  map[string]string
	// aside are the tests set aside, by test file: they fail the same way
	// at the base (lab.Lab.Aside).
	aside map[string][]string
	// retried are the candidates red once on the code as it is and green
	// at the base, run again (flaky), with their first failure.
	retried map[string]string
	related []string
	ran     map[string]*mutant
	notes   []string
	verdict Verdict
	reason  string
	attr    string
}

// stop records in res the verdict of a gate the baselines stopped (no
// mutant is judged then, the cached ones neither), and says whether they
// did.
func (m *measured) stop(res *Result) bool {
	if m.verdict == "" {
		return false
	}
	res.Verdict, res.Reason, res.Attribution = m.verdict, m.reason, m.attr
	m.timings(res)
	if m.verdict == FAIL {
		res.Notes = append(res.Notes, m.notes...)
	}
	return true
}

// timings records the lab's phases in res (shown with --timings), the
// baselines' of a gate they stopped included.
func (m *measured) timings(res *Result) {
	if m.lr == nil {
		return
	}
	lr := m.lr
	res.Timings.Baseline, res.Timings.Batches, res.Timings.Alone = lr.Baseline.Seconds(), lr.Batches.Seconds(), lr.Alone.Seconds()
	res.Timings.RanAlone, res.Timings.HitLimits = lr.RanAlone, lr.HitLimits
	res.Timings.Refused = append(res.Timings.Refused, lr.Refused...)
}

// measure runs the lab over the candidates and the mutants left. A red
// suite is never PASS or SKIP (base.go): a candidate whose baseline fails,
// at load or in a test, whether or not it entered a target, is a FAIL
// attribution tests, unless it fails the same way at the base (a note; it
// is then left out, and the lab runs again without it when it kept the
// mutants from running). A file whose tests were all skipped runs nothing
// and is not red; a baseline that did not end within the bound is an
// ERROR.
func measure(ctx context.Context, root string, l *lab.Lab, jobs []*job, left []*mutant, opts Options) (*measured, error) {
	m := &measured{idle: map[string]bool{}, red: map[string]string{}, aside: map[string][]string{}, retried: map[string]string{}, ran: map[string]*mutant{}}
	for _, j := range jobs {
		m.related = append(m.related, j.target.Tests...) // the union of the candidates: every one runs its baseline
	}
	slices.Sort(m.related)
	m.related = slices.Compact(m.related)
	for _, mu := range left {
		m.ran[mu.id()] = mu
	}
	var err error
	baselinesStart(l, len(m.related))
	if m.lr, err = l.ExecuteJobs(ctx, m.related, labJobs(left, nil)); err != nil {
		return nil, err
	}
	for {
		reds, stopped := m.judgeBaselines(opts.BaselineTimeout > 0)
		m.noteFlaky(opts)
		if stopped {
			return m, nil
		}
		if err := checkAtBase(ctx, root, reds, opts, l.BaselineTimeout); err != nil {
			return nil, err
		}
		// Red now and green at the base: once more before it is the change's.
		if !m.retry(reds) {
			dropped := m.judgeRed(reds, opts)
			if m.verdict != "" || !dropped || len(m.lr.Mutants) == len(left) {
				return m, nil
			}
			// A red file the lab counted kept every mutant from running: again
			// without the files that are red at the base too.
		}
		m.related = slices.DeleteFunc(m.related, func(t string) bool { return m.idle[t] })
		if len(m.related) == 0 {
			return m, nil
		}
		l.Aside = m.aside
		baselinesStart(l, len(m.related))
		if m.lr, err = l.ExecuteJobs(ctx, m.related, labJobs(left, m.idle)); err != nil {
			return nil, err
		}
	}
}

// retry marks for a run again the red candidates that pass at the base and
// did not run again yet, and says whether there are any: a test that fails
// at random (a timing assertion or a test time-out on a loaded machine, an
// order-dependent test) is no more the change's than a flaky test's
// failure is a kill (SPEC "Runs and kills": repeated once). Red again, it
// is the change's (FAIL tests); green, a note names it.
func (m *measured) retry(reds []redBaseline) bool {
	again := false
	for _, r := range reds {
		if _, done := m.retried[r.run.Test]; (r.greenAtBase || len(r.aside) > 0 && !r.atBase) && !done {
			m.retried[r.run.Test], again = r.run.Detail, true
		}
	}
	return again
}

// noteFlaky notes the candidates run again that passed then.
func (m *measured) noteFlaky(opts Options) {
	for _, b := range m.lr.Baselines {
		if first, ok := m.retried[b.Test]; ok && first != "" && b.Outcome == lab.Passed {
			m.notes = append(m.notes, fmt.Sprintf("the related test %s failed on the code as it is (%s), passed when run again, and passes at the base %.12s: a flaky test; its second run counts", b.Test, first, opts.Origin.Base))
			m.retried[b.Test] = "" // noted
		}
	}
}

// judgeBaselines sorts the lab's baselines: the red ones, and those that
// run nothing (idle: every test skipped); a baseline that left no report,
// or did not end within its bound (fixed: set by ORACLE_BASELINE_TIMEOUT),
// stops the gate (an ERROR).
func (m *measured) judgeBaselines(fixed bool) (reds []redBaseline, stopped bool) {
	var hung, unrun []string
	for _, b := range m.lr.Baselines {
		switch {
		case b.Outcome == lab.Passed:
		case b.NoReport:
			unrun = append(unrun, b.Test+" ("+b.Detail+")")
		case skippedOnly(b):
			m.idle[b.Test], m.red[b.Test] = true, b.Detail
		case b.Outcome == lab.Timeout:
			hung = append(hung, b.Test)
		default:
			reds = append(reds, redBaseline{run: b})
		}
	}
	switch {
	case len(unrun) > 0:
		// The test runner (vitest, jest) left no report: it did not run
		// the file's tests at all (its config, a reporter or environment
		// oracle gives it, the install), which says nothing of the tests
		// and is never red at the base.
		m.verdict = ERROR
		m.reason = fmt.Sprintf("the test runner ran no test of %s: it wrote no report (the environment, not the tests: its config, its install, or its version with oracle's reporter); run the file with the repository's test runner to see why", strings.Join(unrun, ", "))
	case len(hung) > 0:
		m.verdict = ERROR
		m.reason = hungReason(hung, m.lr.Baselines, fixed)
	}
	return reds, m.verdict != ""
}

// judgeRed notes the red candidates that fail the same way at the base
// (they count for nothing), and makes the others a FAIL attribution
// tests; dropped: a file so left out had kept the mutants from running.
func (m *measured) judgeRed(reds []redBaseline, opts Options) (dropped bool) {
	var fail []redBaseline
	for _, r := range reds {
		if !r.atBase {
			fail = append(fail, r)
			continue
		}
		if len(r.aside) > 0 {
			// Red at the base per test: those tests are set aside, the file
			// stays, and its other tests decide (the lab runs again).
			m.notes = append(m.notes, fmt.Sprintf("in the related test %s, %s fail%s on the code as it is and the same way at the base %.12s (%s): set aside, the file's other tests decide",
				r.run.Test, strings.Join(r.aside, ", "), map[bool]string{true: "s"}[len(r.aside) == 1], opts.Origin.Base, r.run.Detail))
			m.aside[r.run.Test] = r.aside
			dropped = true
			continue
		}
		if !m.idle[r.run.Test] {
			m.notes = append(m.notes, fmt.Sprintf("the related test %s fails on the code as it is and the same way at the base %.12s (%s): it counts for nothing", r.run.Test, opts.Origin.Base, r.run.Detail))
			m.idle[r.run.Test], m.red[r.run.Test] = true, redAtBase+r.run.Detail
			dropped = dropped || !slices.Contains(m.lr.Idle, r.run.Test)
		}
	}
	if len(fail) > 0 {
		b := fail[0].run
		m.verdict, m.attr = FAIL, AttributionTests
		m.reason = fmt.Sprintf("the related test %s fails on the code as it is, before any mutant (%s): fix the test or the code first", b.Test, newFailure(fail[0]))
		if len(fail) > 1 {
			m.reason += fmt.Sprintf(" (also red: %s)", strings.Join(redNames(fail[1:]), ", "))
		}
	}
	return dropped
}

// newFailure is what a red candidate says of a failure the base does not
// share: its detail, or, where some of its failed tests fail the same way
// at the base, the first of the others with its failure.
func newFailure(r redBaseline) string {
	if len(r.aside) == 0 {
		return r.run.Detail
	}
	for _, t := range r.run.Tests {
		if t.Status == runner.TestFailed && !slices.Contains(r.aside, t.Name) {
			return t.Name + ": " + t.Failure
		}
	}
	return r.run.Detail
}

// reuse keeps the cached outcomes that still hold, and returns the others:
// a cached kill by a test that did not pass in this run's baseline (it is
// skipped now, or fails, or its file is not related any more) is not
// reused (SPEC "oracle gate", the cache).
func reuse(hits []hit, lr *lab.Result, tests map[string][]TestCase) (again []*mutant, kept map[*mutant]Mutant) {
	kept = map[*mutant]Mutant{}
	for _, h := range hits {
		if h.entry.Outcome.Kills() && !passedNow(h.entry, lr.Baselines, tests) {
			again = append(again, h.mu)
			continue
		}
		kept[h.mu] = h.entry
	}
	return again, kept
}

// ranMutant is a mutant and the lab's run of it.
type ranMutant struct {
	mu  *mutant
	run lab.Run
}

// runAgain is every run of the lab's (those it completed), then the
// cached kills that no longer hold, run again, after the others, in a lab
// of their own (each an error when their baselines were red then).
func (m *measured) runAgain(ctx context.Context, l *lab.Lab, again []*mutant) ([]ranMutant, error) {
	var out []ranMutant
	for _, r := range m.lr.Mutants {
		out = append(out, ranMutant{m.ran[r.Key], r})
	}
	if len(again) == 0 {
		return out, nil
	}
	l.Progress = nil
	lr, err := l.ExecuteJobs(ctx, slices.DeleteFunc(slices.Clone(m.related), func(t string) bool { return m.idle[t] }), labJobs(again, m.idle))
	if err != nil {
		return nil, err
	}
	for _, mu := range again {
		r := lab.Run{Outcome: lab.Error, Detail: "its cached kill no longer holds, and the baselines of its run again were red"}
		if got := lr.Mutant(mu.id()); got != nil {
			r = *got
		}
		out = append(out, ranMutant{mu, r})
	}
	return out, nil
}

// record is the result's entry of mu from its run r, which the cache
// keeps unless it is an error; it counts why r ran alone.
func record(mu *mutant, r lab.Run, res *Result, cache *resultCache) Mutant {
	e := mu.describe(res.sources[mu.edit.Path])
	e.Decision = r.Decision()
	if r.AloneWhy != "" {
		res.Timings.AloneWhy[r.AloneWhy]++
	}
	if e.CoveredBy == nil { // not marked: it ran against every related test file
		e.CoveredBy = mu.job.target.Tests
	}
	if r.Outcome.Kills() {
		e.KilledByTest = testID(res.Tests[r.Test], r.KilledBy)
	}
	if r.Outcome != lab.Error {
		cache.put(mu.key, e.Decision)
	}
	return e
}

// attribute says which candidates executed each target, measured: a
// target none of them entered is not tested, whatever the walk said, and
// its mutants (of planned) do not count (unexecuted); the mutants of the
// others (done, by job) are the result's, in their targets' order.
func attribute(suite *testsuite.Suite, jobs []*job, planned []*mutant, done map[*job][]Mutant, lr *lab.Result, m *measured) (out []Mutant, unexecuted int) {
	out = []Mutant{}
	for _, j := range jobs {
		entered := lr.EnteredBy(j.probe())
		if entered == nil { // its body could not be marked: its candidates stand
			out = append(out, done[j]...)
			continue
		}
		entered = slices.DeleteFunc(slices.Clone(entered), func(t string) bool { return m.idle[t] })
		if len(entered) == 0 {
			j.target.Skipped = unexecutedWhy(suite, j.target, m.red)
			j.target.Tests = []string{}
			for _, mu := range planned {
				if mu.job == j {
					unexecuted++
				}
			}
			continue
		}
		j.target.Tests = entered
		out = append(out, done[j]...)
	}
	return out, unexecuted
}

// unexecutedWhy is why target, which no candidate entered, is skipped.
func unexecutedWhy(suite *testsuite.Suite, target *Target, red map[string]string) string {
	why := untestedPrefix + ": " + suite.Explain(target.File)
	for _, t := range target.Tests {
		if red[t] != "" {
			why += fmt.Sprintf("; %s runs nothing of it: %s", t, red[t])
		}
	}
	// A candidate that cannot run measures nothing: whether it would
	// execute the target is unknown, which is not "no test executes it"
	// (--untested fail does not count it).
	for _, t := range target.Tests {
		if cause, ok := strings.CutPrefix(red[t], redAtBase); ok {
			return fmt.Sprintf("cannot be measured: its candidate %s fails on the code as it is, and the same way at the base (%s)", t, cause)
		}
	}
	return why
}

// passedNow says whether the test that killed the cached mutant mu passed
// in this run's baselines (its file's, when no single test killed it).
func passedNow(mu Mutant, baselines []lab.Run, tests map[string][]TestCase) bool {
	for _, b := range baselines {
		if b.Test != mu.KilledBy {
			continue
		}
		if b.Outcome != lab.Passed {
			return false
		}
		if mu.KilledByTest == "" {
			return true
		}
		for _, c := range tests[b.Test] {
			if c.ID != mu.KilledByTest {
				continue
			}
			for _, t := range b.Tests {
				if t.Name == c.FullName && t.Status == runner.TestPassed {
					return true
				}
			}
		}
		return false
	}
	return false
}

// testCases are the tests of each baseline's test file, each with an id
// unique in the gate (a second test of the same name gets " (2)").
func testCases(baselines []lab.Run) map[string][]TestCase {
	out := map[string][]TestCase{}
	for _, b := range baselines {
		cs := []TestCase{}
		seen := map[string]int{}
		for _, t := range b.Tests {
			name := strings.Join(append(slices.Clone(t.Ancestors), t.Title), " > ")
			if t.Title == "" {
				name = t.Name
			}
			id := b.Test + " > " + name
			if seen[id]++; seen[id] > 1 {
				id += fmt.Sprintf(" (%d)", seen[id])
			}
			cs = append(cs, TestCase{ID: id, Name: name, Line: t.Line, FullName: t.Name})
		}
		out[b.Test] = cs
	}
	return out
}

// testID is the id of the test of cs whose full name is fullName ("" when
// none is).
func testID(cs []TestCase, fullName string) string {
	if fullName == "" {
		return ""
	}
	for _, c := range cs {
		if c.FullName == fullName {
			return c.ID
		}
	}
	return ""
}

// score computes the per-file and overall scores and the verdict: (killed +
// timeout) / (killed + timeout + survived + no-coverage); errors apart.
func score(res *Result) {
	// One order whatever ran first, shard or not.
	slices.SortStableFunc(res.Mutants, func(a, b Mutant) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.ID, b.ID))
	})
	byFile := map[string]*FileScore{}
	for _, m := range res.Mutants {
		fs := byFile[m.File]
		if fs == nil {
			fs = &FileScore{File: m.File}
			byFile[m.File] = fs
		}
		switch {
		case m.Outcome.Kills():
			fs.Detected++
			fs.Total++
		case m.Outcome.Scored():
			fs.Total++
		default:
			fs.Errors++
		}
	}
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	res.Verdict = PASS
	for _, f := range files {
		fs := byFile[f]
		fs.Score = percent(fs.Detected, fs.Total)
		res.Detected += fs.Detected
		res.Total += fs.Total
		res.Files = append(res.Files, *fs)
		if fs.Total > 0 && fs.Score < res.Threshold {
			res.Verdict = FAIL
			sc, th := Figures(fs.Score, res.Threshold)
			res.Reason = fmt.Sprintf("%s scores %s%% (%d/%d), below the threshold %s", f, sc, fs.Detected, fs.Total, th)
		}
	}
	res.Score = percent(res.Detected, res.Total)
}

// percent is a score: 0 when nothing is scored (every SKIP, a file whose
// mutants were all errors), whatever skipped it, so that one SKIP reads as
// another.
func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// Report renders the mutants as a mutation-testing-report-schema document
// (Stryker's report viewer), with the sources of the target files, the
// related test files' tests (each it by its describe > it name, with its
// line, on its file's source) as the report's tests, killedBy the test that killed a mutant and
// coveredBy the tests of the files that reached it, and the gate's threshold as the
// viewer's: a score at or above it is green, below it red.
func (res *Result) Report(root string) ([]byte, error) {
	byFile := map[string]int{}
	var files []report.File
	for _, m := range res.Mutants {
		i, ok := byFile[m.File]
		if !ok {
			src, _ := res.source(root, m.File)
			i = len(files)
			byFile[m.File] = i
			files = append(files, report.File{Path: m.File, Source: string(src)})
		}
		rm := report.Mutant{ID: m.ID, MutatorName: m.Operator, Description: m.Operator, Replacement: m.Replacement,
			Outcome: m.Outcome, Reason: m.Detail, Line: m.Line, Column: m.Column, EndLine: m.EndLine, EndColumn: m.EndColumn,
			CoveredBy: []string{}, KilledBy: []string{}}
		// Coverage is per test file: every test of a file that reached the
		// mutant covered it (a file whose tests are unknown stands for them).
		// A mutant no test reached is covered by none.
		for _, f := range m.CoveredBy {
			if m.Outcome == lab.NoCoverage {
				break
			}
			cs, ok := res.Tests[f]
			if !ok {
				rm.CoveredBy = append(rm.CoveredBy, f)
			}
			for _, c := range cs {
				rm.CoveredBy = append(rm.CoveredBy, c.ID)
			}
		}
		switch {
		case m.KilledByTest != "":
			rm.KilledBy = []string{m.KilledByTest}
		case m.KilledBy != "":
			rm.KilledBy = []string{m.KilledBy}
		}
		files[i].Mutants = append(files[i].Mutants, rm)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	th := report.Thresholds{High: int(math.Ceil(res.Threshold)), Low: int(math.Floor(res.Threshold))}
	tests := map[string]report.TestFile{}
	for f, cs := range res.Tests {
		src, _ := res.source(root, f)
		tf := report.TestFile{Source: string(src)}
		for _, c := range cs {
			tf.Tests = append(tf.Tests, report.Test{ID: c.ID, Name: c.Name, Line: c.Line})
		}
		tests[f] = tf
	}
	return report.Render(files, tests, th)
}
