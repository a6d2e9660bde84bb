package main

// Tests of `oracle gate` that run no vitest: usage errors and the text
// output.

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/audit"
	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
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

// TestTimingsText: --timings in text mode prints this run's measures (the
// gate's: from the cache, phases, ran alone, slowest, whatever the
// verdict; audit's phases); without it none of them.
func TestTimingsText(t *testing.T) {
	res := &gate.Result{Verdict: gate.PASS, Threshold: 70, Score: 100, Detected: 2, Total: 2, Seconds: 12.34, Cached: 1,
		Mutants: []gate.Mutant{{ID: "src/a.ts#f#1", Decision: lab.Decision{Outcome: "killed"}}, {ID: "src/a.ts#f#2", Decision: lab.Decision{Outcome: "killed"}}},
		Timings: gate.Timings{Setup: 1.5, Sandbox: 0.25, Baseline: 2, Batches: 3, Alone: 4, RanAlone: 1, AloneWhy: map[string]int{"isolate": 1},
			Slowest: []gate.SlowMutant{{ID: "src/a.ts#f#2", Outcome: "killed", Seconds: 4}}}}
	skip := &gate.Result{Verdict: gate.SKIP, Reason: "the diff is empty: no file differs from the base", Seconds: 0.5, Timings: gate.Timings{Setup: 0.5}}
	for _, tc := range []struct {
		name    string
		res     *gate.Result
		timings bool
		want    []string
	}{
		{"pass", res, true, []string{"  1 of 2 mutants from the cache", "  timings: 12.3s: setup 1.5s, sandbox 0.2s, baselines 2.0s, batches 3.0s, alone 4.0s\n",
			"  ran alone: 1 (1 isolate)\n", "  slowest: src/a.ts#f#2 4.0s (killed)\n"}},
		{"skip", skip, true, []string{"  timings: 0.5s: setup 0.5s,"}},
		{"without --timings", res, false, nil},
	} {
		var b bytes.Buffer
		writeGateText(&b, tc.res, tc.timings)
		for _, want := range tc.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: no %q in\n%s", tc.name, want, b.String())
			}
		}
		if !tc.timings && (strings.Contains(b.String(), "timings") || strings.Contains(b.String(), "cache")) {
			t.Errorf("%s: measures without --timings:\n%s", tc.name, b.String())
		}
	}
	for _, timings := range []bool{true, false} {
		var b bytes.Buffer
		printAudit(&b, &audit.Report{Timings: audit.Timings{Suite: 1, Walk: 0.5, Sandbox: 0.25, Measure: 2, Runs: 3, Rules: 0.1}}, map[string]int{}, &auditRun{timings: timings})
		want := "  timings: suite 1.0s, walk 0.5s, sandbox 0.2s, measure 2.0s (3 runs), rules 0.1s\n"
		if got := strings.Contains(b.String(), want); got != timings {
			t.Errorf("audit --timings=%v: %q in the text is %v:\n%s", timings, want, got, b.String())
		}
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
