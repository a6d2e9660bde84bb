package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oracle-ts/oracle/mutate/edit"
	"github.com/oracle-ts/oracle/mutate/runner"
)

// dirFiles writes into a real directory and restores from memory.
type dirFiles struct {
	root string
	orig map[string][]byte // nil entry: the file did not exist
}

func (d *dirFiles) WriteFile(rel string, data []byte) error {
	p := filepath.Join(d.root, rel)
	if _, seen := d.orig[rel]; !seen {
		b, _ := os.ReadFile(p)
		d.orig[rel] = b
	}
	return os.WriteFile(p, data, 0o644)
}

func (d *dirFiles) Restore(rel string) error {
	p := filepath.Join(d.root, rel)
	b := d.orig[rel]
	delete(d.orig, rel)
	if b == nil {
		return os.Remove(p)
	}
	return os.WriteFile(p, b, 0o644)
}

// behaviour of a mutant: alone (its true outcome in an isolated run) and in
// a batch.
type behaviour struct {
	alone string // "kill", "pass" or "loop" (the run times out)
	batch string // "kill", "pass", "setup", "contaminate" (every later variant fails), "hang" (the batch times out),
	// "limit" (it ran past the hit limit), "vitest-timeout" (a test timed out), "slow" (past its time limit)
}

// batchRunner plays vitest: a harness run gives per-variant results from
// the titles it finds in the harness; an isolated run reads which mutant
// is in the file (/*mK*/).
type batchRunner struct {
	root    string
	mutants map[int]behaviour // by switch value (mutant index + 1)
	batches int
	alone   int
	once    int   // isolated runs of a mutant whose time-out is final (Spec.Once)
	grown   []int // the n of each Grow call
	// markedSchema: a batch ran a schema holding reached markers.
	markedSchema bool
	events       []Event // what the lab's Progress heard
}

var titleRE = regexp.MustCompile(`oracle-variant-(\d+)-(\d+)`)
var tagRE = regexp.MustCompile(`/\*m(\d+)\*/`)

