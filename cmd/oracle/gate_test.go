package main

// Tests of `oracle gate` that run no vitest: usage errors and the text
// output.

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/gate"
)

// TestGateThresholdUsage: NaN would pass every gate (it compares false with
// every bound); NaN, infinities and values outside 0-100 are usage errors.
func TestGateThresholdUsage(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "-1", "100.1"} {
		code, _, errs := oracle(t, "gate", "--root", dir, "--threshold", v)
		if code != exitUsage || !strings.Contains(errs, "want a percentage from 0 to 100") {
			t.Errorf("--threshold %s: exit %d %q", v, code, errs)
		}
	}
	writeFiles(t, dir, map[string]string{"oracle.yaml": "gate:\n  threshold: .nan\n"})
	if code, _, errs := oracle(t, "gate", "--root", dir); code != exitUsage || !strings.Contains(errs, "gate.threshold") {
		t.Errorf("gate.threshold: .nan: exit %d %q", code, errs)
	}
}

// TestGateShardUsage: --shard is K/N exactly; trailing text is refused.
func TestGateShardUsage(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"1/2abc", "1/2/3", "0/2", "3/2", "1/0", "a/b", "1", " 1/2", "1/ 2", "+1/2"} {
		code, _, errs := oracle(t, "gate", "--root", dir, "--shard", v)
		if code != exitUsage || !strings.Contains(errs, "want K/N") {
			t.Errorf("--shard %q: exit %d %q", v, code, errs)
		}
	}
}

// TestGateTextFigures: the summary prints the figures compared, never
// "FAIL 74% ... threshold 74".
func TestGateTextFigures(t *testing.T) {
	res := &gate.Result{Verdict: gate.FAIL, Reason: "src/a.ts scores 73.7% (14/19), below the threshold 74.0", Threshold: 74,
		Score: 100 * 14.0 / 19, Detected: 14, Total: 19,
		Files: []gate.FileScore{{File: "src/a.ts", Score: 100 * 14.0 / 19, Detected: 14, Total: 19}}}
	var b bytes.Buffer
	writeGateText(&b, res, false)
	if !strings.HasPrefix(b.String(), "GATE FAIL 73.7% (14/19) threshold 74.0\n  src/a.ts scores 73.7%") || !strings.Contains(b.String(), "  src/a.ts 73.7% (14/19)") {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestAuditBaseUncommitted: audit --base reads the change as committed at
// HEAD: an uncommitted edit of a file of the change is refused (exit 2),
// naming it and --worktree, before anything runs.
func TestAuditBaseUncommitted(t *testing.T) {
	g := gitRepo{t, t.TempDir()}
	g.git("init", "-q")
	g.commit("base", map[string]string{"src/a.ts": "export function f(a: number) {\n  return a + 1;\n}\n"})
	g.commit("change", map[string]string{"src/a.ts": "export function f(a: number) {\n  return a + 2;\n}\n"})
	writeFiles(t, g.dir, map[string]string{"src/a.ts": "// six\n// comment\n// lines\nexport function f(a: number) {\n  return a + 2;\n}\n"})
	code, _, errs := oracle(t, "audit", "--root", g.dir, "--base", "HEAD~1")
	if code != exitUsage || !strings.Contains(errs, `"src/a.ts"`) || !strings.Contains(errs, "--worktree") {
		t.Errorf("exit %d %s", code, errs)
	}
}
