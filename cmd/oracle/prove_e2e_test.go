package main

// End-to-end tests of `oracle prove` and `oracle apply` on the seed scenario,
// with the sample's own vitest 4 (each prove runs vitest a dozen times).

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"github.com/oracle-ts/oracle/internal/testenv"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
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

func prove(t *testing.T, dir string, extra ...string) (int, proveResult, string) {
	t.Helper()
	args := append([]string{"prove", "--json", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")}, extra...)
	code, out, errs := oracle(t, args...)
	var r proveResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("prove --json (exit %d): %v\n%s\n%s", code, err, out, errs)
	}
	return code, r, errs
}

// treeHash hashes every path, mode, link target and content under dir
// (node_modules links included, not followed).
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s %v\n", strings.TrimPrefix(p, dir), info.Mode())
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintln(h, target)
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func v4(t *testing.T) toolchain { return toolchains(t)[0] }

// TestProveCorrectImplementation: PASS, every run as the SPEC names it, the
// mutation report valid against the published schema, the checkout untouched.
func TestProveCorrectImplementation(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	before := treeHash(t, dir)
	report := filepath.Join(t.TempDir(), "report.json")
	code, r, errs := prove(t, dir, "--report", report)
	if code != 0 || r.Verdict != "PASS" {
		t.Fatalf("exit %d verdict %s\n%+v\n%s", code, r.Verdict, r, errs)
	}
	var names []string
	for _, run := range r.Operations[0].Runs {
		names = append(names, run.Name+"="+run.Outcome)
	}
	want := "baseline=passed red-first=killed flag-inverted=killed flag-always-set=killed " +
		"preserve-removed:selectTargets=killed preserve-moved-under-guard:selectTargets=killed " +
		"preserve-removed:resolveSettings=killed preserve-moved-under-guard:resolveSettings=killed " +
		"preserve-removed:extractMetadata=killed preserve-moved-under-guard:extractMetadata=killed " +
		"preserve-removed:updateRecord=killed preserve-moved-under-guard:updateRecord=killed"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("runs:\n got  %s\n want %s", got, want)
	}
	if !strings.Contains(r.Operations[0].Stale, "no oracle is committed") {
		t.Errorf("stale note: %q", r.Operations[0].Stale)
	}
	if after := treeHash(t, dir); after != before {
		t.Error("prove changed the checkout")
	}
	validateReport(t, report)
}

func validateReport(t *testing.T, report string) {
	t.Helper()
	script := sample(t, "node/validate-report.mjs")
	needTool(t, sample(t, "node/node_modules/ajv/package.json"))
	out, err := exec.Command("node", script, report).CombinedOutput()
	if err != nil {
		t.Fatalf("the mutation report does not validate against mutation-testing-report-schema: %v\n%s", err, out)
	}
}

func needTool(t *testing.T, path string) {
	t.Helper()
	testenv.NeedFile(t, path, "run scripts/test first")
}

// TestProveBrokenImplementation: a guard that also swallows the preserved
// write proves FAIL, attributed to the implementation, naming the call (with
// a fresh vitest process per run: the other tests use the default,
// long-lived runner).
func TestProveBrokenImplementation(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	b := breakings[1] // preserved write moved under the guard
	index := filepath.Join(dir, "src/server/index.ts")
	src, _ := os.ReadFile(index)
	os.WriteFile(index, bytes.Replace(src, []byte(b.old), []byte(b.new), 1), 0o644)
	code, r, _ := prove(t, dir, "--runner", "process")
	op := r.Operations[0]
	if code != 1 || r.Verdict != "FAIL" || op.Attribution != "implementation" {
		t.Fatalf("exit %d, verdict %s, attribution %s: %+v", code, r.Verdict, op.Attribution, op)
	}
	if !strings.Contains(op.Reason, "updateRecord") || op.Runs[0].Outcome != "failed" {
		t.Errorf("the reason must name the call: %q (baseline %s)", op.Reason, op.Runs[0].Outcome)
	}
}

