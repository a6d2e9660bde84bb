// Package runner runs one vitest test file in a repository (a prove sandbox) and classifies
// the outcome with evidence: which tests ran, which failed and where, the first failure
// message, and whether the mutated code was reached.
//
// The runner uses the repository's own vitest (FindVitest), never npx, with the JSON
// reporter plus a small embedded reporter (phases.mjs) that records, per failed test, whether
// the failure happened in a beforeEach hook ("setup"), in the test body ("body") or only in
// an afterEach hook ("teardown"). See Classify for the rules.
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
	// reference/ oracles need vitest.reference.config.ts).
	Config string
	// Stall, when set, lets a run that is past Timeout go on while it shows progress: it
	// times out only once Timeout has passed and the file named by $ORACLE_PROGRESS (which
	// the run appends to, as a batch harness does after each test) has not grown for Stall.
	// A run that stops progressing (a worker spinning in a loop) ends Stall after its last
	// progress, however many variants came before.
	Stall time.Duration
	// Once: a time-out is final, not re-run (a batch is abandoned, not run again).
	Once bool
}

// ProgressEnv names the file a run may append to, to show it is progressing (Spec.Stall).
const ProgressEnv = "ORACLE_PROGRESS"

// Status is the classified outcome of one run.
type Status string

const (
	Passed  Status = "passed"  // every executed test passed and at least one ran
	Failed  Status = "failed"  // at least one test failed in its body (assertion or a throw)
	Error   Status = "error"   // the oracle could not run (load/syntax/setup failure, nothing ran, no report)
	Timeout Status = "timeout" // the run exceeded Spec.Timeout twice in a row
)

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
}

// Result is what one run established.
type Result struct {
	Status   Status
	Tests    []Test
	Executed int  // tests that actually ran (passed + failed)
	Reached  bool // the mutated code ran (Spec.ReachedMarker appeared)
	// Markers are the distinct marker ids the run appended to $ORACLE_REACHED, sorted:
	// for a coverage run, the mutants whose code the test file reached.
	Markers []string
	// Detail is set for failed/error/timeout: the first failure message or the load error,
	// one line, with no absolute path of the machine.
	Detail   string
	Duration time.Duration // of the run reported (the re-run, after a first time-out)
	Attempts int           // 1, or 2 when the first attempt timed out and was re-run
	ExitCode int           // vitest's exit code (-1 when killed)
}

// Runner runs a Spec. The error is for "could not run at all" (vitest missing, node missing,
// context cancelled): the caller maps it to the environment attribution. Everything vitest
// reported, including a file that does not compile, is a Result: its Status says what vitest
// reported, and the lab (mutate/lab) decides what that means for a mutant (a setup failure
// is never a kill).
type Runner interface {
	Run(ctx context.Context, s Spec) (Result, error)
	// Close stops whatever the runner keeps running (vitest processes and their workers)
	// and waits for them. A runner that keeps nothing returns nil.
	Close() error
}

// NoTestExecuted begins the Detail of a run in which the test file loaded
// but every test was skipped (or there were none).
const NoTestExecuted = "no test executed"
