package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkerSupportOneProcess: the check asks the node binary once (one
// process gives the version and the answer), names the version when the
// node lacks process.getBuiltinModule, and remembers the answer per binary.
func TestMarkerSupportOneProcess(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fake := func(name, version string, code int) string {
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\necho \"$@\" >> " + calls + "\nprintf '%s' " + version + "\nexit " + string(rune('0'+code)) + "\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, ok := fake("old-node", "v18.20.0", 3), fake("new-node", "v22.3.0", 0)
	for i := 0; i < 2; i++ {
		if err := checkMarkerSupport(context.Background(), ok); err != nil {
			t.Errorf("a node with getBuiltinModule: %v", err)
		}
		err := checkMarkerSupport(context.Background(), old)
		if err == nil || !strings.Contains(err.Error(), "node v18.20.0 lacks process.getBuiltinModule") {
			t.Errorf("an old node: %v", err)
		}
	}
	b, _ := os.ReadFile(calls)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("node was started %d times for two binaries asked twice each, want 2:\n%s", n, b)
	}
}
