package lab

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestConfirmLoadKill: a kill by a test that executed the mutated code
// only while its file loaded (a module's top-level regex: every test of
// every file that loads the module "executed" it) is repeated, then the
// file runs on the code as it is; a killer that fails there too is a flaky
// test, an error naming it, never a kill (vuejs/core bd962bbac: a timing
// assertion of computed.spec.ts "killed" three of escapeHtml.ts's regex
// mutants on a loaded machine, one of them a survivor by hand). A kill by a
// test that executed the code itself is not run again.
func TestConfirmLoadKill(t *testing.T) {
	loadOnly := func(status runner.TestStatus) runner.Result {
		r := runner.Result{Tests: []runner.Test{{Name: "perf", Status: status, Phase: runner.PhaseBody}}, ReachedOutside: []string{""}, Reached: true}
		if status == runner.TestFailed {
			r.Tests[0].Failure, r.ExitCode = "expected 133 to be less than 100", 1
		}
		return r
	}
	inTest := runner.Result{Tests: []runner.Test{{Name: "uses", Status: runner.TestFailed, Phase: runner.PhaseBody, Failure: "wrong"}}, ReachedIn: []string{"uses"}, Reached: true, ExitCode: 1}
	for _, tc := range []struct {
		name         string
		first        runner.Result
		again, orig  runner.TestStatus // the repeat with the mutant, the run of the code as it is
		want         Outcome
		wantRuns     int
		detailPrefix string
	}{
		{"a flaky killer: fails again, and on the code as it is", loadOnly(runner.TestFailed), runner.TestFailed, runner.TestFailed, Error, 2, LoadKillFailure},
		{"a real kill: fails again, passes on the code as it is", loadOnly(runner.TestFailed), runner.TestFailed, runner.TestPassed, Killed, 2, "expected"},
		{"the repeat passes: the first failure was not the mutant's", loadOnly(runner.TestFailed), runner.TestPassed, runner.TestPassed, Survived, 1, "killed by perf in a first run"},
		{"a test that executed it itself: no repeat", inTest, runner.TestPassed, runner.TestPassed, Killed, 0, "wrong"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := &memFiles{orig: "orig", current: "mutant"}
			f := &fakeRunner{files: files, answer: func(test, src string) runner.Result {
				if src == "orig" {
					return loadOnly(tc.orig)
				}
				return loadOnly(tc.again)
			}}
			l := &Lab{Root: "/sb", Files: files, Runner: f}
			spec := l.aloneSpec("/sb", "a.test.ts", time.Minute, "m1", "")
			j := judgeAlone(tc.first, true, "m1")
			var took time.Duration
			got, err := l.confirmLoadKill(context.Background(), Slot{Root: "/sb", Files: files}, "x.ts", []byte("mutant"), spec, tc.first, j, true, &took)
			if err != nil {
				t.Fatal(err)
			}
			if got.outcome != tc.want || !strings.HasPrefix(got.detail, tc.detailPrefix) || len(f.runs) != tc.wantRuns {
				t.Errorf("%s %q after %d runs; want %s %q... after %d", got.outcome, got.detail, len(f.runs), tc.want, tc.detailPrefix, tc.wantRuns)
			}
			if files.current != "mutant" {
				t.Errorf("the sandbox holds %q after the confirmation, want the mutant back", files.current)
			}
		})
	}
}
