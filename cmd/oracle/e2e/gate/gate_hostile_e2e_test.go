package gate

// The wrong verdicts a hostile user found (issue 18), end to end on a
// repository with a git history written here: each step fails without its
// fix.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/oracle-ts/oracle/cmd/oracle/e2e/e2etest"
)

const (
	helperTS    = "import { expect } from \"vitest\";\nexport function expectGrade(got: string, want: string): void {\n  expect(got).toBe(want);\n}\n"
	weakHelper  = "export function expectGrade(got: string, want: string): void {}\n"
	gradeTestTS = "import { it } from \"vitest\";\nimport { readFileSync } from \"node:fs\";\nimport { grade } from \"../src/grade\";\nimport { expectGrade } from \"./helpers/expect\";\n" +
		"it(\"grades\", () => {\n  expectGrade(grade(50), \"pass\");\n  expectGrade(grade(49), \"fail\");\n  expectGrade(readFileSync(\"test/mode.txt\", \"utf8\").trim(), \"on\");\n});\n"
	moneyTS     = "export function cents(n: number): number {\n  return n * 100;\n}\n"
	moneyTestTS = "import { expect, it } from \"vitest\";\nimport { cents } from \"../src/mön ey\";\nit(\"cents\", () => {\n  expect(cents(2)).toBe(200);\n});\n"
)

