// Package prove is `oracle prove`: it proves generated oracles are not
// vacuous. Each operation's oracle runs, in a sandbox copy of the
// repository, against the code as it is (baseline), red-first and every
// mutant of the operation, on the engine (mutate/: mutate/operators choose
// the mutants, mutate/lab runs them on mutate/sandbox and mutate/runner and
// classifies each run); prove judges the operations from those outcomes
// (this file). It takes plain jobs (Job), built by the caller from gen's
// plan: it neither reads the manifest nor locates a function.
package prove

import (
	"regexp"
	"strings"

	"github.com/oracle-ts/oracle/internal/jsonorder"
	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
)

// Verdict of an operation, or of the whole run: the lab's verdicts.
type Verdict = lab.Verdict

const (
	PASS  = lab.PASS
	FAIL  = lab.FAIL
	SKIP  = lab.SKIP
	ERROR = lab.ERROR
)

// Attribution says who owns a FAIL or an ERROR, so a pipeline can route it.
type Attribution string

const (
	Implementation Attribution = "implementation" // the code under test is wrong: the baseline fails an assertion
	Oracle         Attribution = "oracle"         // the test is too weak: red-first green, or a mutant survived
	Generator      Attribution = "generator"      // the generated file does not compile or import: oracle's own bug
	Environment    Attribution = "environment"    // vitest missing, the run timed out as a whole, disk
)

// Run is one run of the oracle: the baseline, red-first, or a mutant.
type Run struct {
	Name     string        `json:"name"`
	Operator edit.Operator `json:"-"` // the mutant's; "" for the baseline
	// Decision is what the run decided (the lab's record): its outcome,
	// its detail, and why the mutant ran alone, not decided in a batch
	// (AloneWhy: lab's Alone* reasons; "" when a batch decided it). The
	// document leaves out the test files that killed and covered it (the
	// oracle, every time: runKeys).
	lab.Decision
	File    string  `json:"file,omitempty"`
	Line    int     `json:"line,omitempty"`
	Diff    string  `json:"diff,omitempty"`
	Seconds float64 `json:"seconds,omitempty"` // with --timings only
	Batched bool    `json:"-"`                 // established in a batched run

	Baseline bool `json:"-"` // the run on the unmutated code

	// Where the mutant changed the source (1-based; end exclusive), for the
	// mutation report. Zero for the baseline.
	Column, EndLine, EndColumn int    `json:"-"`
	Replacement                string `json:"-"`
}

// runKeys are a Run's members in the order of the oracle.prove/v1
// document (aloneWhy last), and those it leaves out.
var runKeys, runDropped = []string{"name", "outcome", "detail", "file", "line", "diff", "seconds", "aloneWhy"},
	[]string{"killedBy", "killedByTest", "coveredBy"}

// MarshalJSON writes r's members in the document's order (runKeys).
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run
	return jsonorder.Marshal(plain(r), runKeys, runDropped...)
}

// Judge renders the verdict of one operation from its runs: the baseline
// (the run marked Baseline) and the mutants' runs.
// env is set when a run could not happen for a reason of the environment
// (vitest missing, the whole run timed out): that is ERROR whatever else ran.
func Judge(runs []Run, env string) (Verdict, Attribution, string) {
	if env != "" {
		return ERROR, Environment, env
	}
	var base *Run
	var mutants []Run
	for i := range runs {
		if runs[i].Baseline {
			base = &runs[i]
		} else {
			mutants = append(mutants, runs[i])
		}
	}
	if base == nil {
		return ERROR, Generator, "nothing ran"
	}
	switch base.Outcome {
	case lab.Failed:
		return FAIL, Implementation, "baseline: " + base.Detail
	case lab.Error:
		return ERROR, Generator, "baseline: the oracle could not run: " + base.Detail
	case lab.Timeout:
		return ERROR, Environment, "baseline: timed out: " + base.Detail
	}
	for _, r := range mutants {
		if r.Outcome == lab.Error {
			return ERROR, Generator, r.Name + ": the oracle could not run on the mutant: " + r.Detail
		}
	}
	for _, r := range mutants {
		switch r.Outcome {
		case lab.Survived:
			if r.Operator == edit.RedFirst {
				return FAIL, Oracle, "red-first: the oracle passes when the flag is ignored (vacuous)"
			}
			return FAIL, Oracle, r.Name + ": survived"
		case lab.NoCoverage:
			return FAIL, Oracle, r.Name + ": the mutated code never ran"
		}
	}
	return PASS, "", ""
}

// Overall combines operation verdicts: any ERROR, else any FAIL, else PASS
// when something passed, else SKIP.
func Overall(vs []Verdict) Verdict {
	out := SKIP
	for _, v := range vs {
		switch {
		case v == ERROR:
			return ERROR
		case v == FAIL:
			out = FAIL
		case v == PASS && out == SKIP:
			out = PASS
		}
	}
	return out
}

// environmentSigns are what an error says when the machine, not the code or
// the oracle, failed: the disk, file handles, memory, the vitest install.
var environmentSigns = []string{
	"enospc", "no space left on device", "emfile", "too many open files", "enomem",
	"heap out of memory", "cannot find package 'vitest'", "node_modules/vitest/", "node_modules/vite/",
	"eacces", "permission denied", "erofs", "read-only file system",
	dynamicImportSign,
}

// dynamicImportSign is what jest says when a test file's import() runs and the
// repository's transform left it as it is (jest runs CommonJS: node's own
// import() needs --experimental-vm-modules).
const dynamicImportSign = "dynamic import callback was invoked without --experimental-vm-modules"

// LoadErrorHint is what to do about an oracle that could not run, when its
// error says it ("" otherwise): the transform a jest repository needs.
func LoadErrorHint(detail, oracle string) string {
	if strings.Contains(strings.ToLower(detail), dynamicImportSign) {
		return " (the oracle " + oracle + " imports the code under test with import() after the fixture's setup: jest's transform must turn import() into require(), as ts-jest does, and babel-jest with @babel/preset-env or @babel/plugin-transform-dynamic-import)"
	}
	return ""
}

// tsPath finds the TypeScript files an error message names.
var tsPath = regexp.MustCompile(`[A-Za-z0-9_@.\-/]+\.(?:ts|tsx|mts|cts)\b`)

// AttributeLoadError says who owns an oracle that could not run (ERROR
// [generator] from Judge): the environment when the message says the
// machine or the vitest install failed; the implementation when it names a
// file of the repository other than the oracle (a syntax error in the
// function's file, an import of a missing module: the user's code does not
// load); oracle's own generator otherwise (its file does not compile or
// import).
func AttributeLoadError(detail, oracle string) Attribution {
	low := strings.ToLower(detail)
	for _, sign := range environmentSigns {
		if strings.Contains(low, sign) {
			return Environment
		}
	}
	for _, f := range tsPath.FindAllString(detail, -1) {
		if strings.Contains(f, "node_modules/") || oracle != "" && (strings.HasSuffix(f, oracle) || strings.HasSuffix(oracle, strings.TrimLeft(f, "./"))) {
			continue
		}
		return Implementation
	}
	return Generator
}
