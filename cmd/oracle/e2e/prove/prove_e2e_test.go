package prove

// End-to-end tests of `oracle prove` and `oracle apply` on the seed scenario,
// with the sample's own vitest 4 (each prove runs vitest a dozen times).

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
	"github.com/oracle-ts/oracle/internal/testenv"
)

type proveResult struct {
	Schema     string `json:"schema"`
	Verdict    string `json:"verdict"`
	Operations []struct {
		ID, Verdict, Attribution, Reason, Stale string
		Runs                                    []struct {
			Name, Outcome, Detail, File, Diff string
			Line                              int
		}
	} `json:"operations"`
}

func proveJSON(t *testing.T, dir string, extra ...string) (int, proveResult, string) {
	t.Helper()
	args := append([]string{"prove", "--json", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")}, extra...)
	code, out, errs := Oracle(t, args...)
	var r proveResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("prove --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	return code, r, errs
}

// proveCase is one way of changing a sample (its code, or its configuration) and what
// prove must say of it. The rows of a sample share one copy of it: each row's edits are
// undone after its prove.
type proveCase struct {
	name, sample, ticket string
	edits                []fileEdit
	args                 []string // prove flags besides --root and the ticket
	json                 *proveWant
	text                 *proveTextWant
}

// fileEdit replaces old (which must occur) by new in file, once; old "": file is new.
type fileEdit struct{ file, old, new string }

// proveWant is what prove --json must say.
type proveWant struct {
	code                         int
	verdict, attribution, reason string // reason: a substring ("" : not checked)
	baseline                     string // the first run's outcome ("": not checked)
	runs                         string // every run, "name=outcome" ("": not checked)
	stale                        string // a substring of the stale note ("": not checked)
	report                       bool   // --report validates against the published schema
}

// proveTextWant is what prove's text output must say, with env set.
type proveTextWant struct {
	env            map[string]string
	code           int
	stdout, stderr string // substrings
}

const proveIndex = "src/server/index.ts"

var proveCases = []proveCase{
	// (The code as it is, PASS with every run as the SPEC names it and a
	// valid mutation report, and the guard deleted, FAIL naming the wrapped
	// call, are asPassing and guardDeleted: TestProveBatchedEqualsIsolated
	// checks them on its batched proves of the same code.)
	// A guard that also swallows the preserved write: FAIL on the implementation, naming the
	// call, with a fresh vitest process per run (the other rows use the default, long-lived
	// runner).
	{name: "preserved write moved under the guard, process runner", sample: "pipeline", ticket: "tickets/PROJ-142.yaml",
		edits: []fileEdit{{proveIndex, breakings[1].old, breakings[1].new}},
		args:  []string{"--runner", "process"},
		json:  &proveWant{code: 1, verdict: "FAIL", attribution: "implementation", reason: "updateRecord", baseline: "failed"}},
	// The function's module imports a module that does not exist: the oracle cannot run, and
	// that is the implementation's to fix (ERROR [implementation] with vitest's message), not
	// a bug of oracle's generator. In GitHub Actions the verdict is also an annotation on the
	// file.
	{name: "the function's module does not load", sample: "pipeline", ticket: "tickets/PROJ-142.yaml",
		edits: []fileEdit{{proveIndex, "// The pipeline module.\n", "import { gone } from \"./gone\";\nvoid gone;\n// The pipeline module.\n"}},
		json:  &proveWant{code: ExitError, verdict: "ERROR", attribution: "implementation", reason: "gone"},
		text: &proveTextWant{env: map[string]string{"GITHUB_ACTIONS": "true"}, code: ExitError,
			stdout: "::error file=src/server/index.ts::oracle prove ERROR [implementation] skip-enrichment: "}},
	// A vitest config the long-lived runner cannot serve like a fresh process (a globalSetup)
	// sends its runs to a fresh vitest: the outcome is the same, and prove says which and why.
	{name: "a globalSetup: the runs fall back", sample: "pipeline", ticket: "tickets/PROJ-142.yaml",
		edits: []fileEdit{{"test/gs.ts", "", "export default function () {}\n"},
			{"vitest.config.ts", "test: {", "test: {\n    globalSetup: [\"./test/gs.ts\"],"}},
		text: &proveTextWant{code: 0, stdout: "PASS", stderr: "fell back from the long-lived vitest to a fresh process"}},
	// A class method: the guards of finalize (instance method) and cancel (arrow field)
	// deleted (what TestMethodsApplyThenProve then applies): FAIL on the implementation,
	// naming the wrapped call.
	{name: "methods: guards deleted", sample: "services", ticket: "tickets/PROJ-201.yaml",
		edits: []fileEdit{{"src/orders/service.ts", methodBreakings[0].old, methodBreakings[0].new},
			{"src/orders/service.ts", methodBreakings[4].old, methodBreakings[4].new}},
		json: &proveWant{code: 1, verdict: "FAIL", attribution: "implementation", reason: "quote", baseline: "failed"}},
}

// asPassing is what prove --json says of the pipeline's ticket on the code
// as it is: PASS, every run as the SPEC names it, the mutation report valid
// against the published schema (TestProveBatchedEqualsIsolated's batched
// prove of it).
var asPassing = proveWant{code: 0, verdict: "PASS", baseline: "passed",
	runs: "baseline=passed red-first=killed flag-inverted=killed flag-always-set=killed " +
		"preserve-removed:selectTargets=killed preserve-moved-under-guard:selectTargets=killed " +
		"preserve-removed:resolveSettings=killed preserve-moved-under-guard:resolveSettings=killed " +
		"preserve-removed:extractMetadata=killed preserve-moved-under-guard:extractMetadata=killed " +
		"preserve-removed:updateRecord=killed preserve-moved-under-guard:updateRecord=killed",
	stale: "no oracle is committed", report: true}

// guardDeleted is what prove --json says with the guard deleted (breakings[0],
// what TestApplyThenProve then applies): FAIL on the implementation, naming
// the wrapped call (TestProveBatchedEqualsIsolated's batched prove of it).
var guardDeleted = proveWant{code: 1, verdict: "FAIL", attribution: "implementation", reason: "enrichItem", baseline: "failed"}

// checkProve checks a prove --json document (exit code, document, standard
// error) against w; the report (w.report) is the caller's to validate.
func checkProve(t *testing.T, w proveWant, code int, r proveResult, errs string) {
	t.Helper()
	if code != w.code || r.Verdict != w.verdict || len(r.Operations) != 1 {
		t.Fatalf("want exit %d %s with one operation; got exit %d %s %+v\n%s", w.code, w.verdict, code, r.Verdict, r.Operations, errs)
	}
	op := r.Operations[0]
	if op.Attribution != w.attribution || !strings.Contains(op.Reason, w.reason) {
		t.Errorf("want [%s] with a reason naming %q; got [%s] %q", w.attribution, w.reason, op.Attribution, op.Reason)
	}
	if w.baseline != "" && (len(op.Runs) == 0 || op.Runs[0].Name != "baseline" || op.Runs[0].Outcome != w.baseline) {
		t.Errorf("want the baseline %s; runs %+v", w.baseline, op.Runs)
	}
	if w.runs != "" {
		var names []string
		for _, run := range op.Runs {
			names = append(names, run.Name+"="+run.Outcome)
		}
		if got := strings.Join(names, " "); got != w.runs {
			t.Errorf("runs:\n got  %s\n want %s", got, w.runs)
		}
	}
	if !strings.Contains(op.Stale, w.stale) {
		t.Errorf("stale note: %q, want %q", op.Stale, w.stale)
	}
}

// TestProveCases runs prove end to end on each proveCase, one copy per sample, and checks
// what it says; and that prove leaves the checkout as it found it.
func TestProveCases(t *testing.T) {
	copies := map[string]string{}
	for _, c := range proveCases {
		if copies[c.sample] == "" {
			copies[c.sample] = CopySample(t, c.sample, V4(t).NodeModules)
		}
	}
	for _, c := range proveCases {
		t.Run(c.name, func(t *testing.T) {
			dir := copies[c.sample]
			applyEdits(t, dir, c.edits)
			before := TreeHash(t, dir)
			manifest := filepath.Join(dir, c.ticket)
			if w := c.json; w != nil {
				args := append([]string{"prove", "--json", "--root", dir, manifest}, c.args...)
				report := filepath.Join(t.TempDir(), "report.json")
				if w.report {
					args = append(args, "--report", report)
				}
				code, out, errs := Oracle(t, args...)
				var r proveResult
				if err := json.Unmarshal([]byte(out), &r); err != nil {
					t.Fatalf("prove --json (exit %d): %v\n%s\n%s", code, err, out, errs)
				}
				checkProve(t, *w, code, r, errs)
				if w.report {
					ValidateReport(t, report)
				}
			}
			if w := c.text; w != nil {
				for k, v := range w.env {
					t.Setenv(k, v)
				}
				code, out, errs := Oracle(t, append([]string{"prove", "--root", dir, manifest}, c.args...)...)
				if code != w.code || !strings.Contains(out, w.stdout) || !strings.Contains(errs, w.stderr) {
					t.Errorf("want exit %d, %q on stdout, %q on stderr; got exit %d\n%s\n%s", w.code, w.stdout, w.stderr, code, out, errs)
				}
			}
			if after := TreeHash(t, dir); after != before {
				t.Error("prove changed the checkout")
			}
		})
	}
}

// applyEdits makes the edits in dir, and undoes them when the test ends.
func applyEdits(t *testing.T, dir string, edits []fileEdit) {
	t.Helper()
	for _, e := range edits {
		p := filepath.Join(dir, e.file)
		orig, err := os.ReadFile(p)
		if e.old == "" {
			if err == nil {
				t.Fatalf("%s exists already", e.file)
			}
			t.Cleanup(func() { os.Remove(p) })
			orig = nil
		} else if err != nil {
			t.Fatal(err)
		} else if !bytes.Contains(orig, []byte(e.old)) {
			t.Fatalf("%s no longer has the code this row edits:\n%s", e.file, e.old)
		} else {
			t.Cleanup(func() { os.WriteFile(p, orig, 0o644) })
		}
		if err := os.WriteFile(p, bytes.Replace(orig, []byte(e.old), []byte(e.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestApplyThenProve: an unguarded function (which fails prove: a row of
// TestProveCases) passes after apply; apply is idempotent, and --dry-run
// writes nothing. After apply the checkout is the sample as it is, every
// file the same (its tree hashes the same as before the guard was deleted),
// on which prove passes: TestProveBatchedEqualsIsolated's prove of the
// sample as it is (asPassing) checks that (this test proved it again).
func TestApplyThenProve(t *testing.T) {
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	sample := TreeHash(t, dir)
	index := filepath.Join(dir, "src/server/index.ts")
	guarded, _ := os.ReadFile(index)
	b := breakings[0] // guard deleted
	unguarded := bytes.Replace(guarded, []byte(b.old), []byte(b.new), 1)
	os.WriteFile(index, unguarded, 0o644)

	// prove FAILs on this code: TestProveCases' row "guard deleted".
	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	code, out, errs := Oracle(t, "apply", "--dry-run", "--root", dir, manifest)
	if code != 0 || !strings.Contains(out, "+  if (!opts.skip) {") {
		t.Fatalf("apply --dry-run: exit %d\n%s%s", code, out, errs)
	}
	if now, _ := os.ReadFile(index); !bytes.Equal(now, unguarded) {
		t.Fatal("--dry-run wrote the file")
	}
	if code, out, errs := Oracle(t, "apply", "--root", dir, manifest); code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errs)
	}
	if now, _ := os.ReadFile(index); !bytes.Equal(now, guarded) {
		t.Fatalf("apply did not write the guard the sample has:\n%s", now)
	}
	code, out, _ = Oracle(t, "apply", "--root", dir, manifest)
	if now, _ := os.ReadFile(index); code != 0 || !bytes.Equal(now, guarded) || !strings.Contains(out, "unchanged") {
		t.Fatalf("apply is not idempotent: exit %d\n%s", code, out)
	}

	if TreeHash(t, dir) != sample {
		t.Fatal("after apply, the checkout is not the sample as it is (which proves PASS)")
	}
}

// TestApplyRefuses: a wrapped call whose result is bound and used later,
// with no default, is refused with the reason, and nothing is written.
func TestApplyRefuses(t *testing.T) {
	dir := CopySample(t, "pipeline", t.TempDir())
	index := filepath.Join(dir, "src/server/index.ts")
	src, _ := os.ReadFile(index)
	bound := bytes.Replace(src, []byte("  if (!opts.skip) {\n    patch.score = (await enrichItem(record, settings)).score;\n  }\n"),
		[]byte("  const enriched = await enrichItem(record, settings);\n  patch.score = enriched.score;\n"), 1)
	os.WriteFile(index, bound, 0o644)
	code, out, _ := Oracle(t, "apply", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	if code != 1 || !strings.Contains(out, "bound to `enriched`") || !strings.Contains(out, "default:") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if now, _ := os.ReadFile(index); !bytes.Equal(now, bound) {
		t.Fatal("a refused apply wrote the file")
	}
}

// TestProveInterrupted: SIGINT in the middle of prove exits 130, removes the
// sandbox, and leaves the checkout hashing the same.
func TestProveInterrupted(t *testing.T) {
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	bin := Bin(t)
	tmp := t.TempDir()
	// The function loops: the baseline run hangs until the signal comes,
	// however fast or slow the machine (a prove that ends first would
	// exit 0).
	index := filepath.Join(dir, "src/server/index.ts")
	src, _ := os.ReadFile(index)
	looping := strings.Replace(string(src), "  const record = await getRecord(id);\n", "  const record = await getRecord(id);\n  "+Endless+"\n", 1)
	if looping == string(src) {
		t.Fatal("processItem changed: no place for the loop")
	}
	os.WriteFile(index, []byte(looping), 0o644)
	before := TreeHash(t, dir)
	cmd := exec.Command(bin, "prove", "--isolate", "--concurrency", "1", "--timeout", "10m", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the sandbox exists (no cap: a loaded machine may take
	// minutes; one that never comes is go test's -timeout, naming this
	// test) and vitest has had time to start.
	testenv.Await(func() bool { entries, _ := os.ReadDir(tmp); return len(entries) > 0 })
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	exit := -1
	if ee, ok := err.(*exec.ExitError); ok {
		exit = ee.ExitCode()
	}
	if exit != 130 {
		t.Errorf("exit %d after SIGINT, want 130 (%v)", exit, err)
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "oracle-prove-") {
			t.Errorf("sandbox left behind: %s", e.Name())
		}
	}
	if after := TreeHash(t, dir); after != before {
		t.Error("an interrupted prove changed the checkout")
	}
}

// TestProveBatchedEqualsIsolated: the differential test of the batched
// engine. On the sample's ticket, on the code as it is and broken each way
// gen's tests break it, prove (batched) gives the document --isolate gives
// (a vitest run per mutant), run for run, timings aside; and on the code as
// it is the batch decided every mutant. And on the code as it is, mutants
// spread over two sandboxes (--concurrency 2) give the same document as one
// at a time, run for run (timings aside, why a mutant ran alone included),
// and the JSON says where the time went (this was
// TestProveConcurrencyDeterministic, which ran the --concurrency 1 prove
// the batched one here is).
//
// The batched proves of the code as it is and with the guard deleted are
// also TestProveCases' rows of that code (asPassing, with --report, and
// guardDeleted), and leave the checkout as they found it; and, with
// TMPDIR a directory of the test's, the first prove (as it is) leaves
// nothing there and sweeps at once a sandbox a killed prove left (this was
// TestProveTempDirectory's prove).
func TestProveBatchedEqualsIsolated(t *testing.T) {
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	svc := CopySample(t, "services", V4(t).NodeModules)
	report := filepath.Join(t.TempDir(), "report.json")
	tmp := t.TempDir()
	// What a SIGKILLed prove leaves: a sandbox whose owner process is gone.
	stale := filepath.Join(tmp, "oracle-prove-killed")
	os.MkdirAll(filepath.Join(stale, "repo"), 0o755)
	os.WriteFile(filepath.Join(stale, ".oracle-sandbox-owner"), []byte("pid 999999999\nstart x\n"), 0o644)
	t.Setenv("TMPDIR", tmp) // every t.TempDir of the test is made above
	index := filepath.Join(dir, "src/server/index.ts")
	orig, _ := os.ReadFile(index)
	cases := []struct{ name, old, new string }{{"as it is", "", ""}}
	for _, b := range breakings {
		cases = append(cases, struct{ name, old, new string }{b.name, b.old, b.new})
	}
	for _, c := range cases {
		os.WriteFile(index, bytes.Replace(orig, []byte(c.old), []byte(c.new), 1), 0o644)
		before := TreeHash(t, dir)
		var batched string
		var tb map[string]any
		switch c.name {
		case "as it is":
			d, timings, code, errs := proveConcurrency(t, dir, tmp, report)
			checkProve(t, asPassing, code, proveResultOf(t, d), errs)
			ValidateReport(t, report)
			batched, tb = docText(d, "seconds", "aloneWhy"), timings
		case guardDeletedName:
			d, timings, code, errs := proveDoc(t, dir, "tickets/PROJ-142.yaml", "1")
			checkProve(t, guardDeleted, code, proveResultOf(t, d), errs)
			batched, tb = docText(d, "seconds", "aloneWhy"), timings
		default:
			batched, tb = proveDocOf(t, dir, "tickets/PROJ-142.yaml")
		}
		if c.name == "as it is" || c.name == guardDeletedName {
			if after := TreeHash(t, dir); after != before {
				t.Errorf("%s: prove changed the checkout", c.name)
			}
		}
		isolated, ti := proveDocOf(t, dir, "tickets/PROJ-142.yaml", "--isolate")
		if batched != isolated {
			t.Errorf("%s: batched differs from isolated:\n%s\n--- isolated:\n%s", c.name, batched, isolated)
		}
		if ti != nil && ti["batched"] != 0.0 {
			t.Errorf("%s: --isolate batched %v mutants", c.name, ti["batched"])
		}
		if c.old == "" && tb["batched"] != 11.0 {
			t.Errorf("%s: the batch decided %v of 11 mutants", c.name, tb["batched"])
		}
	}
	// The class-based sample, whose fixture uses a real (sql.js) database.
	for _, ticket := range methodTickets {
		d, tb, code, _ := proveDoc(t, svc, ticket, "1")
		// The three tickets prove PASS (this was the start of
		// TestMethodsApplyThenProve, which proved them the same way).
		if code != 0 || d["verdict"] != "PASS" {
			t.Errorf("%s: exit %d %v, want PASS", ticket, code, d["verdict"])
		}
		batched := docText(d, "seconds", "aloneWhy")
		isolated, _ := proveDocOf(t, svc, ticket, "--isolate")
		if batched != isolated {
			t.Errorf("%s: batched differs from isolated:\n%s\n--- isolated:\n%s", ticket, batched, isolated)
		}
		if tb["batched"] != tb["mutants"] {
			t.Errorf("%s: the batch decided %v of %v mutants", ticket, tb["batched"], tb["mutants"])
		}
	}
}

// guardDeletedName is breakings[0]'s name, the breaking guardDeleted says
// what prove gives on.
const guardDeletedName = "guard deleted"

// proveResultOf is a prove document read as proveResult.
func proveResultOf(t *testing.T, d map[string]any) proveResult {
	t.Helper()
	b, _ := json.Marshal(d)
	var r proveResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// proveDocOf is prove --json of ticket in dir, one mutant at a time, without
// what differs from run to run (seconds, timings: returned apart) and
// without why a mutant ran alone (every one does with --isolate).
func proveDocOf(t *testing.T, dir, ticket string, extra ...string) (string, map[string]any) {
	t.Helper()
	d, timings, _, _ := proveDoc(t, dir, ticket, "1", extra...)
	return docText(d, "seconds", "aloneWhy"), timings
}

// proveDoc is prove --json --timings --concurrency conc of ticket in dir:
// the document without its timings, the timings, the exit code and the
// standard error.
func proveDoc(t *testing.T, dir, ticket, conc string, extra ...string) (map[string]any, map[string]any, int, string) {
	t.Helper()
	args := append([]string{"prove", "--json", "--timings", "--concurrency", conc, "--root", dir, filepath.Join(dir, ticket)}, extra...)
	code, out, errs := Oracle(t, args...)
	var d map[string]any
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %v\n%s\n%s", args, err, out, errs)
	}
	timings, _ := d["timings"].(map[string]any)
	delete(d, "timings")
	return d, timings, code, errs
}

// docText is a prove document indented, without the runs' fields named.
func docText(d map[string]any, fields ...string) string {
	ops, _ := d["operations"].([]any) // none when the breaking makes the manifest invalid
	for _, op := range ops {
		runs, _ := op.(map[string]any)["runs"].([]any)
		for _, r := range runs {
			for _, f := range fields {
				delete(r.(map[string]any), f)
			}
		}
	}
	b, _ := json.MarshalIndent(d, "", " ")
	return string(b)
}

// proveConcurrency proves the sample's ticket in dir with --concurrency 1
// (and --report report) and 2: the same document, run for run (seconds
// aside), and timings that say where the time went. TMPDIR is tmp, where a
// killed prove's sandbox waits: the first prove sweeps it and leaves nothing.
// It returns the --concurrency 1 prove's document (without its timings), its
// timings, exit code and standard error.
func proveConcurrency(t *testing.T, dir, tmp, report string) (map[string]any, map[string]any, int, string) {
	t.Helper()
	d1, t1, code1, errs1 := proveDoc(t, dir, "tickets/PROJ-142.yaml", "1", "--report", report)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in $TMPDIR after prove: %v", names)
	}
	d2, t2, code2, _ := proveDoc(t, dir, "tickets/PROJ-142.yaml", "2")
	if code1 != 0 || code2 != 0 {
		t.Fatalf("--concurrency 1, 2: exit %d, %d\n%s", code1, code2, errs1)
	}
	if one, two := docText(d1, "seconds"), docText(d2, "seconds"); one != two {
		t.Errorf("--concurrency 2 differs from 1:\n%s\n---\n%s", two, one)
	}
	if t1["concurrency"] != 1.0 || t2["concurrency"] != 2.0 || t2["mutants"] != 11.0 || t2["runs"] != 12.0 {
		t.Errorf("timings: %v / %v", t1, t2)
	}
	for _, k := range []string{"sandbox_seconds", "runs_seconds", "total_seconds", "baseline_seconds", "batches_seconds"} {
		if v, _ := t2[k].(float64); v <= 0 {
			t.Errorf("timings.%s = %v", k, t2[k])
		}
	}
	// The slowest mutant runs, with their ids, slowest first.
	slow, _ := t2["slowest"].([]any)
	last := math.Inf(1)
	for _, s := range slow {
		m, _ := s.(map[string]any)
		sec, _ := m["seconds"].(float64)
		if m["operation"] != "skip-enrichment" || m["mutant"] == "" || sec > last {
			t.Errorf("timings.slowest: %v", slow)
		}
		last = sec
	}
	if len(slow) != 5 || t2["hit_limits"] != 0.0 {
		t.Errorf("timings: %d slowest, hit_limits %v", len(slow), t2["hit_limits"])
	}
	if code, _, errs := Oracle(t, "prove", "--concurrency", "0", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")); code != 2 || !strings.Contains(errs, "--concurrency") {
		t.Errorf("--concurrency 0: exit %d, %s", code, errs)
	}
	return d1, t1, code1, errs1
}

// TestProveTempDirectory: a TMPDIR that does not exist is an environment
// error. (That after a prove nothing is left in the system's temp directory,
// and that a sandbox left by a killed prove is swept by the next at once,
// TestProveBatchedEqualsIsolated checks on its first prove.)
func TestProveTempDirectory(t *testing.T) {
	dir := CopySample(t, "pipeline", V4(t).NodeModules)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "does-not-exist"))
	code, _, errs := Oracle(t, "prove", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	if code != ExitError || !strings.Contains(errs, "environment") || !strings.Contains(errs, "does-not-exist") {
		t.Errorf("a missing TMPDIR: exit %d, want 3 (environment)\n%s", code, errs)
	}
}
