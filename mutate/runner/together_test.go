package runner

import "testing"

// TestFirstError: the first line of a test file's error, without colours,
// joined with the next when it only announces it.
func TestFirstError(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Transform failed with 1 error:\n\n\x1b[31m[TSCONFIG_ERROR] \x1b[0mFailed to load tsconfig '../lib': Tsconfig not found\n", "Transform failed with 1 error: [TSCONFIG_ERROR] Failed to load tsconfig '../lib': Tsconfig not found"},
		{"boom at load\n    at test/a.test.ts:3:7", "boom at load"},
		{"", "it failed to load, with no message"},
	} {
		if got := FirstError(tc.in); got != tc.want {
			t.Errorf("FirstError(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRunError: the error a failed vitest run's output names first.
func TestRunError(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"JSON report written to /x.json\n\n\x1b[31m⎯⎯ Unhandled Error ⎯⎯\x1b[39m\n\x1b[31m\x1b[1mError\x1b[22m: the database is not reachable\x1b[39m\n ❯ setup test/global-setup.ts:2:9\n", "Error: the database is not reachable"},
		{"TypeError: x is not a function\nError: later", "TypeError: x is not a function"},
		{"RUN v4.0.0 /repo\nno tests", ""},
	} {
		if got := RunError(tc.in); got != tc.want {
			t.Errorf("RunError(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
