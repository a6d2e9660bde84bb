package lab

import (
	"strings"

	"github.com/oracle-ts/oracle/internal/text"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// Why a mutant runs alone (a vitest run of its own per test file) rather
// than being decided in a batch: Run.AloneWhy, one of these. Each is fixed
// text (AloneNoSchema is followed by the schema's own reason), so a
// document that carries them stays the same from run to run, and
// `--timings` can count them.
const (
	// AloneIsolate: Lab.Isolate (--isolate) runs every mutant alone.
	AloneIsolate = "isolate"
	// AloneRunner: the test runner's runs cannot hold a batch
	// (runner.CanBatch: jest's), so every mutant runs alone, as with
	// Isolate.
	AloneRunner = "the test runner runs no batches"
	// AloneSingle: the lab had one mutant to run; a batch of one saves no run.
	AloneSingle = "the only mutant to run: no batch for one"
	// AloneUnreadable: the mutated file could not be read to build its schema.
	AloneUnreadable = "its file could not be read for the schema"
	// AloneNoSchema: the schema has no switch for the mutant where it is (a
	// change outside a function body, a body that starts with a directive,
	// an arrow whose expression holds another switched body, a file the
	// schema cannot parse); the schema's reason follows after ": ".
	AloneNoSchema = "no schema switch in this function shape"
	// AloneHarnessPath: the test file's name cannot be written in the
	// harness's import.
	AloneHarnessPath = "the test file's name cannot be imported by the batch harness"
	// AloneBatchTimedOut: the batch ran past its time-out, or stopped
	// progressing: nothing in it is trusted.
	AloneBatchTimedOut = "the batch timed out"
	// AloneBatchNoTests: the batch reported no test (its harness did not
	// load, or its worker died).
	AloneBatchNoTests = "the batch did not load"
	// AloneBatchUnhandled: an error was raised outside every test of the
	// batch (vitest's "Unhandled Rejection"): the run failed, and which
	// variant raised it the batch cannot tell.
	AloneBatchUnhandled = "an unhandled error in the batch"
	// AloneOverlap: the batch's blocks did not run one after the other
	// (a config that runs suites concurrently, in a way the harness does not
	// undo): its variants shared the switch, and nothing of it is read.
	AloneOverlap = "the batch's variants ran at the same time"
	// AloneBaselineFailed: the original code, run first in the batch, failed.
	AloneBaselineFailed = "the batch's baseline failed"
	// AloneClosingFailed: the original code, run last in the batch, failed:
	// a variant left state behind.
	AloneClosingFailed = "the batch's closing baseline failed: a variant left state behind"
	// AloneLoadThrew: the variant threw while the test file and its modules
	// loaded, so it has no test in the batch; alone the failure is judged.
	AloneLoadThrew = "a variant threw while loading"
	// AloneHitLimit: the variant ran past the hit limit in its batch, and
	// its batch run again with the limit raised (again.go) did not decide
	// it (that batch was not trusted): alone, its hits counted (count.go),
	// the run confirms a loop (timeout) or not.
	AloneHitLimit = "hit-limit confirmation"
	// AloneSlowTest: a test that executed the variant ran into vitest's
	// own time-out in the batch, below the variant's time limit: alone,
	// with vitest's time-outs raised to that limit, the run confirms it
	// (timeout) or not (slow.go).
	AloneSlowTest = "vitest's time-out confirmation"
	// AloneConcurrentKill: in the batch a test killed it that did not itself
	// run its code, as far as the batch can tell: the code ran in a
	// concurrent test, which every test beside it counts as having run
	// (a flaky concurrent neighbour's failure is no kill); alone, the kill
	// is repeated and checked against the original (loadkill.go).
	AloneConcurrentKill = "its kill in the batch is by a test beside a concurrent one that ran its code: confirmed alone"
	// AloneOtherTest: in the batch only tests that never executed the
	// variant's code failed: no kill there, repeated alone.
	AloneOtherTest = "another test failed: repeated alone"
	// AloneSetupFailed: a beforeEach or afterEach hook failed under the
	// variant in the batch (a setup failure is not trusted there).
	AloneSetupFailed = "a setup or teardown hook failed in the batch"
	// AloneNoTestRan: every test of the variant was skipped in the batch.
	AloneNoTestRan = "no test of the variant ran in the batch"
	// AloneSurvivor: the variant passed every test of its batch; without a
	// coverage run (prove) a pass does not tell survived from no-coverage,
	// so the run alone, with its reached marker, does.
	AloneSurvivor = "it passed in its batch: a survivor is confirmed alone"
	// AloneShared: the variant passed in a batch where a schema was loaded
	// before the harness (a setup file imports it) or a variant changed the
	// realm's globals: the pass may be another variant's state.
	AloneShared = "it passed in a batch whose load-time state is shared (a schema preloaded, or a global changed)"
	// AloneUndecided: any other variant the batch did not decide.
	AloneUndecided = "the batch did not decide it"
)

// untrustedWhy says why batchTrusted refused the batch r whose opening and
// closing baselines are first and last.
func untrustedWhy(r runner.Result, first, last []runner.Test) string {
	switch {
	case r.TimedOut:
		return AloneBatchTimedOut
	case len(r.Tests) == 0:
		return AloneBatchNoTests
	case len(r.Unhandled) > 0:
		return AloneBatchUnhandled
	case !green(first):
		return AloneBaselineFailed
	default:
		return AloneClosingFailed
	}
}

// Refusal is a batch whose results were not used (batchTrusted): its test
// file, why (one of the Alone* reasons its mutants ran alone for), and what
// the run said (refusalDetail). Result.Refused lists them, for --timings.
type Refusal struct {
	Test   string `json:"test"`
	Why    string `json:"why"`
	Detail string `json:"detail,omitempty"`
}

// refusalDetail says what the batch run r said that made why: the first
// failed test of the baseline it names (first or last: its name within the
// test file, as readBlocks left it, and its failure), the first unhandled
// error, or the file's own message.
func refusalDetail(why string, r runner.Result, first, last []runner.Test) string {
	failed := func(ts []runner.Test) string {
		for _, t := range ts {
			if t.Status != runner.TestPassed && t.Status != runner.TestSkipped {
				return strings.TrimSpace(t.Name + ": " + text.FirstLine(t.Failure, 300))
			}
		}
		return ""
	}
	switch why {
	case AloneBaselineFailed:
		return failed(first)
	case AloneClosingFailed:
		return failed(last)
	case AloneBatchUnhandled:
		return text.FirstLine(r.Unhandled[0], 300)
	case AloneBatchNoTests:
		return text.FirstLine(r.FileMessage, 300)
	}
	return ""
}

// undecidedWhy says why variantOutcome left v undecided in a trusted
// batch (preloaded: readBlocks's).
func undecidedWhy(v variant, preloaded bool) string {
	if v.hit {
		return AloneHitLimit
	}
	if len(v.tests) == 0 {
		return AloneLoadThrew
	}
	failed, body, other := failures(v.tests)
	switch {
	case failed == 0 && !green(v.tests):
		return AloneNoTestRan
	case failed == 0 && preloaded:
		return AloneShared
	case failed == 0:
		return AloneSurvivor
	case killer(v.tests, func(t runner.Test) bool { return v.ranAll || v.ran[t.Name] }) != nil:
		return AloneSlowTest // a test that executed it ran into vitest's time-out only
	case body != nil || timedOutOnly(v.tests) != nil:
		return AloneOtherTest // the failures were of tests that never executed it
	case other != nil:
		return AloneSetupFailed
	}
	return AloneUndecided
}
