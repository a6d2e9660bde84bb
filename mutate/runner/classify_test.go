package runner

import (
	"strings"
	"testing"
)

// Canned reporter outputs (the shapes observed with vitest 4.1.12) for the facts that need
// no real run. What they mean for a mutant is the lab's (mutate/lab: TestJudgeRun).
func TestReadCanned(t *testing.T) {
	const file = `/sb/src/a.test.ts`
	pass := `{"fullName":"s a","status":"passed","failureMessages":[]}`
	fail := func(msg string) string {
		return `{"fullName":"s b","status":"failed","failureMessages":[` + quote(msg) + `]}`
	}
	rep := func(status, message string, as ...string) []byte {
		return []byte(`{"success":false,"testResults":[{"name":"` + file + `","status":"` + status + `","message":` + quote(message) + `,"assertionResults":[` + strings.Join(as, ",") + `]}]}`)
	}
	phases := func(r Result) string {
		var ps []string
		for _, t := range r.Tests {
			ps = append(ps, string(t.Status)+":"+string(t.Phase))
		}
		return strings.Join(ps, " ")
	}
	cases := []struct {
		name  string
		ev    evidence
		check func(r Result) bool
	}{
		{"no report", evidence{exitCode: 1, output: "boom at /sb/x.ts\nError: config broken in /sb/vitest.config.ts\n"}, func(r Result) bool {
			return r.NoReport && r.Note == "vitest exited with code 1 and wrote no report: Error: config broken in vitest.config.ts"
		}},
		{"no report, a config vitest cannot load", evidence{exitCode: 1, output: "failed to load config from /sb/vitest.config.js\n\n\x1b[31m Startup Error \x1b[39m\nError: config must export or return an object.\n    at loadConfigFromFile (file:///sb/node_modules/vite/dist/node/chunks/node.js:1:1)\n    at async CAC.run (file:///sb/node_modules/vitest/dist/chunks/cac.js:1:1)\n"}, func(r Result) bool {
			return r.NoReport && r.Note == "vitest exited with code 1 and wrote no report: vitest cannot load its config vitest.config.js: Error: config must export or return an object."
		}},
		{"no report, a stack frame last", evidence{exitCode: 1, output: "TypeError: setup exploded\n    at run (file:///sb/setup.ts:1:1)\n    at async CAC.run (file:///sb/cac.js:1:1)\n"}, func(r Result) bool {
			return r.NoReport && r.Note == "vitest exited with code 1 and wrote no report: TypeError: setup exploded"
		}},
		{"garbage report", evidence{report: []byte("{")}, func(r Result) bool { return r.NoReport && strings.Contains(r.Note, "unreadable") }},
		{"no file", evidence{report: []byte(`{"testResults":[]}`)}, func(r Result) bool {
			return r.NoReport && strings.HasPrefix(r.Note, "no test file matched src/a.test.ts")
		}},
		{"load error", evidence{report: rep("failed", "SyntaxError: x in /sb/src/a.test.ts")}, func(r Result) bool {
			return !r.NoReport && len(r.Tests) == 0 && r.FileFailed && r.FileMessage == "SyntaxError: x in src/a.test.ts"
		}},
		{"afterAll failed", evidence{report: rep("failed", "afterAll boom", pass)}, func(r Result) bool {
			return r.FileFailed && r.FileMessage == "afterAll boom" && phases(r) == "passed:" && r.Executed() == 1
		}},
		{"unhandled", evidence{report: rep("passed", "", pass), phases: []byte(`{"tests":[{"name":"s a","state":"pass","phase":""}],"unhandled":["Error: floating"]}`), exitCode: 1}, func(r Result) bool {
			return len(r.Unhandled) == 1 && r.Unhandled[0] == "Error: floating" && r.ExitCode == 1 && !r.FileFailed
		}},
		{"exit code only", evidence{report: rep("passed", "", pass), phases: []byte(`{"tests":[],"unhandled":[]}`), exitCode: 1, output: "x\nlast words\n"}, func(r Result) bool {
			return r.ExitCode == 1 && r.LastLine == "last words" && len(r.Unhandled) == 0 && phases(r) == "passed:"
		}},
		{"teardown only", evidence{report: rep("failed", "", pass, fail("TypeError: x\n    at /sb/src/a.test.ts:9:1")), phases: []byte(`{"tests":[{"name":"s a","phase":""},{"name":"s b","phase":"teardown"}]}`)}, func(r Result) bool {
			return phases(r) == "passed: failed:teardown" && r.Tests[1].Failure == "TypeError: x"
		}},
		{"setup in one, body in other", evidence{report: rep("failed", "", fail("Error: s"), fail("AssertionError: expected 1 to be 2")), phases: []byte(`{"tests":[{"name":"s b","phase":"setup"},{"name":"s b","phase":"body"}]}`)}, func(r Result) bool {
			return phases(r) == "failed:setup failed:body" && r.Tests[1].Failure == "AssertionError: expected 1 to be 2"
		}},
		{"vitest's time-out", evidence{report: rep("failed", "", fail("Error: STACK_TRACE_ERROR")), phases: []byte(`{"tests":[{"name":"s b","phase":"body","timeout":true,"message":"Error: Test timed out in 5000ms."}]}`)}, func(r Result) bool {
			return phases(r) == "failed:body" && r.Tests[0].TimedOut && r.Tests[0].Failure == "Error: Test timed out in 5000ms."
		}},
		{"skipped", evidence{report: rep("passed", "", `{"fullName":"s c","status":"skipped"}`, `{"fullName":"s d","status":"todo"}`)}, func(r Result) bool {
			return phases(r) == "skipped: skipped:" && r.Executed() == 0 && !r.FileFailed
		}},
		// Fallback without the phase report (old vitest): identical non-assertion errors in
		// every test are a setup failure; anything else is a failure in the body.
		{"fallback identical", evidence{report: rep("failed", "", fail("Error: boom\n    at /sb/f.ts:1:1"), fail("Error: boom\n    at /sb/f.ts:1:1"))}, func(r Result) bool {
			return phases(r) == "failed:setup failed:setup"
		}},
		{"fallback assertion", evidence{report: rep("failed", "", fail("AssertionError: expected 1 to be 2\n    at /sb/f.ts:1:1"), fail("AssertionError: expected 1 to be 2\n    at /sb/f.ts:1:1"))}, func(r Result) bool {
			return phases(r) == "failed:body failed:body"
		}},
		{"fallback one test", evidence{report: rep("failed", "", fail("Error: boom"))}, func(r Result) bool {
			return phases(r) == "failed:body" && r.Tests[0].Failure == "Error: boom"
		}},
	}
	for _, c := range cases {
		c.ev.testAbs = []string{file}
		c.ev.rel = "src/a.test.ts"
		c.ev.clean = newCleaner("/sb")
		if got := read(c.ev); !c.check(got) {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestCleanerMessage(t *testing.T) {
	c := newCleaner("/tmp/sb")
	got := c.message("\x1b[31mError: x in file:///tmp/sb/src/a.ts\x1b[0m\n    at f (/tmp/sb/src/a.ts:1:2)")
	if got != "Error: x in src/a.ts" {
		t.Errorf("got %q", got)
	}
	got = c.message("Error: y at /home/u/proj/node_modules/vitest/dist/x.js")
	if got != "Error: y at node_modules/vitest/dist/x.js" {
		t.Errorf("got %q", got)
	}
	if long := c.message(strings.Repeat("é", 400)); len(long) > maxDetail+4 {
		t.Errorf("not capped: %d", len(long))
	}
}
