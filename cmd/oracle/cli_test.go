package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/prove"
)

// TestCLIConventions: --version, help VERB and VERB -h on standard output
// with flags spelled as the usage spells them; exit 0.
func TestCLIConventions(t *testing.T) {
	code, out, errs := oracle(t, "--version")
	if code != 0 || !regexp.MustCompile(`^oracle \S+ \(commit \S+`).MatchString(out) || errs != "" {
		t.Errorf("--version: exit %d %q %q", code, out, errs)
	}
	for _, args := range [][]string{{"help", "prove"}, {"prove", "-h"}, {"gen", "--help"}, {"graph", "-h"}, {"apply", "-h"}} {
		code, out, errs := oracle(t, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: oracle ") || !strings.Contains(out, "  --json") || strings.Contains(out, "  -json") {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := oracle(t, "help", "nope"); code != exitUsage || !strings.Contains(errs, `no verb "nope"`) {
		t.Errorf("help nope: exit %d %q", code, errs)
	}
}

// TestGraphDirectory: a directory argument graphs every source under it; a
// directory with no sources, or with #FUNCTION, is a usage error.
func TestGraphDirectory(t *testing.T) {
	dir := sample(t, "pipeline")
	code, out, errs := oracle(t, "graph", "--root", dir, filepath.Join(dir, "src/server"))
	if code != 0 || !strings.Contains(out, "src/server/index.ts#processItem") || strings.Contains(out, "\nsrc/db/") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, arg := range []string{"tickets", "src/server#processItem"} {
		if code, _, errs := oracle(t, "graph", "--root", dir, filepath.Join(dir, arg)); code != exitUsage || errs == "" {
			t.Errorf("%s: exit %d %q", arg, code, errs)
		}
	}
}

// TestJSONFieldNames: apply --json and the errors[] of every verb use
// lower-case field names.
func TestJSONFieldNames(t *testing.T) {
	dir := copySample(t, "pipeline", sample(t, "pipeline/node_modules"))
	code, out, errs := oracle(t, "apply", "--json", "--dry-run", "--root", dir, filepath.Join(dir, "tickets/PROJ-142.yaml"))
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("apply --json: exit %d %v\n%s%s", code, err, out, errs)
	}
	op := doc["operations"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "function", "file", "status"} {
		if _, ok := op[k]; !ok {
			t.Errorf("apply --json operation has no %q: %v", k, op)
		}
	}
	bad := filepath.Join(dir, "tickets/bad.yaml")
	os.WriteFile(bad, []byte("ticket: T\noperations:\n  - kind: nope\n"), 0o644)
	for _, verb := range []string{"gen", "apply", "prove"} {
		code, out, _ := oracle(t, verb, "--json", "--root", dir, bad)
		var ed struct {
			Schema string           `json:"schema"`
			Errors []map[string]any `json:"errors"`
		}
		if err := json.Unmarshal([]byte(out), &ed); err != nil || code != exitUsage || len(ed.Errors) == 0 {
			t.Fatalf("%s --json on a bad manifest: exit %d %v\n%s", verb, code, err, out)
		}
		for _, k := range []string{"file", "line", "message"} {
			if _, ok := ed.Errors[0][k]; !ok {
				t.Errorf("%s errors[0] has no %q: %v", verb, k, ed.Errors[0])
			}
		}
	}
}