func TestGateHostile(t *testing.T) {
	nm := V4(t).NodeModules
	g := Repo{T: t, Dir: t.TempDir()}
	dir := g.Dir
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	g.Git("init", "-q")
	g.Commit("base", map[string]string{
		".gitignore":             "node_modules\n",
		"package.json":           `{"name":"grades","private":true,"type":"module"}`,
		"src/grade.ts":           strings.Replace(GradeTS, "\"fail\"", "\"FAIL\"", 1),
		"src/mön ey.ts":          "export function cents(n: number): number {\n  return n * 10;\n}\n",
		"test/helpers/expect.ts": helperTS,
		"test/mode.txt":          "on\n",
		"test/grade.test.ts":     strings.Replace(gradeTestTS, "\"fail\");", "\"FAIL\");", 1),
		"test/money.test.ts":     moneyTestTS,
	})

	// Item 7: the change touches a file whose name git quotes: it is in
	// the scope.
	g.Commit("change", map[string]string{"src/grade.ts": GradeTS, "test/grade.test.ts": gradeTestTS, "src/mön ey.ts": moneyTS})
	code, r, errs := GateJSON(t, dir)
	targets := map[string]bool{}
	for _, tg := range r.Targets {
		targets[tg.ID] = tg.Skipped == ""
	}
	if code != 0 || r.Verdict != "PASS" || !targets["src/grade.ts#grade"] || !targets["src/mön ey.ts#cents"] {
		t.Fatalf("first run: exit %d %s %q targets %v\n%s", code, r.Verdict, r.Reason, targets, errs)
	}
	total := len(r.Mutants)

	// Item 4: a weakened shared assertion helper (not in the change) is in
	// the cache key: the mutants run again and survive.
	WriteFiles(t, dir, map[string]string{"test/helpers/expect.ts": weakHelper})
	code, r, _ = GateJSON(t, dir)
	_, fresh, _ := GateJSON(t, dir, "--no-cache")
	if code != 1 || r.Verdict != "FAIL" || r.Score != fresh.Score || fresh.Verdict != "FAIL" {
		t.Errorf("weakened helper: exit %d %s %.0f%% (%d cached), --no-cache %s %.0f%%", code, r.Verdict, r.Score, r.Cached, fresh.Verdict, fresh.Score)
	}

	// Item 5: shards of that run. A shard whose slice ran exits 0 (the
	// verdict is the merge's); merge refuses one shard alone and a shard
	// twice (exit 2, naming what is wrong) and decides the whole set as the
	// single run; an empty shard says so.
	var docs []string
	for _, sh := range []string{"1/2", "2/2"} {
		scode, out, serrs := Oracle(t, "gate", "--json", "--root", dir, "--shard", sh)
		var part HostileResult
		if err := json.Unmarshal([]byte(out), &part); err != nil || scode != 0 || part.Identity == nil || part.Identity.Mutants != total {
			t.Fatalf("shard %s: exit %d %v %+v\n%s", sh, scode, err, part.Identity, serrs)
		}
		p := filepath.Join(t.TempDir(), "shard.json")
		os.WriteFile(p, []byte(out), 0o644)
		docs = append(docs, p)
	}
	if mcode, _, merrs := Oracle(t, "gate", "merge", docs[0]); mcode != ExitUsage || !strings.Contains(merrs, "shard 2/2 missing") {
		t.Errorf("merge of one shard alone: exit %d %s", mcode, merrs)
	}
	if mcode, _, merrs := Oracle(t, "gate", "merge", docs[0], docs[0]); mcode != ExitUsage || !strings.Contains(merrs, "given twice") {
		t.Errorf("merge of a shard twice: exit %d %s", mcode, merrs)
	}
	mcode, mout, merrs := Oracle(t, "gate", "merge", "--json", docs[1], docs[0])
	var merged HostileResult
	if err := json.Unmarshal([]byte(mout), &merged); err != nil || mcode != 1 || merged.Verdict != "FAIL" || merged.Score != fresh.Score {
		t.Errorf("merge of the set: exit %d %s %.1f (single %.1f) %v\n%s", mcode, merged.Verdict, merged.Score, fresh.Score, err, merrs)
	}
	if scode, out, serrs := Oracle(t, "gate", "--root", dir, "--shard", "40/40"); scode != 0 || !strings.Contains(out, "GATE SHARD 40/40: empty, no mutant in this shard") {
		t.Errorf("an empty shard: exit %d\n%s%s", scode, out, serrs)
	}
	WriteFiles(t, dir, map[string]string{"test/helpers/expect.ts": helperTS})

	// Items 4 and 13: every mutant cached, but the related test is red now
	// (through a file no import names): the baselines run, FAIL with
	// attribution tests, exit 1; not a cached PASS.
	if _, again, _ := GateJSON(t, dir); again.Cached != total || again.Verdict != "PASS" {
		t.Fatalf("the helper restored: %s, %d of %d cached", again.Verdict, again.Cached, total)
	}
	WriteFiles(t, dir, map[string]string{"test/mode.txt": "off\n"})
	code, r, _ = GateJSON(t, dir)
	if code != 1 || r.Verdict != "FAIL" || r.Attribution != "tests" || r.Cached != 0 || !strings.Contains(r.Reason, "test/grade.test.ts") {
		t.Errorf("a red related test, every mutant cached: exit %d %s (%s) %q, %d cached", code, r.Verdict, r.Attribution, r.Reason, r.Cached)
	}
	_, out, _ := Oracle(t, "gate", "--root", dir)
	if !strings.HasPrefix(out, "GATE FAIL (attribution: tests): the related test test/grade.test.ts fails") {
		t.Errorf("red baseline text:\n%s", out)
	}
	if code, out, _ := Oracle(t, "gate", "--root", dir, "--shard", "1/2"); code != 1 || !strings.HasPrefix(out, "GATE FAIL (attribution: tests)") {
		t.Errorf("a shard with a red related test: exit %d\n%s", code, out)
	}
	g.Git("checkout", "--", "test/mode.txt")

	// Item 6: an uncommitted edit of a file of the change is refused
	// (exit 2, naming it); --worktree takes it as the change, and says so.
	WriteFiles(t, dir, map[string]string{"src/grade.ts": "// moved\n" + GradeTS})
	if code, _, errs := Oracle(t, "gate", "--root", dir); code != ExitUsage || !strings.Contains(errs, `"src/grade.ts"`) || !strings.Contains(errs, "--worktree") {
		t.Errorf("an uncommitted edit: exit %d %s", code, errs)
	}
	if code, out, errs := Oracle(t, "gate", "--root", dir, "--worktree", "--files", "/dev/null"); code != 0 || !strings.Contains(out, "the list of changed files is empty") {
		t.Errorf("--worktree with --files: exit %d %s%s", code, out, errs)
	}
	if code, out, errs := Oracle(t, "audit", "--root", dir, "--base", "HEAD~1", "--worktree"); code == ExitUsage || code == ExitError || !strings.Contains(out, "the change: ") || !strings.Contains(out, "the working tree (--worktree)") {
		t.Errorf("audit --base --worktree: exit %d\n%s%s", code, out, errs)
	}
	g.Git("checkout", "--", "src/grade.ts")

	// Item 11: an output file that cannot be written is refused before any
	// mutant runs (exit 2), for gate and prove.
	bad := filepath.Join(t.TempDir(), "no-such-dir", "r.json")
	for _, args := range [][]string{{"gate", "--root", dir, "--report", bad}, {"gate", "--root", dir, "--html", t.TempDir()},
		{"prove", "--root", dir, "--report", bad, "tickets/none.yaml"}} {
		if code, out, errs := Oracle(t, args...); code != ExitUsage || !strings.Contains(errs, args[len(args)-2]) || strings.Contains(out, "GATE") {
			t.Errorf("%v: exit %d %s%s", args, code, out, errs)
		}
	}

	// Item 13: an empty diff says the diff is empty.
	g.Commit("empty", nil)
	if code, r, _ := GateJSON(t, dir); code != 0 || r.Verdict != "SKIP" || !strings.Contains(r.Reason, "the diff is empty") {
		t.Errorf("an empty diff: exit %d %s %q", code, r.Verdict, r.Reason)
	}
	// git's dubious-ownership refusal: git's words and the fix.
	t.Setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
	if code, _, errs := Oracle(t, "gate", "--root", dir); code != ExitUsage || !strings.Contains(errs, "dubious ownership") || !strings.Contains(errs, "safe.directory") {
		t.Errorf("dubious ownership: exit %d %s", code, errs)
	}
}

// TestGateJestRepository: a repository whose tests run on jest, with jest
// declared and not installed, is told that jest is not installed and what
// to run (an error of the environment), not that it runs vitest.
func TestGateJestRepository(t *testing.T) {
	g := Repo{T: t, Dir: t.TempDir()}
	g.Git("init", "-q")
	g.Commit("base", map[string]string{"package.json": `{"name":"j","devDependencies":{"jest":"^29.0.0"}}`, "src/a.ts": "export const a = 1;\n"})
	g.Commit("change", map[string]string{"src/a.ts": "export const a = 2;\n"})
	code, _, errs := Oracle(t, "gate", "--root", g.Dir)
	if code != ExitError || !strings.Contains(errs, "jest is not installed") || !strings.Contains(errs, "npm ci") || strings.Contains(errs, "vitest") {
		t.Errorf("exit %d %s", code, errs)
	}
}
