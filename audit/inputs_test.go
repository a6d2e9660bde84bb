package audit

import (
	"strings"
	"testing"
)

// TestCheckEnable: only the rules off by default can be enabled.
func TestCheckEnable(t *testing.T) {
	if err := CheckEnable([]string{"vacuous-test/no-assertion"}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"vacuous-test/no-assertions", "mock-drift", ""} {
		if err := CheckEnable([]string{bad}); err == nil || !strings.Contains(err.Error(), "vacuous-test/no-assertion") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
