// Package gate is `oracle gate`, the task-scoped mutation gate (SPEC "oracle
// gate"): from a change alone (internal/change: git, or a list of files) it
// finds the functions the change touched, mutates only those (its own
// operator set, operators.go), runs each function's mutants against the test
// files that run it (the related-test rule audit uses), on the engine `prove`
// uses (mutate/lab: sandbox, runner, outcome rules), and scores them against
// a threshold: PASS, FAIL or SKIP a pipeline can route on.
package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/internal/change"
	"github.com/oracle-ts/oracle/mutate"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/mutate/runner"
	"github.com/oracle-ts/oracle/mutate/sandbox"
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
	Progress    func(i, n int, what string)
	// NoCache ignores (and does not write) the result cache.
	NoCache bool
	// Shard K of N (1-based; N 0 or 1: all): only the mutants whose index
	// in the deterministic order of all of them is K-1 modulo N run, so the
	// N shards together run every mutant exactly once (Merge joins them).
	ShardK, ShardN int
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
	// CoveredBy are the related test files whose coverage run reached the
	// mutant's code (all of them when its code could not be marked).
	CoveredBy []string `json:"coveredBy"`
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
	Cached    int         `json:"cached"`          // mutants whose outcome came from the cache
	Timings   Timings     `json:"timings"`
}

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
}

// SlowMutant is one of the slowest mutant runs, in seconds.
type SlowMutant struct {
	ID      string  `json:"id"`
	Outcome string  `json:"outcome"`
	Seconds float64 `json:"seconds"`
}

