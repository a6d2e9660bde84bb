package testsuite

import "testing"

// TestIsTestPath: test code by name or place, and the test and build
// tools' own configs (jotai's vitest.config.mts onConsoleLog was reported
// blind by audit: bench/trial-2.md bug 7); a framework's app.config.ts,
// which the product runs, stays production.
func TestIsTestPath(t *testing.T) {
	for file, want := range map[string]bool{
		"src/a.ts":                  false,
		"src/a.test.ts":             true,
		"test/helpers.ts":           true,
		"types/a.d.ts":              true,
		"vitest.config.mts":         true,
		"vite.config.ts":            true,
		"jest.config.ts":            true,
		"packages/x/tsup.config.ts": true,
		"app.config.ts":             false,
		"src/config.ts":             false,
		"src/vitest.ts":             false,
	} {
		if got := IsTestPath(file); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", file, got, want)
		}
	}
}
