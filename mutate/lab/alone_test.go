package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// TestAloneWhy: every mutant that runs alone says why (Run.AloneWhy), one
// reason per path that sends it alone; a mutant a batch decided says
// nothing.
func TestAloneWhy(t *testing.T) {
	cases := []struct {
		name string
		behs []behaviour
		want []string
	}{
		{"a kill and a survivor", []behaviour{{"kill", "kill"}, {"pass", "pass"}}, []string{"", AloneSurvivor}},
		{"contamination", []behaviour{{"kill", "contaminate"}, {"pass", "pass"}}, []string{AloneClosingFailed, AloneClosingFailed}},
		{"the opening baseline", []behaviour{{"kill", "basefail"}, {"kill", "kill"}}, []string{AloneBaselineFailed, AloneBaselineFailed}},
		{"a setup failure", []behaviour{{"pass", "setup"}, {"kill", "kill"}}, []string{AloneSetupFailed, ""}},
		{"the batch timed out", []behaviour{{"kill", "kill"}, {"kill", "hang"}}, []string{AloneBatchTimedOut, AloneBatchTimedOut}},
		{"the batch crashed", []behaviour{{"kill", "kill"}, {"kill", "crash"}}, []string{AloneBatchNoTests, AloneBatchNoTests}},
		// Stopped by the hit limit, decided in its batch run again with the
		// limit raised (again.go).
		{"the hit limit", []behaviour{{"kill", "limit"}, {"kill", "kill"}}, []string{"", ""}},
		{"the hit limit, then a pass", []behaviour{{"pass", "limit"}, {"kill", "kill"}}, []string{AloneSurvivor, ""}},
		{"another test failed", []behaviour{{"pass", "other"}, {"kill", "kill"}}, []string{AloneOtherTest, ""}},
		{"a variant threw while loading", []behaviour{{"kill", "noload"}, {"kill", "kill"}}, []string{AloneLoadThrew, ""}},
		{"every test skipped", []behaviour{{"pass", "skip"}, {"kill", "kill"}}, []string{AloneNoTestRan, ""}},
		{"a global changed", []behaviour{{"pass", "shared"}, {"kill", "kill"}}, []string{AloneShared, ""}},
		{"one mutant", []behaviour{{"kill", "kill"}}, []string{AloneSingle}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := runBatchedResult(t, c.behs)
			if got := whys(res); got != strings.Join(c.want, "|") {
				t.Errorf("aloneWhy %s\nwant     %s", got, strings.Join(c.want, "|"))
			}
		})
	}
}

func whys(res *Result) string {
	var out []string
	for _, r := range res.Mutants {
		out = append(out, r.AloneWhy)
	}
	return strings.Join(out, "|")
}

// TestAloneWhyOfTheLab: the reasons decided before any batch runs:
// --isolate, a change the schema has no switch for (outside a function
// body), a file that cannot be read, a test file whose name the harness
// cannot import.
func TestAloneWhyOfTheLab(t *testing.T) {
	orig := "export const X = 1;\nexport function f(a: number) {\n  return a + 1;\n}\n"
	mut := func(path, old, repl string) edit.Mutant {
		at := strings.Index(orig, old)
		m, err := edit.NewMutant("test", repl, path, []byte(orig), []edit.Change{{Start: uint(at), End: uint(at + len(old)), Text: repl}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	outside, inside, other := mut("x.ts", "1;", "2 /*m1*/;"), mut("x.ts", "a + 1", "a - 2 /*m2*/"), mut("gone.ts", "a + 1", "a - 3 /*m3*/")
	cases := []struct {
		name    string
		isolate bool
		test    string
		ms      []edit.Mutant
		want    string
	}{
		{"isolate", true, "x.test.ts", []edit.Mutant{outside, inside}, AloneIsolate + "|" + AloneIsolate},
		{"no schema switch", false, "x.test.ts", []edit.Mutant{outside, inside}, AloneNoSchema + ": the change is outside a function body|"},
		{"unreadable", false, "x.test.ts", []edit.Mutant{inside, other}, "|" + AloneUnreadable},
		{"harness path", false, `q"x.test.ts`, []edit.Mutant{inside, inside}, AloneHarnessPath + "|" + AloneHarnessPath},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
			os.WriteFile(filepath.Join(dir, c.test), []byte("// the test\n"), 0o644)
			r := &batchRunner{root: dir, mutants: map[int]behaviour{1: {"kill", "kill"}, 2: {"kill", "kill"}, 3: {"kill", "kill"}}}
			l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, MarkerPrefix: "op", Isolate: c.isolate}
			res, err := l.Execute(context.Background(), []string{c.test}, c.ms)
			if err != nil {
				t.Fatal(err)
			}
			if got := whys(res); got != c.want {
				t.Errorf("aloneWhy %s\nwant     %s\n%s", got, c.want, fmt.Sprint(summarize(res)))
			}
		})
	}
}

// TestRefusedSays: a batch whose results are not used is listed in
// Result.Refused with why and what its run said: the baseline test that
// failed there and its failure; a batch that was used is not listed.
func TestRefusedSays(t *testing.T) {
	cases := []struct {
		name string
		behs []behaviour
		want string
	}{
		{"used", []behaviour{{"kill", "kill"}, {"pass", "pass"}}, ""},
		{"the opening baseline", []behaviour{{"kill", "basefail"}, {"kill", "kill"}}, AloneBaselineFailed + ": t: red"},
		{"contamination", []behaviour{{"kill", "contaminate"}, {"pass", "pass"}}, AloneClosingFailed + ": t: polluted"},
		{"the batch timed out", []behaviour{{"kill", "kill"}, {"kill", "hang"}}, AloneBatchTimedOut},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := runBatchedResult(t, c.behs)
			var got []string
			for _, r := range res.Refused {
				if r.Test != "x.test.ts" {
					t.Errorf("refused batch of %q, want x.test.ts", r.Test)
				}
				got = append(got, strings.TrimSuffix(r.Why+": "+r.Detail, ": "))
			}
			if strings.Join(got, "|") != c.want {
				t.Errorf("refused %q\nwant    %q", strings.Join(got, "|"), c.want)
			}
		})
	}
}

// TestRefusalDetail: what a refused batch's run said, per reason: the
// failed baseline test's name within the file and its failure's first
// line; the unhandled error; the file's
// message.
func TestRefusalDetail(t *testing.T) {
	failed := []runner.Test{
		{Name: "s", Status: runner.TestPassed},
		{Name: "checkout saves", Status: runner.TestFailed, Failure: "Error: no such table: orders\n    at repo.ts:3"},
	}
	green := []runner.Test{{Name: "t", Status: runner.TestPassed}}
	cases := []struct {
		why         string
		r           runner.Result
		first, last []runner.Test
		want        string
	}{
		{AloneBaselineFailed, runner.Result{}, failed, green, "checkout saves: Error: no such table: orders"},
		{AloneClosingFailed, runner.Result{}, green, failed, "checkout saves: Error: no such table: orders"},
		{AloneBatchUnhandled, runner.Result{Unhandled: []string{"TypeError: x is not a function\nstack"}}, green, green, "TypeError: x is not a function"},
		{AloneBatchNoTests, runner.Result{FileMessage: "Failed to load url ./x"}, nil, nil, "Failed to load url ./x"},
		{AloneBatchTimedOut, runner.Result{TimedOut: true}, green, green, ""},
	}
	for _, c := range cases {
		if got := refusalDetail(c.why, c.r, c.first, c.last); got != c.want {
			t.Errorf("%s: %q, want %q", c.why, got, c.want)
		}
	}
}