// Run decides the gate for a change of the repository at root.
func Run(ctx context.Context, root string, ch change.Change, opts Options) (*Result, error) {
	start := time.Now()
	res := &Result{Threshold: opts.Threshold, Files: []FileScore{}, Targets: []Target{}, Mutants: []Mutant{}, Timings: Timings{Slowest: []SlowMutant{}}}
	p, err := callgraph.NewProgram(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	tests := opts.Tests
	var setup []string
	if tests == nil {
		if tests, err = audit.ListTests(p.Root()); err != nil {
			return nil, err
		}
		if setup, err = audit.SetupFiles(p.Root()); err != nil {
			return nil, err
		}
	}
	suite, err := audit.NewSuite(p, tests, audit.Options{Fixtures: opts.Fixtures, SetupFiles: setup})
	if err != nil {
		return nil, err
	}
	production := map[string]bool{}
	for _, f := range suite.Production {
		production[f] = true
	}
	// Targets: the functions of changed production files whose lines the
	// change touched.
	type job struct {
		target  *Target
		mutants []edit.Mutant
		index   []int // each mutant's index among the target's (the ID keeps it across shards)
	}
	var jobs []job
	sources := map[string][]byte{} // the target files as mutated (for columns and the report)
	global := 0                    // the index of the next mutant among all (for --shard)
	if opts.ShardN > 1 {
		res.Shard = fmt.Sprintf("%d/%d", opts.ShardK, opts.ShardN)
	}
	anyTS := false
	for _, file := range ch.Files() {
		if _, ok := analyzer.LangFor(file); !ok || !production[file] || strings.Contains(file, "__oracles__/") {
			continue
		}
		anyTS = true
		src, err := os.ReadFile(filepath.Join(p.Root(), filepath.FromSlash(file)))
		if err != nil {
			continue // deleted by the change
		}
		sources[file] = src
		f, syn := analyzer.ParseSyntax(file, src)
		for _, fn := range f.Functions {
			if fn.Kind != analyzer.FuncTop && fn.Class == "" || fn.Parent != nil {
				continue // nested functions are mutated with the function around them
			}
			from, to := fn.Line, syn.Line(fn.EndByte)
			if !ch.Touches(file, from, to) {
				continue
			}
			t := &Target{ID: file + "#" + fn.Qual, File: file, Line: fn.Line}
			t.Tests = suite.RelatedTests(t.ID)
			if len(t.Tests) == 0 {
				t.Tests = []string{}
				t.Skipped = "no test runs it un-stubbed (untested code is not mutation-tested)"
			}
			res.Targets = append(res.Targets, *t)
			if t.Skipped != "" {
				continue
			}
			ms := Mutants(file, src, syn, fn, opts.Arid)
			var kept []edit.Mutant
			var index []int
			for i, m := range ms {
				if opts.ShardN <= 1 || global%opts.ShardN == opts.ShardK-1 {
					kept = append(kept, m)
					index = append(index, i)
				}
				global++
			}
			jobs = append(jobs, job{target: &res.Targets[len(res.Targets)-1], mutants: kept, index: index})
		}
	}
	switch {
	case !anyTS:
		res.Verdict, res.Reason = SKIP, "the change has no production TypeScript"
	case len(jobs) == 0:
		res.Verdict, res.Reason = SKIP, "no function the change touched has a related test"
		if len(res.Targets) == 0 {
			res.Reason = "the change touches no function of its TypeScript files"
		}
	}
	if res.Verdict != "" {
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	// Runs: the lab of prove, in a sandbox, more when mutants are left to
	// run alone.
	res.Timings.Setup = time.Since(start).Seconds()
	pool := mutate.SandboxPool(p.Root(), "", max(opts.Concurrency, 1), opts.Runner)
	defer pool.Close()
	defer func() { res.Timings.Sandbox = pool.Spent.Seconds() }()
	if _, err := pool.Grow(1); err != nil {
		return nil, err
	}
	sb := pool.List[0]
	slots := func(sbs []*sandbox.Sandbox) []lab.Slot {
		var out []lab.Slot
		for _, sb := range sbs {
			out = append(out, lab.Slot{Root: sb.Root, Files: sb})
		}
		return out
	}
	total := 0
	for _, j := range jobs {
		total += len(j.mutants)
	}
	done := 0
	cache := openCache(p.Root(), opts.NoCache)
	// The cache: an outcome is reused while the mutant, its file and the
	// related test files are byte for byte what they were. What is left runs
	// in one lab: one baseline (and coverage run) per related test file,
	// each mutant against its own function's related test files.
	type pending struct {
		job, i int
		key    string
	}
	var left []edit.Mutant
	var allowed [][]string
	var from []pending
	var related []string // the union of their related test files
	for jk, j := range jobs {
		for i, m := range j.mutants {
			key := cache.key(p.Root(), m, j.target.Tests)
			if c, ok := cache.get(key); ok {
				mu := describe(j.target.ID, j.index[i], m, sources[m.Path])
				mu.Outcome, mu.Detail, mu.KilledBy, mu.CoveredBy = c.Outcome, c.Detail, c.KilledBy, c.CoveredBy
				if mu.CoveredBy == nil {
					mu.CoveredBy = j.target.Tests
				}
				res.Mutants = append(res.Mutants, mu)
				res.Cached++
				done++
				continue
			}
			left = append(left, m)
			allowed = append(allowed, j.target.Tests)
			from = append(from, pending{jk, i, key})
			related = append(related, j.target.Tests...)
		}
	}
	slices.Sort(related)
	related = slices.Compact(related)
	if len(left) > 0 {
		l := &lab.Lab{Root: sb.Root, Files: sb, Runner: opts.Runner, MarkerPrefix: "gate", Isolate: opts.Isolate, Coverage: true,
			Grow: func(n int) ([]lab.Slot, error) {
				sbs, err := pool.Grow(n)
				return slots(sbs), err
			},
			Progress: func(run string) {
				if run != "baseline" {
					done++
				}
				if opts.Progress != nil {
					opts.Progress(done, total, run)
				}
			}}
		out, err := l.ExecuteFor(ctx, related, left, allowed)
		if err != nil {
			return nil, err
		}
		res.Timings.Baseline, res.Timings.Batches, res.Timings.Alone = out.Baseline.Seconds(), out.Batches.Seconds(), out.Alone.Seconds()
		res.Timings.RanAlone, res.Timings.HitLimits = out.RanAlone, out.HitLimits
		ids := make([]string, len(out.Mutants))
		for _, b := range out.Baselines {
			if b.Outcome != lab.Passed {
				res.Verdict = ERROR
				res.Reason = fmt.Sprintf("the related test %s does not pass on the code as it is (%s): the gate needs a green baseline", b.Test, b.Detail)
				res.Seconds = time.Since(start).Seconds()
				return res, nil
			}
		}
		for n, r := range out.Mutants {
			pd := from[n]
			j := jobs[pd.job]
			m := j.mutants[pd.i]
			mu := describe(j.target.ID, j.index[pd.i], m, sources[m.Path])
			mu.Outcome, mu.Detail, mu.CoveredBy = string(r.Outcome), r.Detail, r.CoveredBy
			ids[n] = mu.ID
			if mu.CoveredBy == nil { // not marked: it ran against every related test file
				mu.CoveredBy = j.target.Tests
			}
			if r.Outcome.Kills() {
				mu.KilledBy = r.Test
			}
			if r.Outcome != lab.Error {
				cache.put(pd.key, cached{Outcome: mu.Outcome, Detail: mu.Detail, KilledBy: mu.KilledBy, CoveredBy: mu.CoveredBy})
			}
			res.Mutants = append(res.Mutants, mu)
		}
		for _, n := range out.Slowest {
			r := out.Mutants[n]
			res.Timings.Slowest = append(res.Timings.Slowest, SlowMutant{ID: ids[n], Outcome: string(r.Outcome), Seconds: r.Duration.Seconds()})
		}
	}
	if err := cache.save(); err != nil {
		return nil, err
	}
	score(res)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// score computes the per-file and overall scores and the verdict: (killed +
// timeout) / (killed + timeout + survived + no-coverage); errors apart.
func score(res *Result) {
	// One order whatever ran first, shard or not.
	sort.SliceStable(res.Mutants, func(i, j int) bool {
		a, b := res.Mutants[i], res.Mutants[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.ID < b.ID
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
			res.Reason = fmt.Sprintf("%s scores %.0f%%, below the threshold %.0f", f, fs.Score, res.Threshold)
		}
	}
	res.Score = percent(res.Detected, res.Total)
	if res.Total == 0 {
		res.Verdict, res.Reason = SKIP, "no mutant could be built in the functions the change touched"
	}
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
// (Stryker's report viewer), with the sources of the target files and the
// related test files as the report's tests.
func (res *Result) Report(root string) ([]byte, error) {
	byFile := map[string]*mutate.ReportOperation{}
	var files []string
	for _, m := range res.Mutants {
		op := byFile[m.File]
		if op == nil {
			src, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
			op = &mutate.ReportOperation{ID: m.File, File: m.File, Source: string(src)}
			byFile[m.File] = op
			files = append(files, m.File)
		}
		run := mutate.Run{Name: m.Operator, Outcome: lab.Outcome(m.Outcome), Detail: m.Detail, Line: m.Line, Column: m.Column,
			EndLine: m.EndLine, EndColumn: m.EndColumn, Replacement: m.Replacement,
			ID: m.ID, CoveredBy: slices.Clone(m.CoveredBy), KilledBy: []string{}}
		if m.KilledBy != "" {
			run.KilledBy = []string{m.KilledBy}
		}
		op.Runs = append(op.Runs, run)
	}
	sort.Strings(files)
	var ops []mutate.ReportOperation
	for _, f := range files {
		ops = append(ops, *byFile[f])
	}
	return mutate.MutationReport(ops)
}

// Merge joins the results of the shards of one gate (`oracle gate merge`)
// into one decision: every mutant once, scored and judged as one run would.
func Merge(parts []*Result) (*Result, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	out := &Result{Threshold: parts[0].Threshold, Files: []FileScore{}, Targets: parts[0].Targets, Mutants: []Mutant{}}
	seen := map[string]bool{}
	for _, p := range parts {
		if p.Threshold != out.Threshold {
			return nil, fmt.Errorf("the shards were run with different thresholds (%v and %v)", out.Threshold, p.Threshold)
		}
		if p.Verdict == ERROR {
			out.Verdict, out.Reason = ERROR, p.Reason
		}
		for _, m := range p.Mutants {
			if !seen[m.ID] {
				seen[m.ID] = true
				out.Mutants = append(out.Mutants, m)
			}
		}
		out.Seconds = max(out.Seconds, p.Seconds)
	}
	if out.Verdict == ERROR {
		return out, nil
	}
	if len(out.Mutants) == 0 {
		out.Verdict, out.Reason = parts[0].Verdict, parts[0].Reason
		return out, nil
	}
	score(out)
	return out, nil
}
