// Package runner runs one vitest test file in a repository (a prove sandbox) and reports
// what happened, facts only: which tests ran, which failed, in which phase and with what
// failure, whether the run timed out, and whether the mutated code was reached. What that
// means for a mutant is the lab's judgment (mutate/lab).
//
// The runner uses the repository's own vitest (FindVitest), never npx, with the JSON
// reporter plus a small embedded reporter (phases.mjs) that records, per failed test, whether
// the failure happened in a beforeEach hook ("setup"), in the test body ("body") or only in
// an afterEach hook ("teardown"). See read (report.go) for how the reports are read.
//
// ProcessRunner starts vitest per run; LongLivedRunner (longlived.go) keeps one per repository.
package runner

import (
	"context"
	"time"
)

// Spec says what to run.
type Spec struct {
	Dir      string        // repository (sandbox) root, absolute
	TestFile string        // repo-relative path of the oracle test file
	Timeout  time.Duration // per run; 0 = none
	// ReachedMarker is optional: the id a MarkerStatement in the mutated code appends to the
	// file named by $ORACLE_REACHED. Result.Reached tells whether it appeared.
	ReachedMarker string
	// Coverage says the code under test carries reached markers (a coverage run): the
	// runner checks that node can run them, and Result.Markers lists the ids that ran.
	Coverage bool
	// Config is optional: a vitest config file, relative to Dir, passed as -c. Empty: vitest
	// finds the package's own config (the normal case for oracles, which live inside the
	// default include). Needed for files outside the config's include (testdata/pipeline's
	// reference/ oracles need vitest.reference.config.ts). A config above Dir
	// ("../../vitest.config.ts": a workspace's one config, testsuite.Config.Above)
	// runs vitest from its directory (VitestDir).
	Config string
	// Stall, when set, lets a run that is past Timeout go on while it shows progress: it
	// times out only once Timeout has passed and the file named by $ORACLE_PROGRESS (which
	// the run appends to, as a batch harness does after each test) has not grown for Stall.
	// A run that stops progressing (a worker spinning in a loop) ends Stall after its last
	// progress, however many variants came before.
	Stall time.Duration
	// Once: a time-out is final, not re-run (a batch is abandoned, not run again).
	Once bool
	// TestTimeout, when set, is vitest's testTimeout and hookTimeout for the run (passed as
	// --testTimeout and --hookTimeout, over the config's): a run that confirms whether a
	// test that ran into vitest's own time-out only ran slow (lab: a suspicion, like a hit
	// limit). The LongLivedRunner hands such a run to its Fallback (a fresh vitest process).
	TestTimeout time.Duration
	// TestName, when set, runs only the test of that full name (Test.Name): vitest's
	// -t, anchored and escaped. The LongLivedRunner hands such a run to its Fallback.
	TestName string
}

// ProgressEnv names the file a run may append to, to show it is progressing (Spec.Stall).
const ProgressEnv = "ORACLE_PROGRESS"

// Phase says where a failed test failed.
type Phase string

const (
	PhaseSetup    Phase = "setup"    // a beforeEach hook threw: the body never ran
	PhaseBody     Phase = "body"     // the test body failed (assertion, or the code under test threw)
	PhaseTeardown Phase = "teardown" // the body passed; only an afterEach hook threw
	PhaseUnknown  Phase = ""         // not failed, or the phase reporter gave no answer
)

// TestStatus is what became of one test case.
type TestStatus string

const (
	TestPassed  TestStatus = "passed"
	TestFailed  TestStatus = "failed"
	TestSkipped TestStatus = "skipped" // also todo and pending
)

// Test is the outcome of one test case, from the JSON reporter.
type Test struct {
	Name string // full name: describe titles and the test title joined by spaces
	// Title is the test's own title, Ancestors the titles of the describe
	// blocks around it, outermost first; Line is where the test is declared
	// in its file (1-based, 0: vitest did not say).
	Title     string
	Ancestors []string
	Line      int
	Status    TestStatus
	Phase     Phase  // for a failed test: where it failed
	Failure   string // first failure message, first line(s), ANSI stripped, sanitized, short
	// TimedOut: the test failed by vitest's own time-out (testTimeout or hookTimeout: "Test
	// timed out in 5000ms"), not by an assertion or an exception.
	TimedOut bool
	// Duration is the test's own time, as vitest's JSON report has it (0: not reported).
	Duration time.Duration
}

