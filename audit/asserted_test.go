package audit

import (
	"strings"
	"testing"
)

// TestExpectMarkerOfOldTypeScript: the expect marker the mock-swap run appends to a test
// file uses no logical assignment (`??=`, TypeScript 4.0), which ts-jest with an older
// TypeScript fails to parse even under @ts-nocheck (runner.TestMarkersOfOldTypeScript).
func TestExpectMarkerOfOldTypeScript(t *testing.T) {
	for _, op := range []string{"??=", "||=", "&&="} {
		if strings.Contains(expectMarker, op) {
			t.Errorf("expectMarker writes %s", op)
		}
	}
}
