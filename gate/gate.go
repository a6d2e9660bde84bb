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
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/report"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/testsuite"
)

// Verdicts of the gate.
const (
	PASS  = "PASS"
	FAIL  = "FAIL"
	SKIP  = "SKIP"
	ERROR = "ERROR"
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
	// Shard K of N (1-based; N 0 or 1: all): only the mutants whose index
	// in the deterministic order of all of them is K-1 modulo N run, so the
	// N shards together run every mutant exactly once (Merge joins them).
	ShardK, ShardN int
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
	// unmutated code (0: DefaultBaselineTimeout); one that does not end
	// within it makes the verdict ERROR, naming it.
	BaselineTimeout time.Duration
	// Untested is what a target that no test executes makes of the
	// verdict: UntestedSkip (the default: it is skipped, with the reason)
	// or UntestedFail (FAIL, attribution untested).
	Untested string
}

// What --untested makes of a target no test executes.
const (
	UntestedSkip = "skip"
	UntestedFail = "fail"
)

// AttributionUntested: a FAIL because a target is executed by no test
// (--untested fail).
const AttributionUntested = "untested"

// DefaultBaselineTimeout bounds a candidate's baseline: a few minutes, far
// past what a test file of a unit suite takes, and short of the quarter of
// an hour a test file hanging at import used to cost (the runner re-runs a
// run that timed out once, and a joint run waits as long).
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

// Mutant is one mutant and its outcome.
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
	Outcome     string `json:"outcome"`
	Detail      string `json:"detail,omitempty"`
	Diff        string `json:"diff,omitempty"`
	KilledBy    string `json:"killedBy,omitempty"` // the test file that decided it
	// KilledByTest is the test of KilledBy that killed it (a TestCase.ID of
	// Result.Tests); "" when no single test did (a hit limit, a time-out of
	// the whole run).
	KilledByTest string `json:"killedByTest,omitempty"`
	// CoveredBy are the related test files whose coverage run reached the
	// mutant's code (all of them when its code could not be marked).
	CoveredBy []string `json:"coveredBy"`
	// AloneWhy says why the mutant ran alone rather than being decided in
	// a batch (the lab's Alone* reasons); "" when a batch decided it, no
	// test reached it, or its outcome came from the cache.
	AloneWhy string `json:"aloneWhy,omitempty"`
}

// Open reports whether m is what the next worker strengthens: a survivor,
// or a mutant no related test reached.
func (m Mutant) Open() bool { return m.Outcome == "survived" || m.Outcome == "no-coverage" }

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
	Verdict   string      `json:"verdict"`
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
}