// Result is what one run established: facts only (what ran, what failed, in
// which phase and with what failure, whether the run timed out). What they mean
// for a baseline or a mutant is the lab's judgment (mutate/lab/outcome.go).
type Result struct {
	Tests   []Test // the test file's tests, in the reporter's order
	Reached bool   // the mutated code ran (Spec.ReachedMarker appeared)
	// Markers are the distinct marker ids the run appended to $ORACLE_REACHED, sorted:
	// for a coverage run, the mutants whose code the test file reached.
	Markers []string
	// ReachedIn are the tests (full names, as Test.Name) in which the mutated code ran, and
	// ReachedOutside is [""] when it ran outside every test (in a beforeAll or afterAll hook,
	// or while the file loaded; the block is not named): when the mutated code carries
	// RanMarkerStatement. Both empty for the other markers.
	ReachedIn, ReachedOutside []string
	// HitLimit is the limit at which the mutated code's hit counter (HitCounter) stopped a
	// test of the run (0: none did), and HitsOver the greatest count a test reached that
	// the counter recorded (0: none): when the code carries HitCounter's function.
	HitLimit, HitsOver int64
	// TimedOut: the run exceeded Spec.Timeout (on every attempt); Note says after how
	// long, and the Tests are empty.
	TimedOut bool
	// NoReport: the run left no result for the test file (vitest wrote no report, an
	// unreadable one, or none for this file); Note says which, with vitest's last line.
	NoReport bool
	// Note is the one-line account of a time-out or of a missing report.
	Note string
	// FileFailed: vitest marked the test file failed; FileMessage is the file's own
	// error (a load error: syntax, a missing module, a top-level throw; or a beforeAll or
	// afterAll that threw), one line, cleaned.
	FileFailed  bool
	FileMessage string
	// Unhandled are the errors raised outside any test during the run (a rejection
	// nobody awaits), first lines, cleaned.
	Unhandled []string
	// LastLine is the last line of vitest's output, cleaned.
	LastLine string
	Duration time.Duration // of the run reported (the re-run, after a first time-out)
	Attempts int           // 1, or 2 when the first attempt timed out and was re-run
	ExitCode int           // vitest's exit code (-1 when killed)
}

// Executed counts the tests that actually ran (passed or failed).
func (r Result) Executed() int {
	n := 0
	for _, t := range r.Tests {
		if t.Status == TestPassed || t.Status == TestFailed {
			n++
		}
	}
	return n
}

// Runner runs a Spec. The error is for "could not run at all" (vitest missing, node missing,
// context cancelled): the caller maps it to the environment attribution. Everything vitest
// reported, including a file that does not compile, is a Result: it says what vitest
// reported, and the lab (mutate/lab) decides what that means for a mutant (a setup failure
// is never a kill).
type Runner interface {
	Run(ctx context.Context, s Spec) (Result, error)
	// Close stops whatever the runner keeps running (vitest processes and their workers)
	// and waits for them. A runner that keeps nothing returns nil.
	Close() error
}

// Batcher is a runner that says whether one of its runs can hold a batch (the lab's
// harness: several variants of the code behind a switch, run one after the other in one
// process). A runner that cannot (JestRunner: a jest run holds one version of the code)
// has every mutant run alone by the lab, as --isolate does. A runner that does not say
// can.
type Batcher interface {
	Batches() bool
}

// CanBatch reports whether r's runs can hold a batch (Batcher).
func CanBatch(r Runner) bool {
	b, ok := r.(Batcher)
	return !ok || b.Batches()
}

// MutantPreparer is a runner that wants a mutated file's source changed before it runs it
// (JestRunner: ts-jest type-checks what it runs, where vitest's transform only strips the
// types).
type MutantPreparer interface {
	PrepareMutant(path string, src []byte) []byte
}

// PrepareMutant is src, the source of a mutant of the file at path, as r runs it
// (MutantPreparer); src itself for a runner that does not say.
func PrepareMutant(r Runner, path string, src []byte) []byte {
	if p, ok := r.(MutantPreparer); ok {
		return p.PrepareMutant(path, src)
	}
	return src
}