// TestApplyThenProve: an unguarded function fails before apply and passes
// after it; apply is idempotent, and --dry-run writes nothing.
func TestApplyThenProve(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	index := filepath.Join(dir, "src/server/index.ts")
	guarded, _ := os.ReadFile(index)
	b := breakings[0] // guard deleted
	unguarded := bytes.Replace(guarded, []byte(b.old), []byte(b.new), 1)
	os.WriteFile(index, unguarded, 0o644)

	code, r, _ := prove(t, dir)
	if code != 1 || r.Verdict != "FAIL" || r.Operations[0].Attribution != "implementation" || !strings.Contains(r.Operations[0].Reason, "enrichItem") {
		t.Fatalf("before apply: exit %d %s %+v", code, r.Verdict, r.Operations[0])
	}

	manifest := filepath.Join(dir, "tickets/PROJ-142.yaml")
	code, out, errs := oracle(t, "apply", "--dry-run", "--root", dir, manifest)
	if code != 0 || !strings.Contains(out, "+  if (!opts.skip) {") {
		t.Fatalf("apply --dry-run: exit %d\n%s%s", code, out, errs)
	}
	if now, _ := os.ReadFile(index); !bytes.Equal(now, unguarded) {
		t.Fatal("--dry-run wrote the file")
	}
	if code, out, errs := oracle(t, "apply", "--root", dir, manifest); code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errs)
	}
	if now, _ := os.ReadFile(index); !bytes.Equal(now, guarded) {
		t.Fatalf("apply did not write the guard the sample has:\n%s", now)
	}
	code, out, _ = oracle(t, "apply", "--root", dir, manifest)
	if now, _ := os.ReadFile(index); code != 0 || !bytes.Equal(now, guarded) || !strings.Contains(out, "unchanged") {
		t.Fatalf("apply is not idempotent: exit %d\n%s", code, out)
	}

	code, r, _ = prove(t, dir)
	if code != 0 || r.Verdict != "PASS" {
		t.Fatalf("after apply: exit %d %s %+v", code, r.Verdict, r.Operations)
	}
}