// TestSameInputsSameErrors: gen, apply and prove validate the same inputs
// the same way: the same exit 2, the same message, nothing written (issue 8
// items 5, 6, 7, 8 and the one call-site matcher).
func TestSameInputsSameErrors(t *testing.T) {
	op := func(extra string) string {
		return "ticket: T-1\noperations:\n  - kind: conditional-skip\n    function: src/server/index.ts#processItem\n    flag: opts.skip\n    wrap: enrichItem\n" + extra
	}
	deep := "[" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "]"
	cases := []struct {
		name, manifest, config, want string
		symlinkOut, breakSource      bool
	}{
		{name: "a wrapped call not in the body", manifest: strings.Replace(op(""), "wrap: enrichItem", "wrap: enrichIt", 1),
			want: "operations[0].wrap: no call enrichIt in the body of processItem (calls: "},
		{name: "an id too long for a file name", manifest: op("    id: " + strings.Repeat("x", 300) + "\n"),
			want: "operations[0].id: an id of at most 128 characters (it names the oracle's file), got 300"},
		{name: "args nested too deep", manifest: op("    args: " + deep + "\n"),
			want: "operations[0].args[0]: a value nested more than 64 levels deep"},
		{name: "a fixture that does not exist", manifest: op("    fixture: nope\n"),
			want: `operations[0].fixture: no fixture named "nope" in oracle.yaml`},
		{name: "a syntax error in the function's file", manifest: op(""), breakSource: true,
			want: "operations[0].function: src/server/index.ts does not parse: src/server/index.ts:"},
		{name: "an invalid oracle.yaml", manifest: op(""), config: "fixtures: 3\n",
			want: "oracle.yaml:1:"},
		{name: "out through a symbolic link leaving the repository", manifest: op(""), symlinkOut: true,
			config: "fixtures:\n  - name: pipeline\n    file: test/fixtures/pipeline.fixture.ts\nout: \"escape/{id}.oracle.test.ts\"\n",
			want:   "oracle.yaml:4:6: out: the oracle path \"escape/processItem-skip.oracle.test.ts\" leaves the repository through a symbolic link"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copySample(t, "pipeline", t.TempDir())
			outside := t.TempDir()
			if tc.config != "" {
				os.WriteFile(filepath.Join(dir, "oracle.yaml"), []byte(tc.config), 0o644)
			}
			if tc.symlinkOut {
				if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
					t.Fatal(err)
				}
			}
			if tc.breakSource {
				index := filepath.Join(dir, "src/server/index.ts")
				b, _ := os.ReadFile(index)
				os.WriteFile(index, append(b, []byte("\nexport function broken( {\n")...), 0o644)
			}
			m := writeManifest(t, dir, tc.manifest)
			before := treeHash(t, dir)
			for _, verb := range []string{"gen", "apply", "prove"} {
				code, out, errs := oracle(t, verb, "--root", dir, m)
				if code != exitUsage || !strings.Contains(errs, tc.want) || len(errs) > 4000 {
					t.Errorf("%s: exit %d, want 2 and %q\nstdout %s\nstderr %.2000s", verb, code, tc.want, out, errs)
				}
			}
			if treeHash(t, dir) != before {
				t.Error("something was written in the repository")
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("something was written outside the repository: %v", entries)
			}
		})
	}
}

func TestGitHubAnnotation(t *testing.T) {
	got := annotation("src/a,b.ts", 12, "FAIL [oracle] op: survived\nmore 100%")
	want := "::error file=src/a%2Cb.ts,line=12::FAIL [oracle] op: survived%0Amore 100%25"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestManifestOutsideRoot: a manifest outside the repository root found from
// the working directory is read against that root, and oracle says which.
func TestManifestOutsideRoot(t *testing.T) {
	dir := copySample(t, "pipeline", t.TempDir())
	other := t.TempDir()
	m := filepath.Join(other, "T.yaml")
	os.WriteFile(m, []byte("ticket: T-1\noperations:\n  - {kind: conditional-skip, function: src/server/index.ts#processItem, flag: opts.skip, wrap: enrichItem}\n"), 0o644)
	_, _, errs := oracle(t, "gen", "--dry-run", "--root", dir, m)
	if !strings.Contains(errs, "is outside the repository root "+dir) {
		t.Errorf("no note naming the root:\n%s", errs)
	}
}

// TestVersionStamped: scripts/build stamps the version and the commit with
// -ldflags, so --version names them even where Go's VCS stamping is off
// (GOFLAGS=-buildvcs=false, as on the CI machines).
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "oracle")
	build := exec.Command("bash", filepath.Join("..", "..", "scripts", "build"), "-o", bin)
	build.Env = append(os.Environ(), "ORACLE_VERSION=9.8.7-stamp", "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scripts/build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "oracle 9.8.7-stamp (commit "
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		want += string(head[:12])
	}
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("--version of a stamped build: %q, want %q...", out, want)
	}
}