func (b *batchRunner) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	src, _ := os.ReadFile(filepath.Join(b.root, s.TestFile))
	if !strings.HasPrefix(filepath.Base(s.TestFile), HarnessPrefix) && !strings.Contains(string(src), "Written by oracle prove for a batched run") {
		b.alone++
		code, _ := os.ReadFile(filepath.Join(b.root, "x.ts"))
		st := passedRun()
		st.Reached, st.Duration = true, time.Second
		if m := tagRE.FindSubmatch(code); m != nil {
			var v int
			fmt.Sscan(string(m[1]), &v)
			switch b.mutants[v].alone {
			case "kill":
				st = failedRun("expected 2")
			case "loop":
				st = timedOutRun()
			}
			if s.Once {
				b.once++
			}
		}
		return st, nil
	}
	b.batches++
	if code, _ := os.ReadFile(filepath.Join(b.root, "x.ts")); strings.Contains(string(code), runner.ReachedEnv) {
		b.markedSchema = true
	}
	var tests []runner.Test
	var notes []string
	dirty, baseFails := false, false
	for _, beh := range b.mutants {
		switch beh.batch {
		case "crash":
			return runner.Result{Duration: time.Second, ExitCode: 1}, nil
		case "basefail":
			baseFails = true
		}
	}
	// A batch run again (again.go) raises the hit limit: a variant stopped
	// by it in its batch behaves there as alone, but for a loop.
	raised := configOf(src).HitFloor == confirmHits.floor
	for n, m := range titleRE.FindAllStringSubmatch(string(src), -1) {
		var v int
		fmt.Sscan(m[2], &v)
		name := m[0] + " t"
		beh := b.mutants[v]
		if raised && beh.batch == "limit" && beh.alone != "loop" {
			beh.batch = beh.alone
		}
		notes = append(notes, mark(timeNote, atoi(m[1]), "ms", 100*v))
		if v == 0 && n == 0 && baseFails {
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: "red"})
			continue
		}
		if v != 0 && beh.batch != "other" {
			notes = append(notes, mark(ranNote, atoi(m[1]), "test", name)) // its test ran the variant's code
		}
		switch {
		case beh.batch == "limit":
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: edit.HitLimitMessage})
			if raised {
				notes = append(notes, mark(limitNote, atoi(m[1]), "limit", 10000000, "most", 500))
			} else {
				notes = append(notes, mark(limitNote, atoi(m[1]), "limit", 100000, "most", 500))
			}
		case beh.batch == "vitest-timeout":
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: "Test timed out in 5000ms.", TimedOut: true})
		case beh.batch == "slow":
			tests = append(tests, runner.Test{Name: name, Status: "passed"}, runner.Test{Name: name + "2", Status: "skipped"})
			notes = append(notes, mark(slowNote, atoi(m[1])))
		case beh.batch == "hang":
			return timedOutRun(), nil
		case dirty:
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: "polluted"})
		case v == 0 || beh.batch == "pass":
			tests = append(tests, runner.Test{Name: name, Status: "passed"})
		case beh.batch == "kill":
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: "expected 2"})
		case beh.batch == "setup":
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseSetup, Failure: "db down"})
		case beh.batch == "contaminate":
			tests = append(tests, runner.Test{Name: name, Status: "passed"})
			dirty = true
		case beh.batch == "other": // a test that never executed the variant fails
			tests = append(tests, runner.Test{Name: name, Status: "failed", Phase: runner.PhaseBody, Failure: "flaky"})
		case beh.batch == "skip":
			tests = append(tests, runner.Test{Name: name, Status: "skipped"})
		case beh.batch == "shared":
			tests = append(tests, runner.Test{Name: name, Status: "passed"})
			notes = append(notes, mark(globalsNote, -1))
		case beh.batch == "basefail":
			tests = append(tests, runner.Test{Name: name, Status: "passed"})
		}
		// "noload": the variant threw while loading: no test of it.
	}
	return runner.Result{Tests: tests, Duration: time.Second, Markers: notes, ExitCode: 1}, nil
}

func (b *batchRunner) Close() error { return nil }

// runBatched proves mutants with the given behaviours and returns
// "name=outcome[/batched]" per mutant, the runner and the directory.
func runBatched(t *testing.T, behs []behaviour) (string, *batchRunner) {
	t.Helper()
	res, r := runBatchedResult(t, behs)
	return summarize(res), r
}