// TestApplyRefuses: a wrapped call whose result is bound and used later,
// with no default, is refused with the reason, and nothing is written.
func TestApplyRefuses(t *testing.T) {
	dir := copySample(t, "pipeline", t.TempDir())
	index := filepath.Join(dir, "src/server/index.ts")
	src, _ := os.ReadFile(index)
	bound := bytes.Replace(src, []byte("  if (!opts.skip) {\n    patch.score = (await enrichItem(record, settings)).score;\n  }\n"),
		[]byte("  const enriched = await enrichItem(record, settings);\n  patch.score = enriched.score;\n"), 1)
	os.WriteFile(index, bound, 0o644)
	code, out, _ := oracle(t, "apply", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
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
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	bin := filepath.Join(t.TempDir(), "oracle")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	tmp := t.TempDir()
	// The function loops: the baseline run hangs until the signal comes,
	// however fast or slow the machine (a prove that ends first would
	// exit 0).
	index := filepath.Join(dir, "src/server/index.ts")
	src, _ := os.ReadFile(index)
	looping := strings.Replace(string(src), "  const record = await getRecord(id);\n", "  const record = await getRecord(id);\n  while (Date.now() > 0) {}\n", 1)
	if looping == string(src) {
		t.Fatal("processItem changed: no place for the loop")
	}
	os.WriteFile(index, []byte(looping), 0o644)
	before := treeHash(t, dir)
	cmd := exec.Command(bin, "prove", "--isolate", "--concurrency", "1", "--timeout", "10m", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the sandbox exists and vitest has had time to start.
	deadline := time.Now().Add(60 * time.Second)
	for {
		entries, _ := os.ReadDir(tmp)
		if len(entries) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
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
	if after := treeHash(t, dir); after != before {
		t.Error("an interrupted prove changed the checkout")
	}
}

// TestProveConcurrencyDeterministic: mutants spread over two sandboxes give
// the same document as one at a time, run for run (timings aside), and the
// JSON says where the time went.
func TestProveConcurrencyDeterministic(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	runs := func(conc string) (string, map[string]any) {
		args := []string{"prove", "--json", "--concurrency", conc, "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")}
		code, out, errs := oracle(t, args...)
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
			t.Fatalf("--concurrency %s: exit %d %v\n%s\n%s", conc, code, err, out, errs)
		}
		timings, _ := doc["timings"].(map[string]any)
		delete(doc, "timings")
		for _, op := range doc["operations"].([]any) {
			for _, r := range op.(map[string]any)["runs"].([]any) {
				delete(r.(map[string]any), "seconds")
			}
		}
		b, _ := json.MarshalIndent(doc, "", " ")
		return string(b), timings
	}
	one, t1 := runs("1")
	two, t2 := runs("2")
	if one != two {
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
	if code, _, errs := oracle(t, "prove", "--concurrency", "0", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml")); code != 2 || !strings.Contains(errs, "--concurrency") {
		t.Errorf("--concurrency 0: exit %d, %s", code, errs)
	}
}

// TestProveBatchedEqualsIsolated: the differential test of the batched
// engine. On the sample's ticket, on the code as it is and broken each way
// gen's tests break it, prove (batched) gives the document --isolate gives
// (a vitest run per mutant), run for run, timings aside; and on the code as
// it is the batch decided every mutant.
func TestProveBatchedEqualsIsolated(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	index := filepath.Join(dir, "src/server/index.ts")
	orig, _ := os.ReadFile(index)
	doc := func(extra ...string) (string, map[string]any) {
		return proveDocOf(t, dir, "tickets/PROJ-142.yaml", extra...)
	}
	cases := []struct{ name, old, new string }{{"as it is", "", ""}}
	for _, b := range breakings {
		cases = append(cases, struct{ name, old, new string }{b.name, b.old, b.new})
	}
	for _, c := range cases {
		os.WriteFile(index, bytes.Replace(orig, []byte(c.old), []byte(c.new), 1), 0o644)
		batched, tb := doc()
		isolated, ti := doc("--isolate")
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
	svc := copySample(t, "services", v4(t).nodeModules)
	for _, ticket := range methodTickets {
		batched, tb := proveDocOf(t, svc, ticket)
		isolated, _ := proveDocOf(t, svc, ticket, "--isolate")
		if batched != isolated {
			t.Errorf("%s: batched differs from isolated:\n%s\n--- isolated:\n%s", ticket, batched, isolated)
		}
		if tb["batched"] != tb["mutants"] {
			t.Errorf("%s: the batch decided %v of %v mutants", ticket, tb["batched"], tb["mutants"])
		}
	}
}

// proveDocOf is prove --json of ticket in dir, one mutant at a time, without
// what differs from run to run (seconds, timings: returned apart).
func proveDocOf(t *testing.T, dir, ticket string, extra ...string) (string, map[string]any) {
	t.Helper()
	args := append([]string{"prove", "--json", "--concurrency", "1", "--root", dir, filepath.Join(dir, ticket)}, extra...)
	_, out, errs := oracle(t, args...)
	var d map[string]any
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %v\n%s\n%s", extra, err, out, errs)
	}
	timings, _ := d["timings"].(map[string]any)
	delete(d, "timings")
	ops, _ := d["operations"].([]any) // none when the breaking makes the manifest invalid
	for _, op := range ops {
		runs, _ := op.(map[string]any)["runs"].([]any)
		for _, r := range runs {
			delete(r.(map[string]any), "seconds")
		}
	}
	b, _ := json.MarshalIndent(d, "", " ")
	return string(b), timings
}

// TestProveTempDirectory: after a prove nothing is left in the system's temp
// directory (the sandbox, the runner's files and vitest's $TMPDIR/<id>/ssr
// all live inside the sandbox); a sandbox left by a killed prove is swept by
// the next at once; a TMPDIR that does not exist is an environment error.
func TestProveTempDirectory(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// What a SIGKILLed prove leaves: a sandbox whose owner process is gone.
	stale := filepath.Join(tmp, "oracle-prove-killed")
	os.MkdirAll(filepath.Join(stale, "repo"), 0o755)
	os.WriteFile(filepath.Join(stale, ".oracle-sandbox-owner"), []byte("pid 999999999\nstart x\n"), 0o644)
	code, r, errs := prove(t, dir)
	if code != 0 || r.Verdict != "PASS" {
		t.Fatalf("exit %d %s\n%s", code, r.Verdict, errs)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in $TMPDIR after prove: %v", names)
	}
	t.Setenv("TMPDIR", filepath.Join(tmp, "does-not-exist"))
	code, _, errs = oracle(t, "prove", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	if code != exitError || !strings.Contains(errs, "environment") || !strings.Contains(errs, "does-not-exist") {
		t.Errorf("a missing TMPDIR: exit %d, want 3 (environment)\n%s", code, errs)
	}
}

// TestProveImplementationDoesNotLoad: when the function's module imports a
// module that does not exist, the oracle cannot run, and that is the
// implementation's to fix (ERROR [implementation] with vitest's message), not
// a bug of oracle's generator.
func TestProveImplementationDoesNotLoad(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	index := filepath.Join(dir, "src/server/index.ts")
	b, _ := os.ReadFile(index)
	os.WriteFile(index, append([]byte("import { gone } from \"./gone\";\nvoid gone;\n"), b...), 0o644)
	code, r, errs := prove(t, dir)
	if code != exitError || r.Verdict != "ERROR" || len(r.Operations) == 0 || r.Operations[0].Attribution != "implementation" || !strings.Contains(r.Operations[0].Reason, "gone") {
		t.Fatalf("exit %d %s %+v\n%s", code, r.Verdict, r.Operations, errs)
	}
	// In GitHub Actions the verdict is also an annotation on the file.
	t.Setenv("GITHUB_ACTIONS", "true")
	_, out, _ := oracle(t, "prove", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	if !strings.Contains(out, "::error file=src/server/index.ts::oracle prove ERROR [implementation] skip-enrichment: ") {
		t.Errorf("no annotation:\n%s", out)
	}
}

// TestProveSaysWhichRunsFellBack: a vitest config the long-lived runner
// cannot serve like a fresh process (a globalSetup) sends its runs to a
// fresh vitest: the outcome is the same, and prove says which and why.
func TestProveSaysWhichRunsFellBack(t *testing.T) {
	dir := copySample(t, "pipeline", v4(t).nodeModules)
	os.WriteFile(filepath.Join(dir, "test", "gs.ts"), []byte("export default function () {}\n"), 0o644)
	cfg := filepath.Join(dir, "vitest.config.ts")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "test: {", "test: {\n    globalSetup: [\"./test/gs.ts\"],", 1)), 0o644)
	code, out, errs := oracle(t, "prove", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(errs, "fell back from the long-lived vitest to a fresh process") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