// TestAnnotateGate: on FAIL, each surviving or uncovered mutant is an
// annotation at its line with the diff; a PASS annotates nothing; a FAIL
// with no survivor (a related test fails on the code) says why.
func TestAnnotateGate(t *testing.T) {
	res := &gate.Result{Verdict: gate.FAIL, Threshold: 80, Files: []gate.FileScore{{File: "src/a,b.ts", Score: 50, Detected: 1, Total: 2}},
		Mutants: []gate.Mutant{
			{File: "src/a,b.ts", Line: 3, Operator: "EqualityOperator", Target: "src/a,b.ts#f", Decision: lab.Decision{Outcome: "killed"}},
			{File: "src/a,b.ts", Line: 4, Operator: "CallStatementRemoval", Target: "src/a,b.ts#f", Decision: lab.Decision{Outcome: "survived"}, Diff: "-  save(x);\n"},
			{File: "src/a,b.ts", Line: 9, Operator: "BlockStatement", Target: "src/a,b.ts#g", Decision: lab.Decision{Outcome: "no-coverage"}, Diff: "-  {\n+  {}\n"},
		}}
	var b strings.Builder
	annotateGate(&b, res)
	want := "::error file=src/a%2Cb.ts,line=4::oracle gate FAIL: survived mutant CallStatementRemoval in src/a,b.ts#f: no related test fails on it (file score 50%25 (1/2), threshold 80)%0A-  save(x);\n" +
		"::error file=src/a%2Cb.ts,line=9::oracle gate FAIL: no-coverage mutant BlockStatement in src/a,b.ts#g: no related test runs this code (file score 50%25 (1/2), threshold 80)%0A-  {%0A+  {}\n"
	if b.String() != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	res.Verdict = gate.PASS
	if annotateGate(&b, res); b.Len() != 0 {
		t.Errorf("PASS annotated: %q", b.String())
	}
	annotateGate(&b, &gate.Result{Verdict: gate.FAIL, Reason: "test/a.test.ts fails on the unmutated code:\nexpected 1"})
	if b.String() != "::error::oracle gate FAIL: test/a.test.ts fails on the unmutated code:%0Aexpected 1\n" {
		t.Errorf("FAIL without survivors: %q", b.String())
	}
}

// TestHitLimitsSaid: gate's and prove's text say how many mutants ran past
// the hit limit, and say nothing when none did.
func TestHitLimitsSaid(t *testing.T) {
	var b strings.Builder
	res := &gate.Result{Verdict: gate.PASS, Score: 100, Detected: 2, Total: 2, Threshold: 70}
	writeGateText(&b, res, false)
	res.Timings.HitLimits = 2
	writeGateText(&b, res, false)
	if got := strings.Count(b.String(), "ran past the hit limit"); got != 1 || !strings.Contains(b.String(), "  2 mutant(s) ran past the hit limit") {
		t.Errorf("gate text:\n%s", b.String())
	}
	b.Reset()
	pr := &prove.Result{Verdict: prove.PASS, Operations: []*prove.OpResult{{ID: "op", Verdict: prove.PASS, Runs: []prove.Run{{Name: "baseline"}, {Name: "m", Operator: "x"}}}}}
	writeProveText(&b, pr, false)
	pr.Timings.HitLimits = 1
	writeProveText(&b, pr, false)
	if got := strings.Count(b.String(), "ran past the hit limit"); got != 1 || !strings.Contains(b.String(), "1 mutant(s) ran past the hit limit") {
		t.Errorf("prove text:\n%s", b.String())
	}
}