func runBatchedResult(t *testing.T, behs []behaviour) (*Result, *batchRunner) {
	t.Helper()
	dir := t.TempDir()
	orig := "export function f(a: number) {\n  return a + 1;\n}\n"
	os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
	os.WriteFile(filepath.Join(dir, "x.test.ts"), []byte("// the test\n"), 0o644)
	at := strings.Index(orig, "a + 1")
	var ms []edit.Mutant
	r := &batchRunner{root: dir, mutants: map[int]behaviour{}}
	for k, b := range behs {
		m, err := edit.NewMutant("test", fmt.Sprint(k+1), "x.ts", []byte(orig),
			[]edit.Change{{Start: uint(at), End: uint(at + 5), Text: fmt.Sprintf("a - %d /*m%d*/", k+1, k+1)}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		r.mutants[k+1] = b
	}
	l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, MarkerPrefix: "op",
		Grow:     func(n int) ([]Slot, error) { r.grown = append(r.grown, n); return nil, nil },
		Progress: func(e Event) { r.events = append(r.events, e) }}
	res, err := l.Execute(context.Background(), []string{"x.test.ts"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "x.ts")); string(b) != orig {
		t.Errorf("x.ts left changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, HarnessPrefix+"x.test.ts")); err == nil {
		t.Error("the harness was left behind")
	}
	return res, r
}

// summarize lists each mutant's run as name=outcome, "/batched" when the
// outcome came from a batch.
func summarize(res *Result) string {
	var got []string
	for _, run := range res.Mutants {
		s := run.Mutant.Name + "=" + string(run.Outcome)
		if run.Batched {
			s += "/batched"
		}
		got = append(got, s)
	}
	return strings.Join(got, " ")
}

// TestBatchCleanKills: clean kills are taken from the batch; a survivor in
// the batch is established by an isolated run.
func TestBatchCleanKills(t *testing.T) {
	got, r := runBatched(t, []behaviour{{"kill", "kill"}, {"pass", "pass"}, {"kill", "kill"}})
	if want := "test:1=killed/batched test:2=survived test:3=killed/batched"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.batches != 1 || r.alone != 1+1 { // the baseline and the survivor
		t.Errorf("%d batches, %d isolated runs", r.batches, r.alone)
	}
	if len(r.grown) != 0 {
		t.Errorf("asked for more sandboxes (%v) for one mutant left to run alone", r.grown)
	}
	// Progress: the baseline, the batch as it starts (its three mutants),
	// then each mutant once, as the batch decided it (when it ends) or
	// before it runs alone.
	var heard []string
	for _, e := range r.events {
		h := string(e.Kind) + ":" + e.Test + e.Mutant
		if e.Kind == BatchRun {
			h += fmt.Sprint("/", e.Variants)
		}
		heard = append(heard, h)
	}
	if want := "baseline:x.test.ts batch-run:x.test.ts/3 batch:test:1 batch:test:3 alone:test:2"; strings.Join(heard, " ") != want {
		t.Errorf("progress: %s\nwant      %s", strings.Join(heard, " "), want)
	}
	// A batch judges by its tests: a reached marker in a variant would only
	// write to a file, on every iteration of a loop around it.
	if r.markedSchema {
		t.Error("the schema of the batch holds reached markers")
	}
}

// TestBatchContamination: a mutant that leaves state behind makes every
// later variant and the closing baseline fail in the batch; no batch result
// is used, and the isolated runs find the later mutant survives.
func TestBatchContamination(t *testing.T) {
	got, r := runBatched(t, []behaviour{{"kill", "contaminate"}, {"pass", "pass"}, {"kill", "kill"}})
	if want := "test:1=killed test:2=survived test:3=killed"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.alone != 1+3 {
		t.Errorf("%d isolated runs, want the baseline and all three", r.alone)
	}
	if fmt.Sprint(r.grown) != "[2]" {
		t.Errorf("Grow calls %v, want one for 2 more sandboxes", r.grown)
	}
}

// TestBatchSetupFailure: a variant failing in setup in the batch is not a
// kill; its isolated run decides.
func TestBatchSetupFailure(t *testing.T) {
	got, _ := runBatched(t, []behaviour{{"pass", "setup"}, {"kill", "kill"}})
	if want := "test:1=survived test:2=killed/batched"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestBatchTimeout: a batch that times out decides nothing.
func TestBatchTimeout(t *testing.T) {
	got, _ := runBatched(t, []behaviour{{"kill", "kill"}, {"kill", "hang"}})
	if want := "test:1=killed test:2=killed"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestIsolate: Isolate never batches.
func TestIsolate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.ts"), []byte("export function f() {\n  return 1;\n}\n"), 0o644)
	r := &batchRunner{root: dir, mutants: map[int]behaviour{}}
	m, _ := edit.NewMutant("test", "1", "x.ts", []byte("export function f() {\n  return 1;\n}\n"), []edit.Change{{Start: 32, End: 33, Text: "2 /*m1*/"}})
	l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: r, Isolate: true}
	if _, err := l.Execute(context.Background(), []string{"x.test.ts"}, []edit.Mutant{m, m}); err != nil {
		t.Fatal(err)
	}
	if r.batches != 0 || r.alone != 3 {
		t.Errorf("%d batches, %d isolated runs", r.batches, r.alone)
	}
}

// noBatches is a runner whose runs cannot hold a batch (runner.Batcher: jest's).
type noBatches struct{ *batchRunner }

func (noBatches) Batches() bool { return false }

// TestRunnerWithoutBatches: on a runner that cannot batch every mutant runs
// alone, as with Isolate, and says why; the runner does not lose the
// capability behind the tests set aside (withAside).
func TestRunnerWithoutBatches(t *testing.T) {
	dir := t.TempDir()
	orig := "export function f(a: number) {\n  return a + 1;\n}\n"
	os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
	os.WriteFile(filepath.Join(dir, "x.test.ts"), []byte("// the test\n"), 0o644)
	at := strings.Index(orig, "a + 1")
	r := &batchRunner{root: dir, mutants: map[int]behaviour{1: {"kill", "kill"}, 2: {"pass", "pass"}, 3: {"kill", "kill"}}}
	var ms []edit.Mutant
	for k := 1; k <= 3; k++ {
		m, err := edit.NewMutant("test", fmt.Sprint(k), "x.ts", []byte(orig), []edit.Change{{Start: uint(at), End: uint(at + 5), Text: fmt.Sprintf("a - %d /*m%d*/", k, k)}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: noBatches{r}, Aside: map[string][]string{"x.test.ts": {"flaky"}}}
	res, err := l.Execute(context.Background(), []string{"x.test.ts"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summarize(res), "test:1=killed test:2=survived test:3=killed"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.batches != 0 || r.alone != 4 {
		t.Errorf("%d batches, %d isolated runs; want none, and the baseline and each mutant alone", r.batches, r.alone)
	}
	for _, run := range res.Mutants {
		if run.AloneWhy != AloneRunner {
			t.Errorf("%s ran alone because %q, want %q", run.Mutant.Name, run.AloneWhy, AloneRunner)
		}
	}
	if runner.CanBatch(noBatches{r}) || !runner.CanBatch(r) {
		t.Error("runner.CanBatch does not read Batches")
	}
}

// preparing is noBatches that marks every mutant it is asked to prepare
// (runner.MutantPreparer), and counts the runs that saw a mutant so marked.
type preparing struct {
	noBatches
	seen *int
}

func (p preparing) PrepareMutant(path string, src []byte) []byte {
	return append([]byte("/*prepared*/"), src...)
}

func (p preparing) Run(ctx context.Context, s runner.Spec) (runner.Result, error) {
	if b, _ := os.ReadFile(filepath.Join(p.root, "x.ts")); strings.HasPrefix(string(b), "/*prepared*/") && tagRE.Match(b) {
		*p.seen++
	}
	return p.batchRunner.Run(ctx, s)
}

// TestPreparedMutants: a mutant runs as the runner prepares it
// (runner.PrepareMutant), behind the tests set aside too; the baseline
// runs the code as it is.
func TestPreparedMutants(t *testing.T) {
	dir := t.TempDir()
	orig := "export function f(a: number) {\n  return a + 1;\n}\n"
	os.WriteFile(filepath.Join(dir, "x.ts"), []byte(orig), 0o644)
	at := strings.Index(orig, "a + 1")
	r := &batchRunner{root: dir, mutants: map[int]behaviour{1: {"kill", "kill"}, 2: {"pass", "pass"}}}
	var ms []edit.Mutant
	for k := 1; k <= 2; k++ {
		m, _ := edit.NewMutant("test", fmt.Sprint(k), "x.ts", []byte(orig), []edit.Change{{Start: uint(at), End: uint(at + 5), Text: fmt.Sprintf("a - %d /*m%d*/", k, k)}})
		ms = append(ms, m)
	}
	seen := 0
	l := &Lab{Root: dir, Files: &dirFiles{root: dir, orig: map[string][]byte{}}, Runner: preparing{noBatches{r}, &seen}, Aside: map[string][]string{"x.test.ts": {"flaky"}}}
	if _, err := l.Execute(context.Background(), []string{"x.test.ts"}, ms); err != nil {
		t.Fatal(err)
	}
	if seen != 2 || r.alone != 3 {
		t.Errorf("%d of %d runs saw the mutant prepared, want the 2 mutants' runs", seen, r.alone)
	}
}

// TestBatchTimeouts: a variant past its time limit in the batch is a
// timeout decided by the batch (not run alone again), with its own time;
// the batch goes on (the kill after it is taken too). A variant that ran
// past the hit limit is a suspicion (SPEC "Runs and kills"): it runs alone,
// without the counter, once (a time-out is final): a timeout only when that
// run times out too; finishing, its outcome stands (survived, killed). So
// is a variant whose test ran into vitest's own time-out (5 s) below its
// time limit: it runs alone (where the fake kills it; slow.go raises
// vitest's time-outs when the run alone times out the same way).
func TestBatchTimeouts(t *testing.T) {
	res, r := runBatchedResult(t, []behaviour{{"loop", "limit"}, {"kill", "vitest-timeout"}, {"kill", "slow"}, {"kill", "kill"}, {"pass", "limit"}, {"kill", "limit"}})
	if got, want := summarize(res), "test:1=timeout/batched test:2=killed test:3=timeout/batched test:4=killed/batched test:5=survived test:6=killed/batched"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.alone != 3 || r.once != 0 || r.batches != 2 {
		t.Errorf("%d isolated runs (%d final at a time-out), %d batches; want the baseline, vitest's time-out and the survivor, none final; the batch and the one run again with the hit limit raised", r.alone, r.once, r.batches)
	}
	var details []string
	for _, m := range res.Mutants {
		details = append(details, fmt.Sprintf("%s %v", m.Duration, m.HitLimit))
	}
	// Each variant's own time, as the harness noted it (100 ms × switch value here), or its run alone.
	if got, want := strings.Join(details, ", "), "100ms true, 0s false, 300ms false, 400ms false, 1s false, 600ms false"; got != want {
		t.Errorf("durations and hit limits: %s, want %s", got, want)
	}
	for k, want := range []string{edit.HitLimitMessage + ": more than 100000", "expected 2", "the variant ran past its time limit", "expected 2", edit.HitLimitMessage + ": more than 100000", "expected 2"} {
		if !strings.HasPrefix(res.Mutants[k].Detail, want) {
			t.Errorf("mutant %d: %q, want %q...", k+1, res.Mutants[k].Detail, want)
		}
	}
	if d := res.Mutants[0].Detail; !strings.Contains(d, "run again with the limit raised 100-fold (at least 10000000), more than 10000000 (the original's most in one test: 500): a loop") {
		t.Errorf("the confirmed loop's detail: %q", d)
	}
	if d := res.Mutants[4].Detail; !strings.Contains(d, "run again with the limit raised 100-fold, it finished: no loop") {
		t.Errorf("the finished loop's detail: %q", d)
	}
	if res.HitLimits != 1 || fmt.Sprint(res.Slowest) != "[4 5 3 2 0]" {
		t.Errorf("%d hit limits, slowest %v", res.HitLimits, res.Slowest)
	}
}

// TestSchemaGroups (issue 42): a file whose variants would make a schema
// past SchemaBytes has them in several schemas, one after the other, each
// its own batch; the outcomes are those of one schema.
func TestSchemaGroups(t *testing.T) {
	behs := []behaviour{{"kill", "kill"}, {"pass", "pass"}, {"kill", "kill"}, {"kill", "limit"}, {"kill", "kill"}}
	one, r1 := runBatched(t, behs)
	defer func(b int64) { SchemaBytes = b }(SchemaBytes)
	SchemaBytes = 2 * int64(len("export function f(a: number) {\n  return a + 1;\n}\n")) // two variants a schema
	split, r2 := runBatched(t, behs)
	if split != one {
		t.Errorf("split %s\none   %s", split, one)
	}
	// One schema: its batch and the hit limit's run again; three: a batch
	// each, and the run again in the second.
	if r1.batches != 2 || r2.batches != 4 {
		t.Errorf("%d batches in one schema (want 2), %d in three (want 4)", r1.batches, r2.batches)
	}
}
