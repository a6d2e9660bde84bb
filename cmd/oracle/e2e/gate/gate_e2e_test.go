package gate

// End-to-end test of `oracle gate` on a repository with a git history
// written here (a nested .git cannot be committed): the sample's vitest 4
// runs the related tests of each change.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

func TestGateEndToEnd(t *testing.T) {
	nm := V4(t).NodeModules
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=gate@test", "-c", "user.name=gate", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(msg string, files map[string]string) {
		t.Helper()
		WriteFiles(t, dir, files)
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	gateRun := func(extra ...string) (int, GateResult, string) {
		t.Helper()
		code, out, errs := Oracle(t, append([]string{"gate", "--json", "--timings", "--root", dir}, extra...)...)
		var r GateResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("gate --json (exit %d): %v\n%s\n%s", code, err, out, errs)
		}
		return code, r, errs
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	commit("base", map[string]string{
		".gitignore":    "node_modules\n",
		"package.json":  `{"name":"shop","private":true,"type":"module"}`,
		"src/price.ts":  "export function discount(total: number): number {\n  return total;\n}\n",
		"src/orders.ts": "export const saved: number[] = [];\nexport async function save(id: number): Promise<void> {\n  saved.push(id);\n}\n",
		"src/notify.ts": "export function notify(msg: string): string {\n  return msg.toUpperCase();\n}\n",
		"src/route.ts":  "import { notify } from \"./notify\";\nexport function handle(msg: string): string {\n  return notify(msg);\n}\n",
		"test/price.test.ts": "import { expect, it } from \"vitest\";\nimport { discount } from \"../src/price\";\n" +
			"it(\"discounts from 100\", () => {\n  expect(discount(99)).toBe(99);\n  expect(discount(100)).toBe(90);\n  expect(discount(200)).toBe(180);\n});\n",
		"test/route.test.ts": "import { expect, it, vi } from \"vitest\";\nimport { handle } from \"../src/route\";\n" +
			"vi.mock(\"../src/notify\", () => ({ notify: vi.fn(() => \"X\") }));\nit(\"routes\", () => {\n  expect(handle(\"a\")).toBe(\"X\");\n});\n",
		"README.md": "shop\n",
	})

	// 1. A change with strong tests: PASS. Its mutants are on the lines it
	// added (2-4), none on the line it kept (5).
	commit("strong", map[string]string{"src/price.ts": "export function discount(total: number): number {\n  if (total >= 100) {\n    return total * 0.9;\n  }\n  return total;\n}\n"})
	code, r, errs := gateRun()
	if code != 0 || r.Verdict != "PASS" || r.Schema != "oracle.gate/v1" || len(r.Mutants) == 0 {
		t.Fatalf("strong tests: exit %d %s %q score %.0f\n%+v\n%s", code, r.Verdict, r.Reason, r.Score, r.Mutants, errs)
	}
	for _, m := range r.Mutants {
		if m.Line == 5 {
			t.Errorf("a mutant on the line the change kept: %s at line %d", m.MutatorName, m.Line)
		}
	}
	if _, out, _ := Oracle(t, "gate", "--root", dir); !strings.HasPrefix(out, "GATE PASS 100% ") || !strings.Contains(out, " on 3 changed lines threshold 70") {
		t.Errorf("text: %s", out)
	}
	if _, whole, _ := gateRun("--scope", "function"); len(whole.Mutants) <= len(r.Mutants) {
		t.Errorf("--scope function: %d mutants, lines scope %d", len(whole.Mutants), len(r.Mutants))
	}

	// 2. A boundary the tests miss and a dropped write: FAIL, the survivors by line.
	commit("weak", map[string]string{
		"src/shipping.ts": "import { save } from \"./orders\";\nexport async function ship(id: number, total: number): Promise<number> {\n  await save(id);\n  if (total > 50) {\n    return 0;\n  }\n" +
			"  if (id < 0) {\n    throw new Error(\"bad id\");\n  }\n  return 5;\n}\n",
		"test/shipping.test.ts": "import { expect, it } from \"vitest\";\nimport { ship } from \"../src/shipping\";\n" +
			"it(\"ships free over 50\", async () => {\n  expect(await ship(1, 100)).toBe(0);\n  expect(await ship(2, 10)).toBe(5);\n});\n",
		// Related (it imports ship, un-stubbed) but runs none of its code:
		// per-test coverage keeps ship's mutants from running against it.
		"test/exports.test.ts": "import { expect, it } from \"vitest\";\nimport { ship } from \"../src/shipping\";\n" +
			"it(\"exports ship\", () => {\n  expect(typeof ship).toBe(\"function\");\n});\n",
	})
	report := filepath.Join(t.TempDir(), "gate-report.json")
	code, r, _ = gateRun("--threshold", "90", "--report", report)
	ValidateReport(t, report)
	reportNamesTests(t, report)
	survived := map[string]bool{}
	for _, m := range r.Mutants {
		if m.Outcome == "survived" {
			survived[m.MutatorName+"@"+strconv.Itoa(m.Line)] = true
		}
	}
	if code != 1 || r.Verdict != "FAIL" || !survived["CallStatementRemoval@3"] || !survived["EqualityOperator@4"] {
		t.Fatalf("weak tests: exit %d %s %q, survivors %v", code, r.Verdict, r.Reason, survived)
	}
	// Per-test coverage: both test files are related to ship, only one runs
	// its code; the branch no test takes (its block from line 7, line 8) is
	// no-coverage, not run.
	for _, tg := range r.Targets {
		if tg.ID == "src/shipping.ts#ship" && strings.Join(tg.Tests, " ") != "test/shipping.test.ts" { // measured: exports.test.ts loads ship, never runs it
			t.Errorf("ship's related tests: %v", tg.Tests)
		}
	}
	uncovered := 0
	for _, m := range r.Mutants {
		switch {
		case m.Line == 8 || m.Line == 7 && m.MutatorName == "BlockStatement":
			uncovered++
			if m.Outcome != "no-coverage" || len(m.CoveredBy) != 0 {
				t.Errorf("%s at line 8 (a branch no test takes): %s, covered by %v", m.MutatorName, m.Outcome, m.CoveredBy)
			}
		case m.Target == "src/shipping.ts#ship" && strings.Join(m.CoveredBy, " ") != "test/shipping.test.ts":
			t.Errorf("%s at line %d: covered by %v, want test/shipping.test.ts alone", m.MutatorName, m.Line, m.CoveredBy)
		}
	}
	if uncovered == 0 {
		t.Error("no mutant in the branch no test takes")
	}
	// Sharded: the shards run every mutant exactly once; merged, they decide
	// as the single run did. With --no-cache they run everything, though the
	// single run above left every outcome in the cache (this was a run of
	// its own, --no-cache after the cached second run below).
	var docs []string
	seen := map[string]int{}
	for _, sh := range []string{"1/2", "2/2"} {
		_, out, errs := Oracle(t, "gate", "--json", "--root", dir, "--threshold", "90", "--no-cache", "--shard", sh)
		var part GateResult
		if err := json.Unmarshal([]byte(out), &part); err != nil {
			t.Fatalf("shard %s: %v\n%s", sh, err, errs)
		}
		if part.Cached != 0 || len(part.Mutants) == 0 {
			t.Errorf("--no-cache --shard %s: %d of %d cached", sh, part.Cached, len(part.Mutants))
		}
		for _, m := range part.Mutants {
			seen[m.Target+"@"+strconv.Itoa(m.Line)+m.MutatorName+m.Outcome]++
		}
		p := filepath.Join(t.TempDir(), "shard.json")
		os.WriteFile(p, []byte(out), 0o644)
		docs = append(docs, p)
	}
	if len(seen) == 0 {
		t.Fatal("the shards ran nothing")
	}
	whole := map[string]int{}
	for _, m := range r.Mutants {
		whole[m.Target+"@"+strconv.Itoa(m.Line)+m.MutatorName+m.Outcome]++
	}
	for k, n := range whole {
		if seen[k] != n {
			t.Errorf("mutant %s: %d in the shards, %d in the single run", k, seen[k], n)
		}
	}
	mreport, mpage := filepath.Join(t.TempDir(), "merged-report.json"), filepath.Join(t.TempDir(), "merged.html")
	mcode, mout, merrs := Oracle(t, append([]string{"gate", "merge", "--json", "--root", dir, "--report", mreport, "--html", mpage}, docs...)...)
	ValidateReport(t, mreport)
	reportNamesTests(t, mreport)
	if b, err := os.ReadFile(mpage); err != nil || !strings.Contains(string(b), "GATE FAIL") || !strings.Contains(string(b), `class="changed survived"`) {
		t.Errorf("gate merge --html: %v\n%.600s", err, b)
	}
	var merged GateResult
	if err := json.Unmarshal([]byte(mout), &merged); err != nil || mcode != code || merged.Verdict != r.Verdict || merged.Score != r.Score || len(merged.Mutants) != len(r.Mutants) {
		t.Errorf("merged: exit %d %s %.1f (%d mutants), single run exit %d %s %.1f (%d)\n%s", mcode, merged.Verdict, merged.Score, len(merged.Mutants), code, r.Verdict, r.Score, len(r.Mutants), merrs)
	}
	// The text run is the same change again: the cache's second run (this
	// was a run of its own, --json): it runs nothing (every mutant from the
	// cache, said on stderr without --timings) and decides as the first.
	page := filepath.Join(t.TempDir(), "gate.html")
	t.Setenv("GITHUB_ACTIONS", "true") // the survivors as annotations on their lines
	code2, out, errs2 := Oracle(t, "gate", "--root", dir, "--threshold", "90", "--html", page)
	os.Unsetenv("GITHUB_ACTIONS")
	var detected, scored int
	if first, _, _ := strings.Cut(out, "\n"); strings.Contains(first, "% (") {
		fmt.Sscanf(first[strings.Index(first, "% (")+2:], "(%d/%d)", &detected, &scored)
	}
	if fromCache := fmt.Sprintf("oracle gate: %d of %d mutants from the cache", len(r.Mutants), len(r.Mutants)); code2 != code || !strings.Contains(errs2, fromCache) ||
		scored == 0 || 100*float64(detected)/float64(scored) != r.Score {
		t.Errorf("second run: exit %d, %d/%d detected (first: exit %d, score %.1f), want %q on stderr:\n%s%s", code2, detected, scored, code, r.Score, fromCache, out, errs2)
	}
	if !strings.Contains(out, "\n::error file=src/shipping.ts,line=3::oracle gate FAIL: survived mutant CallStatementRemoval in src/shipping.ts#ship: no related test fails on it (file score ") ||
		!strings.Contains(out, "\n::error file=src/shipping.ts,line=4::oracle gate FAIL: survived mutant EqualityOperator") {
		t.Errorf("no annotation for each survivor in GitHub Actions:\n%s", out)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "GATE FAIL") || !strings.Contains(string(b), `class="changed survived"`) ||
		!strings.Contains(string(b), "; killed by test/shipping.test.ts &gt; ships free over 50</p>") ||
		strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") || strings.Contains(string(b), "<script") {
		t.Errorf("--html: %v\n%.600s", err, b)
	}
	if !strings.HasPrefix(out, "GATE FAIL ") || !strings.Contains(out, "survived src/shipping.ts:3:") {
		t.Errorf("text output:\n%s", out)
	}

	// The threshold from oracle.yaml when --threshold is not given.
	WriteFiles(t, dir, map[string]string{"oracle.yaml": "gate:\n  threshold: 90\n"})
	if c, cfg, _ := gateRun(); c != 1 || cfg.Threshold != 90 || cfg.Verdict != "FAIL" {
		t.Errorf("gate.threshold in oracle.yaml: exit %d threshold %v %s", c, cfg.Threshold, cfg.Verdict)
	}
	os.Remove(filepath.Join(dir, "oracle.yaml"))

	// The cache: the same change again runs nothing (the text run above); a
	// changed related test file runs its mutants again; --no-cache runs
	// everything (the shards above).
	WriteFiles(t, dir, map[string]string{"test/shipping.test.ts": "import { expect, it } from \"vitest\";\nimport { ship } from \"../src/shipping\";\n" +
		"it(\"ships free over 50\", async () => {\n  expect(await ship(1, 100)).toBe(0);\n  expect(await ship(2, 50)).toBe(5);\n});\n"})
	// The edit is not committed: the change as committed is refused, the
	// working tree taken as the change with --worktree.
	if code, _, errs := Oracle(t, "gate", "--root", dir, "--threshold", "90"); code != ExitUsage || !strings.Contains(errs, "test/shipping.test.ts") || !strings.Contains(errs, "--worktree") {
		t.Errorf("an uncommitted edit of a file of the change: exit %d %s", code, errs)
	}
	if _, after, _ := gateRun("--threshold", "90", "--worktree"); after.Cached != 0 {
		t.Errorf("after the test changed: %d cached", after.Cached)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".oracle", ".gitignore")); err != nil || !strings.Contains(string(b), "*") {
		t.Errorf(".oracle/ does not ignore itself: %v", err)
	}
	git("checkout", "--", "test/shipping.test.ts")

	// 3. A change to a module whose only test mocks it: SKIP, with the reason.
	commit("mocked", map[string]string{"src/notify.ts": "export function notify(msg: string): string {\n  return msg.toUpperCase().trim();\n}\n"})
	code, r, _ = gateRun()
	if code != 0 || r.Verdict != "SKIP" || len(r.Targets) != 1 || r.Targets[0].Skipped != `no test executes it: reached only through vi.mock("../src/notify") at test/route.test.ts:3` {
		t.Fatalf("mocked only: exit %d %s %q %+v", code, r.Verdict, r.Reason, r.Targets)
	}

	// 3b. The seed case: the route test mocks the barrel the code is
	// re-exported through; another test loads the module and never runs the
	// function. Measured: SKIP naming the mock, never a 0% FAIL.
	commit("barrel", map[string]string{
		"src/pipeline/process.ts": "export function processItem(id: number): number {\n  return id * 2;\n}\nexport const VERSION = 1;\n",
		"src/pipeline/index.ts":   "export { processItem, VERSION } from \"./process\";\n",
		"src/api.ts":              "import { processItem } from \"./pipeline\";\nexport function post(id: number): number {\n  return processItem(id);\n}\n",
		"test/api.test.ts": "import { expect, it, vi } from \"vitest\";\nimport { post } from \"../src/api\";\n" +
			"vi.mock(\"../src/pipeline\", () => ({ processItem: vi.fn(() => 7) }));\nit(\"posts\", () => {\n  expect(post(1)).toBe(7);\n});\n",
		"test/version.test.ts": "import { expect, it } from \"vitest\";\nimport { VERSION } from \"../src/pipeline/process\";\nit(\"has a version\", () => {\n  expect(VERSION).toBe(1);\n});\n",
	})
	commit("barrel change", map[string]string{"src/pipeline/process.ts": "export function processItem(id: number): number {\n  return id * 3;\n}\nexport const VERSION = 1;\n"})
	code, r, _ = gateRun()
	if code != 0 || r.Verdict != "SKIP" || len(r.Targets) != 1 ||
		r.Targets[0].Skipped != `no test executes it: loaded by test/version.test.ts, which does not run it; the others reach it only through vi.mock("../src/pipeline") at test/api.test.ts:3, which re-exports it from src/pipeline/process.ts` {
		t.Fatalf("barrel mocked: exit %d %s %q %+v", code, r.Verdict, r.Reason, r.Targets)
	}

	// 3c. A function passed as a value (never called by name) is related to
	// the tests that run it.
	commit("as a value", map[string]string{
		"src/list.ts": "function purry(fn: (xs: number[]) => number[], xs: number[]): number[] {\n  return fn(xs);\n}\nexport function evens(xs: number[]): number[] {\n  return purry(evensImplementation, xs);\n}\n" +
			"function evensImplementation(xs: number[]): number[] {\n  return xs.filter((x) => x % 2 === 0);\n}\n",
		"test/list.test.ts": "import { expect, it } from \"vitest\";\nimport { evens } from \"../src/list\";\nit(\"keeps evens\", () => {\n  expect(evens([1, 2, 3, 4])).toEqual([2, 4]);\n});\n",
	})
	commit("as a value change", map[string]string{"src/list.ts": "function purry(fn: (xs: number[]) => number[], xs: number[]): number[] {\n  return fn(xs);\n}\nexport function evens(xs: number[]): number[] {\n  return purry(evensImplementation, xs);\n}\n" +
		"function evensImplementation(xs: number[]): number[] {\n  return xs.filter((x) => x % 2 === 0 && x > 0);\n}\n"})
	code, r, _ = gateRun()
	if r.Verdict == "SKIP" || len(r.Targets) != 1 || r.Targets[0].ID != "src/list.ts#evensImplementation" || strings.Join(r.Targets[0].Tests, " ") != "test/list.test.ts" {
		t.Fatalf("passed as a value: exit %d %s %q %+v", code, r.Verdict, r.Reason, r.Targets)
	}

	// 3d. A change to a shared test helper alone: SKIP (test code), not 0%.
	commit("helper", map[string]string{"test/helpers.ts": "export function twice(n: number): number {\n  return n * 2;\n}\n"})
	if code, r, _ = gateRun(); code != 0 || r.Verdict != "SKIP" || !strings.Contains(r.Reason, "test code only: test/helpers.ts") {
		t.Fatalf("helper only: exit %d %s %q", code, r.Verdict, r.Reason)
	}

	// 4. A docs-only change: SKIP.
	commit("docs", map[string]string{"README.md": "shop, documented\n"})
	if code, r, _ = gateRun(); code != 0 || r.Verdict != "SKIP" || !strings.Contains(r.Reason, "no production TypeScript") {
		t.Fatalf("docs only: exit %d %s %q", code, r.Verdict, r.Reason)
	}

	// 4b. The change as a list of files on standard input (--files-from -):
	// each file whole, whatever git says.
	code, out, errs = OracleIn(t, "# the task's files\nsrc/price.ts\n", "gate", "--json", "--root", dir, "--files-from", "-")
	var listed GateResult
	if err := json.Unmarshal([]byte(out), &listed); err != nil || code != 0 || listed.Verdict != "PASS" || len(listed.Targets) != 1 || listed.Targets[0].ID != "src/price.ts#discount" {
		t.Fatalf("--files-from -: exit %d %v %+v\n%s", code, err, listed, errs)
	}
	for _, bad := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"src/price.ts\n../../etc/passwd\n", []string{"--files-from", "-"}, `--files-from standard input:2: "../../etc/passwd" is not a path inside the repository`},
		{"", []string{"--files-from", filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{"src/price.ts\n", []string{"--files-from", "-", "--base", "HEAD~2"}, "not both"},
		{"src/price.ts\n", []string{"--files-from", "-", "--files", "x.txt"}, "one list"},
	} {
		if code, _, errs := OracleIn(t, bad.stdin, append([]string{"gate", "--root", dir}, bad.args...)...); code != ExitUsage || !strings.Contains(errs, bad.want) {
			t.Errorf("gate %v: exit %d, want 2 with %q\n%s", bad.args, code, bad.want, errs)
		}
	}

	// 5. Inputs to fix: exit 2 with the fix.
	if code, _, errs := Oracle(t, "gate", "--root", dir, "--base", "no-such-rev"); code != ExitUsage || !strings.Contains(errs, "does not exist") {
		t.Errorf("a missing base: exit %d %s", code, errs)
	}
	if code, _, errs := Oracle(t, "gate", "--root", t.TempDir()); code != ExitUsage || !strings.Contains(errs, "not a git repository") {
		t.Errorf("not a git repository: exit %d %s", code, errs)
	}
}