// SlowMutant is one of the slowest mutant runs, in seconds.
type SlowMutant struct {
	ID      string  `json:"id"`
	Outcome string  `json:"outcome"`
	Seconds float64 `json:"seconds"`
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
		Timings: Timings{Slowest: []SlowMutant{}, AloneWhy: map[string]int{}}}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	suite, err := testsuite.Load(p, testsuite.Options{Config: opts.Config, Tests: opts.Tests, Fixtures: opts.Fixtures})
	if err != nil {
		return nil, err
	}
	opts.Config = suite.Config // the test script's, when --config is not given
	if suite.ConfigNote != "" {
		res.Notes = append(res.Notes, suite.ConfigNote)
	}
	if opts.ShardN > 1 {
		res.Shard = fmt.Sprintf("%d/%d", opts.ShardK, opts.ShardN)
	}
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
		prod := change.Change{}
		for f, r := range ch {
			if suite.IsProduction(f) {
				prod[f] = r
			}
		}
		if toks, bases, err = change.CodeChange(root, opts.Origin, prod); err != nil {
			return nil, err
		}
		withoutInSourceTests(root, toks)
	}
	jobs, sources, why := targets(p, suite, ch, toks, bases, opts, res)
	if why == "" {
		var notes []string
		res.Identity, notes = mutants(jobs, sources, ch, toks, bases, opts)
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
	res.Changed = map[string][][2]int{}
	for file, src := range sources {
		res.Changed[file] = ch[file]
		if toks != nil {
			res.Changed[file] = toks.Lines(file, src)
		}
	}
	if err := execute(ctx, suite, jobs, sources, opts, res); err != nil {
		return nil, err
	}
	if res.Verdict == "" {
		score(res)
		if res.Total == 0 {
			res.Verdict, res.Reason = SKIP, "no mutant could be built on what the change touched"
			if reason := skippedReason(res.Targets); reason != "" {
				res.Reason = reason
			}
		}
		untested(res, opts)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// redAtBase begins why a candidate red at the base too runs nothing.
const redAtBase = "red at the base too: "

// untestedPrefix begins the Skipped of a target no test executes.
const untestedPrefix = "no test executes it"

// untested applies --untested fail: a PASS or SKIP with a target that no
// test executes is a FAIL, attribution untested, naming the target.
func untested(res *Result, opts Options) {
	if opts.Untested != UntestedFail || (res.Verdict != PASS && res.Verdict != SKIP) {
		return
	}
	var ids []string
	for _, t := range res.Targets {
		if strings.HasPrefix(t.Skipped, untestedPrefix) {
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
	target  *Target
	fn      *analyzer.Function
	mutants []edit.Mutant
	index   []int // each mutant's index among the target's (the ID keeps it across shards)
	// changed are the spans of the code the change wrote in the target's
	// file (its top-level code's, for a module); nil: the lines of the
	// change decide (a list of files).
	changed []change.Span
	module  bool          // the module's top-level code: fn is the whole program
	entry   uint          // a module's load marker goes there
	apart   []change.Span // a module's: the analyzer's functions, whose code is theirs
}

// targets is the first stage: the functions of the change's production
// files whose lines it touched, each with its candidate test files (the
// test files that load its module). A function no test loads is skipped
// here with the reason. It returns the jobs, the target files' sources, and
// why the gate skips when there is nothing to do.
func targets(p *callgraph.Program, suite *testsuite.Suite, ch change.Change, toks change.Tokens, bases change.Bases, opts Options, res *Result) ([]*job, map[string][]byte, string) {
	switch {
	case len(ch) == 0 && opts.Origin != nil:
		return nil, nil, "the diff is empty: no file differs from the base"
	case len(ch) == 0:
		return nil, nil, "the list of changed files is empty"
	}
	var prod, test []string
	for _, file := range ch.Files() {
		if _, ok := analyzer.LangFor(file); !ok {
			continue
		}
		if suite.IsProduction(file) {
			prod = append(prod, file)
		} else if _, err := os.Stat(filepath.Join(p.Root(), filepath.FromSlash(file))); err == nil {
			test = append(test, file)
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
	lines, modules, topLevel := ch, map[string]*job{}, false
	if toks != nil {
		var code bool
		if lines, modules, code, topLevel = codeChanged(p, toks, bases, prod, opts); !code {
			return nil, nil, "the change touches no code (only comments, whitespace, type syntax or file names changed)"
		}
	}
	all := withModules(p.Root(), testsuite.TouchedFunctions(p, lines, prod), modules, toks, prod)
	res.Targets = make([]Target, len(all))
	for i, j := range all {
		res.Targets[i] = *j.target
		res.Targets[i].Tests = suite.Candidates(j.target.File)
		j.target = &res.Targets[i]
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
		jobs = append(jobs, j)
	}
	switch {
	case len(res.Targets) == 0 && topLevel:
		return nil, nil, "no mutant could be built on what the change touched: it wrote top-level code no operator changes"
	case len(res.Targets) == 0:
		return nil, nil, "the change touches no function of its TypeScript files"
	case len(jobs) == 0:
		return nil, nil, skippedReason(res.Targets)
	}
	return jobs, sources, ""
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
// mutants of the change's code no operator mutates (revert.go); one of
// those that make the same program: the first), then the shard's
// slice of them: the mutant whose index among all is K-1 modulo N. It
// returns the identity of the whole list, which every shard records, and
// notes of the reverts that could not be built.
func mutants(jobs []*job, sources map[string][]byte, ch change.Change, toks change.Tokens, bases change.Bases, opts Options) (*Identity, []string) {
	list := newMutantList() // every mutant, for the shards' identity
	var notes []string
	global := 0
	progs := newPrograms()
	for _, j := range jobs {
		file := j.target.File
		src := sources[file]
		_, syn := analyzer.ParseSyntax(file, src)
		progs.Original(file, src, syn) // a mutant that makes it is none
		ms, index := targetMutants(file, src, syn, j, ch, opts)
		counted := ms
		if opts.scope() != ScopeLines && !j.module && j.changed != nil {
			counted = nil // every mutant of the function: those on the change's code
			for _, m := range ms {
				if change.Counts(site(syn, m), j.changed) {
					counted = append(counted, m)
				}
			}
		}
		rs, why := reverts(file, src, syn, j, toks[file], counted, bases[file], opts.Arid)
		notes = append(notes, why...)
		n := 0
		if len(rs) > 0 { // after every operator's mutant: the ids of those stay
			n = len(jobMutants(file, src, syn, j.fn, opts.Arid))
		}
		for k, m := range rs {
			ms, index = append(ms, m), append(index, n+k)
		}
		for k, m := range ms {
			if !progs.Add(m) {
				continue // the program of a mutant before it, in scope: one mutant
			}
			i := index[k]
			list.add(j.target.ID, i, m)
			if opts.ShardN <= 1 || global%opts.ShardN == opts.ShardK-1 {
				j.mutants = append(j.mutants, m)
				j.index = append(j.index, i)
			}
			global++
		}
	}
	return identity(ch, opts, opts.scope(), list), notes
}

// execute is the lab stage: cached outcomes first, then one lab for the
// rest: a baseline (coverage run) per candidate test file, which also
// measures which of them enter each target (a probe in its body). A target
// no candidate executes is skipped with the static walk's explanation, and
// its mutants do not count; the others' mutants run against the test files
// that reached them.
func execute(ctx context.Context, suite *testsuite.Suite, jobs []*job, sources map[string][]byte, opts Options, res *Result) error {
	root := suite.Program.Root()
	pool := lab.SandboxPool(root, "", max(opts.Concurrency, 1), opts.Runner)
	defer pool.Close()
	defer func() { res.Timings.Sandbox = pool.Spent.Seconds() }()
	if _, err := pool.Grow(1); err != nil {
		return err
	}
	sb := pool.List[0]
	total := 0
	for _, j := range jobs {
		total += len(j.mutants)
	}
	done := 0
	if !opts.NoCache {
		if err := CheckCacheWritable(root); err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("the cache cannot be written (%v): this run's results are not saved", err))
			opts.NoCache = true
		}
	}
	// The cache: an outcome is reused while the mutant, its file and every
	// input of its key (cache.go) are byte for byte what they were. The
	// baselines run even when every mutant is cached: a related test that
	// fails now is a FAIL, never a cached PASS.
	cache := openCache(root, opts.NoCache, KeyInputs(suite.Program, suite.SetupFiles, opts.Version))
	type pending struct {
		job *job
		i   int
		key string
	}
	type hit struct {
		pending
		mu Mutant
	}
	var hits []hit // from the cache, reused once the baselines say they still hold
	var left []edit.Mutant
	var allowed [][]string
	var from []pending
	var related []string // the union of the candidates: every one runs its baseline
	var probes []lab.Probe
	out := map[*job][]Mutant{}
	for _, j := range jobs {
		related = append(related, j.target.Tests...)
		body := [2]uint{j.fn.BodyStartByte, j.fn.BodyEndByte}
		switch {
		case j.module:
			body = [2]uint{j.entry, j.entry} // the module's load
		case body[1] <= body[0]:
			// A class's <fields> whose initializers a marker cannot wrap
			// (each an object literal): the module's load stands for it.
			_, syn := analyzer.ParseSyntax(j.target.File, sources[j.target.File])
			if syn != nil {
				_, entry := moduleBody(syn, j.target.File)
				body = [2]uint{entry, entry}
			}
		}
		probes = append(probes, lab.Probe{Path: j.target.File, Body: body})
		for i, m := range j.mutants {
			key := cache.key(root, m, j.target.Tests)
			if c, ok := cache.get(key); ok {
				mu := describe(j.target.ID, j.index[i], m, sources[m.Path])
				mu.Outcome, mu.Detail, mu.KilledBy, mu.CoveredBy, mu.KilledByTest = c.Outcome, c.Detail, c.KilledBy, c.CoveredBy, c.KilledByTest
				if mu.CoveredBy == nil {
					mu.CoveredBy = j.target.Tests
				}
				hits = append(hits, hit{pending{j, i, key}, mu})
				done++
				continue
			}
			left = append(left, m)
			allowed = append(allowed, j.target.Tests)
			from = append(from, pending{j, i, key})
		}
	}
	slices.Sort(related)
	related = slices.Compact(related)
	l := &lab.Lab{Root: sb.Root, Files: sb, Runner: opts.Runner, MarkerPrefix: "gate", Isolate: opts.Isolate, Coverage: true, Probes: probes, Config: opts.Config,
		Grow: func(n int) ([]lab.Slot, error) {
			var slots []lab.Slot
			sbs, err := pool.Grow(n)
			for _, sb := range sbs {
				slots = append(slots, lab.Slot{Root: sb.Root, Files: sb})
			}
			return slots, err
		},
		Progress: func(e lab.Event) {
			if e.Kind != lab.BaselineRun {
				done++
			}
			if opts.Progress != nil {
				e.Done, e.Total, e.Unit = done, total, lab.Mutants
				opts.Progress(e)
			}
		}}
	bt := opts.BaselineTimeout
	if bt == 0 {
		bt = DefaultBaselineTimeout
	}
	l.BaselineTimeout = bt
	lr, err := l.ExecuteFor(ctx, related, left, allowed)
	if err != nil {
		return err
	}
	// A red suite is never PASS or SKIP (base.go): a candidate whose
	// baseline fails, at load or in a test, whether or not it entered a
	// target, is a FAIL attribution tests, unless it fails the same way at
	// the base (a note; it is then left out, and the lab runs again without
	// it when it kept the mutants from running). A file whose tests were
	// all skipped runs nothing and is not red; a baseline that did not end
	// within the bound is an ERROR.
	idle, red := map[string]bool{}, map[string]string{} // red: why a file runs nothing
	var notes []string
	for {
		var reds []redBaseline
		var hung, unrun []string
		for _, b := range lr.Baselines {
			switch {
			case b.Outcome == lab.Passed:
			case b.NoReport:
				unrun = append(unrun, b.Test+" ("+b.Detail+")")
			case skippedOnly(b):
				idle[b.Test], red[b.Test] = true, b.Detail
			case b.Outcome == lab.Timeout:
				hung = append(hung, b.Test)
			default:
				reds = append(reds, redBaseline{run: b})
			}
		}
		if len(unrun) > 0 {
			// vitest left no report: it did not run the file's tests at all
			// (its config, a reporter oracle gives it, the install), which
			// says nothing of the tests and is never red at the base.
			res.Verdict = ERROR
			res.Reason = fmt.Sprintf("vitest ran no test of %s: it wrote no report (the environment, not the tests: its config, its install, or its version with oracle's reporter); run the file with vitest to see why", strings.Join(unrun, ", "))
			res.Mutants, res.Cached = []Mutant{}, 0
			return nil
		}
		if len(hung) > 0 {
			res.Verdict = ERROR
			res.Reason = fmt.Sprintf("the related test %s did not finish within %s on the code as it is (its baseline; %s): the gate cannot judge the change; make it finish, or raise the bound (%s)",
				strings.Join(hung, ", "), minutes(bt), "a test file that hangs, at import or in a test", BaselineTimeoutEnv)
			res.Mutants, res.Cached = []Mutant{}, 0
			return nil
		}
		if err := checkAtBase(ctx, root, reds, opts, bt); err != nil {
			return err
		}
		var fail []redBaseline
		dropped := false
		for _, r := range reds {
			if !r.atBase {
				fail = append(fail, r)
				continue
			}
			if !idle[r.run.Test] {
				notes = append(notes, fmt.Sprintf("the related test %s fails on the code as it is and the same way at the base %.12s (%s): it counts for nothing", r.run.Test, opts.Origin.Base, r.run.Detail))
				idle[r.run.Test], red[r.run.Test] = true, redAtBase+r.run.Detail
				dropped = dropped || !slices.Contains(lr.Idle, r.run.Test)
			}
		}
		if len(fail) > 0 {
			b := fail[0].run
			res.Verdict, res.Attribution = FAIL, AttributionTests
			res.Reason = fmt.Sprintf("the related test %s fails on the code as it is, before any mutant (%s): fix the test or the code first", b.Test, b.Detail)
			if len(fail) > 1 {
				res.Reason += fmt.Sprintf(" (also red: %s)", strings.Join(redNames(fail[1:]), ", "))
			}
			res.Notes = append(res.Notes, notes...)
			res.Mutants = []Mutant{} // none judged, the cached ones neither
			res.Cached = 0
			return nil
		}
		if !dropped || len(lr.Mutants) == len(left) {
			break
		}
		// A red file the lab counted kept every mutant from running: again
		// without the files that are red at the base too.
		related = slices.DeleteFunc(related, func(t string) bool { return idle[t] })
		for k := range allowed {
			allowed[k] = slices.DeleteFunc(slices.Clone(allowed[k]), func(t string) bool { return idle[t] })
		}
		if len(related) == 0 {
			break
		}
		if lr, err = l.ExecuteFor(ctx, related, left, allowed); err != nil {
			return err
		}
	}
	res.Notes = append(res.Notes, notes...)
	res.Timings.Baseline, res.Timings.Batches, res.Timings.Alone = lr.Baseline.Seconds(), lr.Batches.Seconds(), lr.Alone.Seconds()
	res.Timings.RanAlone, res.Timings.HitLimits = lr.RanAlone, lr.HitLimits
	res.Tests = testCases(lr.Baselines)
	// A candidate that entered none of the targets is not related (the
	// lab's Idle); nor is one whose tests were all skipped, or one red at
	// the base as well.
	for _, t := range lr.Idle {
		idle[t] = true
	}
	// A cached kill by a test that did not pass in this run's baseline (it
	// is skipped now, or fails, or its file is not related any more) is
	// not reused (SPEC "oracle gate", the cache): those mutants run again,
	// after the others, in a lab of their own.
	var again []pending
	for _, h := range hits {
		if lab.Outcome(h.mu.Outcome).Kills() && !passedNow(h.mu, lr.Baselines, res.Tests) {
			again = append(again, h.pending)
			continue
		}
		out[h.job] = append(out[h.job], h.mu)
		res.Cached++
	}
	runs, froms := slices.Clone(lr.Mutants), slices.Clone(from[:len(lr.Mutants)])
	if len(again) > 0 {
		var ms []edit.Mutant
		var ok [][]string
		for _, pd := range again {
			ms = append(ms, pd.job.mutants[pd.i])
			ok = append(ok, slices.DeleteFunc(slices.Clone(pd.job.target.Tests), func(t string) bool { return idle[t] }))
		}
		l.Progress = nil
		lr2, err := l.ExecuteFor(ctx, slices.DeleteFunc(slices.Clone(related), func(t string) bool { return idle[t] }), ms, ok)
		if err != nil {
			return err
		}
		for n, pd := range again {
			r := lab.Run{Outcome: lab.Error, Detail: "its cached kill no longer holds, and the baselines of its run again were red"}
			if n < len(lr2.Mutants) {
				r = lr2.Mutants[n]
			}
			runs, froms = append(runs, r), append(froms, pd)
		}
	}
	ids := make([]string, len(runs))
	for n, r := range runs {
		pd := froms[n]
		j, m := pd.job, pd.job.mutants[pd.i]
		mu := describe(j.target.ID, j.index[pd.i], m, sources[m.Path])
		ids[n] = mu.ID
		mu.Outcome, mu.Detail, mu.CoveredBy, mu.AloneWhy = string(r.Outcome), r.Detail, r.CoveredBy, r.AloneWhy
		if r.AloneWhy != "" {
			res.Timings.AloneWhy[r.AloneWhy]++
		}
		if mu.CoveredBy == nil { // not marked: it ran against every related test file
			mu.CoveredBy = j.target.Tests
		}
		if r.Outcome.Kills() {
			mu.KilledBy = r.Test
			mu.KilledByTest = testID(res.Tests[r.Test], r.KilledBy)
		}
		if r.Outcome != lab.Error {
			cache.put(pd.key, cached{Outcome: mu.Outcome, Detail: mu.Detail, KilledBy: mu.KilledBy, CoveredBy: mu.CoveredBy, KilledByTest: mu.KilledByTest})
		}
		out[j] = append(out[j], mu)
	}
	for _, n := range lr.Slowest {
		r := lr.Mutants[n]
		res.Timings.Slowest = append(res.Timings.Slowest, SlowMutant{ID: ids[n], Outcome: string(r.Outcome), Seconds: r.Duration.Seconds()})
	}
	// Which candidates executed each target, measured; a target none of
	// them entered is not tested, whatever the walk said.
	for k, j := range jobs {
		entered := lr.Entered[k]
		if entered == nil { // its body could not be marked: its candidates stand
			res.Mutants = append(res.Mutants, out[j]...)
			continue
		}
		entered = slices.DeleteFunc(slices.Clone(entered), func(t string) bool { return idle[t] })
		if len(entered) == 0 {
			j.target.Skipped = untestedPrefix + ": " + suite.Explain(j.target.File)
			for _, t := range j.target.Tests {
				if red[t] != "" {
					j.target.Skipped += fmt.Sprintf("; %s runs nothing of it: %s", t, red[t])
				}
			}
			// A candidate that cannot run measures nothing: whether it
			// would execute the target is unknown, which is not "no test
			// executes it" (--untested fail does not count it).
			for _, t := range j.target.Tests {
				if why, ok := strings.CutPrefix(red[t], redAtBase); ok {
					j.target.Skipped = fmt.Sprintf("cannot be measured: its candidate %s fails on the code as it is, and the same way at the base (%s)", t, why)
					break
				}
			}
			j.target.Tests = []string{}
			res.Unexecuted += len(j.mutants)
			continue
		}
		j.target.Tests = entered
		res.Mutants = append(res.Mutants, out[j]...)
	}
	return cache.save()
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
		switch lab.Outcome(m.Outcome) {
		case lab.Killed, lab.Timeout:
			fs.Detected++
			fs.Total++
		case lab.Survived, lab.NoCoverage:
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

// describe is the report entry of mutant m, the index-th of target, before
// its outcome is known: its ID, where it changed src (the original source,
// in the report's UTF-16 columns) and how.
func describe(target string, index int, m edit.Mutant, src []byte) Mutant {
	return Mutant{ID: fmt.Sprintf("%s#%d", target, index+1), Target: target, File: m.Path,
		Line: m.Original.Start.Line, Column: edit.UTF16Column(src, m.Original.Start.Offset),
		EndLine: m.Original.End.Line, EndColumn: edit.UTF16Column(src, m.Original.End.Offset),
		Operator: string(m.Operator), Replacement: m.Replacement, Diff: m.Diff}
}

func percent(a, b int) float64 {
	if b == 0 {
		return 100
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
			src, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
			i = len(files)
			byFile[m.File] = i
			files = append(files, report.File{Path: m.File, Source: string(src)})
		}
		rm := report.Mutant{ID: m.ID, MutatorName: m.Operator, Description: m.Operator, Replacement: m.Replacement,
			Outcome: lab.Outcome(m.Outcome), Reason: m.Detail, Line: m.Line, Column: m.Column, EndLine: m.EndLine, EndColumn: m.EndColumn,
			CoveredBy: []string{}, KilledBy: []string{}}
		// Coverage is per test file: every test of a file that reached the
		// mutant covered it (a file whose tests are unknown stands for them).
		// A mutant no test reached is covered by none.
		for _, f := range m.CoveredBy {
			if m.Outcome == string(lab.NoCoverage) {
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
		src, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		tf := report.TestFile{Source: string(src)}
		for _, c := range cs {
			tf.Tests = append(tf.Tests, report.Test{ID: c.ID, Name: c.Name, Line: c.Line})
		}
		tests[f] = tf
	}
	return report.Render(files, tests, th)
}
