package runner

import (
	"strings"
	"testing"
)

// Canned reporter outputs (the shapes observed with vitest 4.1.12) for the rules that need
// no real run.
func TestClassifyCanned(t *testing.T) {
	const file = `/sb/src/a.test.ts`
	pass := `{"fullName":"s a","status":"passed","failureMessages":[]}`
	fail := func(msg string) string {
		return `{"fullName":"s b","status":"failed","failureMessages":[` + quote(msg) + `]}`
	}
	rep := func(status, message string, as ...string) []byte {
		return []byte(`{"success":false,"testResults":[{"name":"` + file + `","status":"` + status + `","message":` + quote(message) + `,"assertionResults":[` + strings.Join(as, ",") + `]}]}`)
	}
	cases := []struct {
		name   string
		ev     evidence
		want   Status
		detail string
	}{
		{"no report", evidence{exitCode: 1, output: "boom at /sb/x.ts\nError: config broken in /sb/vitest.config.ts\n"}, Error, "vitest exited with code 1 and wrote no report: Error: config broken in vitest.config.ts"},
		{"garbage report", evidence{report: []byte("{")}, Error, "unreadable"},
		{"afterAll failed", evidence{report: rep("failed", "afterAll boom", pass)}, Error, "afterAll boom"},
		{"unhandled", evidence{report: rep("passed", "", pass), phases: []byte(`{"tests":[{"name":"s a","state":"pass","phase":""}],"unhandled":["Error: floating"]}`), exitCode: 1}, Failed, "unhandled error during the run: Error: floating"},
		{"exit code only", evidence{report: rep("passed", "", pass), phases: []byte(`{"tests":[],"unhandled":[]}`), exitCode: 1}, Error, "exited with code 1"},
		{"teardown only", evidence{report: rep("failed", "", pass, fail("TypeError: x\n    at /sb/src/a.test.ts:9:1")), phases: []byte(`{"tests":[{"name":"s a","phase":""},{"name":"s b","phase":"teardown"}]}`)}, Error, "teardown (afterEach) failed in 1 of 2 executed tests: TypeError: x"},
		{"setup in one, body in other", evidence{report: rep("failed", "", fail("Error: s"), fail("AssertionError: expected 1 to be 2")), phases: []byte(`{"tests":[{"name":"s b","phase":"setup"},{"name":"s b","phase":"body"}]}`)}, Failed, "AssertionError: expected 1 to be 2"},
		// Fallback without the phase report (old vitest): identical non-assertion errors in
		// every test are a setup failure; anything else is a failure.
		{"fallback identical", evidence{report: rep("failed", "", fail("Error: boom\n    at /sb/f.ts:1:1"), fail("Error: boom\n    at /sb/f.ts:1:1"))}, Error, "setup (beforeEach) failed"},
		{"fallback assertion", evidence{report: rep("failed", "", fail("AssertionError: expected 1 to be 2\n    at /sb/f.ts:1:1"), fail("AssertionError: expected 1 to be 2\n    at /sb/f.ts:1:1"))}, Failed, "AssertionError"},
		{"fallback one test", evidence{report: rep("failed", "", fail("Error: boom"))}, Failed, "Error: boom"},
	}
	for _, c := range cases {
		c.ev.testAbs = []string{file}
		c.ev.rel = "src/a.test.ts"
		c.ev.clean = newCleaner("/sb")
		got := classify(c.ev)
		if got.Status != c.want || !strings.Contains(got.Detail, c.detail) {
			t.Errorf("%s: got %s %q, want %s containing %q", c.name, got.Status, got.Detail, c.want, c.detail)
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
