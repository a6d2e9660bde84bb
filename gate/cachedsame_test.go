package gate

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestCachedIsFresh: an outcome the cache gives back is the entry its run
// made, byte for byte in the document (SPEC "Output and exit codes": the
// same inputs, the same bytes, from the cache or not): a mutant no test
// reached keeps its empty coveredBy (not its target's test files), one
// that ran alone keeps why.
func TestCachedIsFresh(t *testing.T) {
	j := &job{target: &Target{ID: "src/a.ts#f", File: "src/a.ts", Tests: []string{"test/a.test.ts", "test/b.test.ts"}}}
	tests := map[string][]TestCase{"test/a.test.ts": {{ID: "test/a.test.ts > adds", Name: "adds", FullName: "adds"}}}
	for _, tc := range []struct {
		name string
		run  lab.Run
	}{
		{"no test reached it", lab.Run{Outcome: lab.NoCoverage, Detail: "no related test file reached it", CoveredBy: []string{}}},
		{"ran alone", lab.Run{Outcome: lab.Survived, CoveredBy: []string{"test/a.test.ts"}, AloneWhy: lab.AloneIsolate}},
		{"killed", lab.Run{Outcome: lab.Killed, Test: "test/a.test.ts", KilledBy: "adds", CoveredBy: []string{"test/a.test.ts"}}},
		{"not marked: every test file", lab.Run{Outcome: lab.Survived}},
	} {
		root := t.TempDir()
		mu := &mutant{job: j, edit: edit.Mutant{Path: "src/a.ts", Operator: "BooleanLiteral", Replacement: "false", Diff: "-true\n+false\n"}}
		res := &Result{sources: map[string][]byte{}, Tests: tests, Timings: Timings{AloneWhy: map[string]int{}}}
		fresh := openCache(root, false, nil)
		mu.key = fresh.key(root, mu.edit, j.target.Tests)
		want, _ := json.Marshal(record(mu, tc.run, res, fresh))
		if err := fresh.save(); err != nil {
			t.Fatal(err)
		}
		hits, left := lookUp(openCache(root, false, nil), root, []*mutant{mu}, res.sources)
		if len(hits) != 1 || len(left) != 0 {
			t.Fatalf("%s: %d hits, %d left, want the one from the cache", tc.name, len(hits), len(left))
		}
		if got, _ := json.Marshal(hits[0].entry); string(got) != string(want) {
			t.Errorf("%s: from the cache\n%s\nfresh\n%s", tc.name, got, want)
		}
	}
}

// TestResultOrder: the result's mutants are in their planned order,
// whichever came from the cache and whichever ran (a cached kill that no
// longer holds runs again after the others); the mutants from the cache
// are counted among those in the result only (not a target no test
// executed: "5 of 3 mutants from the cache").
func TestResultOrder(t *testing.T) {
	tested := &job{target: &Target{ID: "src/a.ts#f"}}
	untested := &job{target: &Target{ID: "src/a.ts#g", Skipped: "no test executes it"}}
	var planned []*mutant
	for i := range 3 {
		planned = append(planned, &mutant{job: tested, index: i})
	}
	for i := range 2 {
		planned = append(planned, &mutant{job: untested, index: i})
	}
	kept := map[*mutant]Mutant{planned[0]: {ID: planned[0].id()}, planned[2]: {ID: planned[2].id()}, planned[3]: {ID: planned[3].id()}, planned[4]: {ID: planned[4].id()}}
	decided := map[*mutant]Mutant{planned[1]: {ID: planned[1].id()}}
	for mu, e := range kept {
		decided[mu] = e
	}
	got := byJob(planned, decided)
	var ids []string
	for _, e := range got[tested] {
		ids = append(ids, e.ID)
	}
	if want := "[src/a.ts#f#1 src/a.ts#f#2 src/a.ts#f#3]"; fmtList(ids) != want {
		t.Errorf("the tested target's mutants %s, want %s", fmtList(ids), want)
	}
	if n := countCached(got[tested], planned, kept); n != 2 {
		t.Errorf("%d from the cache, want 2 (the result's mutants from the cache, not the untested target's)", n)
	}
}

func fmtList(s []string) string { return fmt.Sprint(s) }

// TestMutantProgress: the progress counts the mutants decided, from the
// cached ones up, and never passes the total: an execution of the lab
// again (after a red baseline, measure runs it once more over the same
// mutants) counts from the cached ones again ("mutants 3/2").
func TestMutantProgress(t *testing.T) {
	var got []string
	p := mutantProgress(func(e lab.Event) {
		if e.Kind != lab.BaselineRun {
			got = append(got, fmtCount(e))
		}
		if e.Done > e.Total {
			t.Errorf("%s: %d of %d", e.Kind, e.Done, e.Total)
		}
	}, 3, 1)
	for range 2 { // the lab, then the lab again
		p(lab.Event{Kind: lab.BaselineRun, Test: "test/a.test.ts"})
		p(lab.Event{Kind: lab.BaselineRun, Test: "test/b.test.ts"})
		p(lab.Event{Kind: lab.BatchRun, Test: "test/a.test.ts", Variants: 1}) // counts nothing
		p(lab.Event{Kind: lab.Batched, Mutant: "a"})
		p(lab.Event{Kind: lab.Alone, Mutant: "b"})
	}
	if want := "[1/3 2/3 3/3 1/3 2/3 3/3]"; fmtList(got) != want {
		t.Errorf("progress %s, want %s", fmtList(got), want)
	}
}

func fmtCount(e lab.Event) string { return fmt.Sprintf("%d/%d", e.Done, e.Total) }

// TestBaselineProgress: the baselines count as they finish, of the test
// files the execution runs (baselinesStart: "0/2" before the files run
// together); each execution of the lab counts its own; the mutants' count
// goes on as before.
func TestBaselineProgress(t *testing.T) {
	var got []string
	p := mutantProgress(func(e lab.Event) {
		got = append(got, fmt.Sprintf("%s %s %d/%d %s", e.Kind, e.Unit, e.Done, e.Total, e.Test))
	}, 3, 1)
	l := &lab.Lab{Progress: p}
	baselinesStart(l, 2)
	p(lab.Event{Kind: lab.BaselineRun, Test: "test/a.test.ts"})
	p(lab.Event{Kind: lab.BaselineRun, Test: "test/b.test.ts"})
	p(lab.Event{Kind: lab.Batched, Mutant: "a"})
	baselinesStart(l, 1) // again, without a file red at the base too
	p(lab.Event{Kind: lab.BaselineRun, Test: "test/a.test.ts"})
	p(lab.Event{Kind: lab.Alone, Mutant: "b"})
	want := "[baseline baseline 0/2  baseline baseline 0/2 test/a.test.ts baseline baseline 1/2 test/b.test.ts batch mutant 2/3  " +
		"baseline baseline 0/1  baseline baseline 0/1 test/a.test.ts alone mutant 2/3 ]"
	if fmtList(got) != want {
		t.Errorf("progress\n%s, want\n%s", fmtList(got), want)
	}
}
