package prove

import (
	"strings"
	"testing"

	"github.com/oracle-ts/oracle/mutate/edit"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// TestJudge: the verdict and attribution of an operation from its runs.
func TestJudge(t *testing.T) {
	run := func(name string, o lab.Outcome) Run {
		r := Run{Name: name, Decision: lab.Decision{Outcome: o, Detail: "d"}, Baseline: name == "baseline"}
		if name != "baseline" {
			r.Operator = edit.Operator(strings.SplitN(name, ":", 2)[0])
		}
		return r
	}
	ok := run("baseline", lab.Passed)
	cases := []struct {
		name string
		runs []Run
		env  string
		v    Verdict
		a    Attribution
	}{
		{"all killed", []Run{ok, run("red-first", lab.Killed), run("flag-inverted", lab.Timeout)}, "", PASS, ""},
		{"baseline fails an assertion", []Run{run("baseline", lab.Failed)}, "", FAIL, Implementation},
		{"baseline cannot import", []Run{run("baseline", lab.Error)}, "", ERROR, Generator},
		{"baseline times out", []Run{run("baseline", lab.Timeout)}, "", ERROR, Environment},
		{"red-first survives: vacuous", []Run{ok, run("red-first", lab.Survived)}, "", FAIL, Oracle},
		{"a mutant survives", []Run{ok, run("red-first", lab.Killed), run("preserve-removed:x", lab.Survived)}, "", FAIL, Oracle},
		{"the mutated code never ran", []Run{ok, run("red-first", lab.Killed), run("preserve-removed:x", lab.NoCoverage)}, "", FAIL, Oracle},
		{"an error is never a kill", []Run{ok, run("red-first", lab.Killed), run("flag-inverted", lab.Error)}, "", ERROR, Generator},
		{"vitest missing", nil, "vitest is not installed", ERROR, Environment},
		{"the baseline is the run marked so, wherever it is", []Run{run("red-first", lab.Killed), run("baseline", lab.Failed)}, "", FAIL, Implementation},
		{"no baseline", []Run{run("red-first", lab.Killed)}, "", ERROR, Generator},
	}
	for _, tc := range cases {
		v, a, why := Judge(tc.runs, tc.env)
		if v != tc.v || a != tc.a {
			t.Errorf("%s: got %s/%s (%s), want %s/%s", tc.name, v, a, why, tc.v, tc.a)
		}
		if v != PASS && why == "" {
			t.Errorf("%s: %s without a reason", tc.name, v)
		}
	}
}

func TestOverall(t *testing.T) {
	cases := []struct {
		in   []Verdict
		want Verdict
	}{
		{nil, SKIP},
		{[]Verdict{SKIP, PASS}, PASS},
		{[]Verdict{PASS, FAIL, SKIP}, FAIL},
		{[]Verdict{FAIL, ERROR}, ERROR},
	}
	for _, tc := range cases {
		if got := Overall(tc.in); got != tc.want {
			t.Errorf("Overall(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestAttributeLoadError: an oracle that cannot run is the implementation's
// when the user's code does not load, the environment's when the machine
// failed, and oracle's own only when its file is at fault (issue 8 item 12).
func TestAttributeLoadError(t *testing.T) {
	const oracle = "src/server/__oracles__/processItem.skip.oracle.test.ts"
	for _, tc := range []struct {
		detail string
		want   Attribution
	}{
		{"Transform failed with 1 error: src/server/index.ts:12:3: ERROR: Expected \";\" but found \"}\"", Implementation},
		{`Failed to load url ./missing (resolved id: ./missing) in src/server/index.ts. Does the file exist?`, Implementation},
		{"ENOSPC: no space left on device, write", Environment},
		{"Error: Cannot find package 'vitest' imported from /x/y.mjs", Environment},
		{"SyntaxError: node_modules/vitest/dist/index.js: Unexpected token", Environment},
		{`Failed to resolve import "../index" from "` + oracle + `". Does the file exist?`, Generator},
		{oracle + ":41:10: TypeError: arrange.processItem is not a function", Generator},
		{"no test executed", Generator},
		{"setup (beforeEach) failed in 2 of 2 executed tests: TypeError: A dynamic import callback was invoked without --experimental-vm-modules", Environment},
	} {
		if got := AttributeLoadError(tc.detail, oracle); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.detail, got, tc.want)
		}
	}
	if h := LoadErrorHint("TypeError: A dynamic import callback was invoked without --experimental-vm-modules", oracle); !strings.Contains(h, oracle) || !strings.Contains(h, "turn import() into require()") {
		t.Errorf("the hint for jest's untransformed import(): %q", h)
	}
	if h := LoadErrorHint("no test executed", oracle); h != "" {
		t.Errorf("a hint for no test executed: %q", h)
	}
}