// reportNamesTests: the gate's report (of the weak-tests commit) lists the
// its of the related test files with their lines, as vitest declared them,
// and its mutants name tests: killedBy the it that failed, coveredBy the its
// of the file that reached them.
func reportNamesTests(t *testing.T, report string) {
	t.Helper()
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files map[string]struct {
			Mutants []struct {
				Status              string
				KilledBy, CoveredBy []string
			}
		}
		TestFiles map[string]struct {
			Tests []struct {
				ID, Name string
				Location *struct{ Start struct{ Line int } }
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	const id = "test/shipping.test.ts > ships free over 50"
	ts := doc.TestFiles["test/shipping.test.ts"].Tests
	if len(ts) != 1 || ts[0].ID != id || ts[0].Name != "ships free over 50" || ts[0].Location == nil || ts[0].Location.Start.Line != 3 {
		t.Errorf("the report's tests of test/shipping.test.ts: %+v, want the it ships free over 50 at line 3", ts)
	}
	killed := 0
	for _, m := range doc.Files["src/shipping.ts"].Mutants {
		if m.Status == "Killed" {
			killed++
			if strings.Join(m.KilledBy, ",") != id {
				t.Errorf("a killed mutant names %v as its killer, want the it %q", m.KilledBy, id)
			}
		}
		if m.Status != "NoCoverage" && strings.Join(m.CoveredBy, ",") != id {
			t.Errorf("a %s mutant is covered by %v, want the it %q", m.Status, m.CoveredBy, id)
		}
	}
	if killed == 0 {
		t.Error("no killed mutant in the report")
	}
}

// TestGateEmptyShard: a shard none of the gate's mutants falls in says so
// in its document, not "no mutant could be built" (the gate builds some).
func TestGateEmptyShard(t *testing.T) {
	g := NewGateRepo(t, map[string]string{"src/total.ts": TotalTS,
		"test/total.test.ts": "import { expect, it } from \"vitest\";\nimport { total } from \"../src/total\";\nit(\"totals\", () => expect(total(2, 3)).toBe(6));\n"})
	g.Commit("change", map[string]string{"src/total.ts": strings.Replace(TotalTS, "price * qty", "price * qty * 1", 1)})
	code, out, errs := Oracle(t, "gate", "--json", "--root", g.Dir, "--shard", "40/40")
	var doc struct {
		Verdict, Reason string
		Identity        struct{ Mutants int }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.Identity.Mutants == 0 || doc.Identity.Mutants >= 40 {
		t.Fatalf("shard 40/40: exit %d %v\n%s\n%s", code, err, out, errs)
	}
	if want := fmt.Sprintf("shard 40/40 is empty: none of the gate's %d mutants is in it", doc.Identity.Mutants); doc.Verdict != "SKIP" || !strings.HasPrefix(doc.Reason, want) {
		t.Errorf("an empty shard: %s %q, want SKIP %q", doc.Verdict, doc.Reason, want)
	}
}
