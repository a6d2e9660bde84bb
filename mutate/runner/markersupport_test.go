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

// TestMarkerSupportKnown: what the config probe's node said of itself
// (KnowMarkerSupport) is the check's answer for that binary: it is not
// started to ask again, and an old node's answer names its version. A
// binary already checked keeps its own answer; no version, nothing known.
func TestMarkerSupportKnown(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fake := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho \"$@\" >> "+calls+"\nprintf v20.0.0\nexit 3\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	known, old, checked, unknown := fake("known"), fake("old"), fake("checked"), fake("unknown")
	if err := checkMarkerSupport(context.Background(), checked); err == nil {
		t.Fatal("the fake node has no getBuiltinModule")
	}
	knowMarkerSupport("v22.3.0", true, known, checked)
	knowMarkerSupport("v18.20.0", false, old)
	knowMarkerSupport("", true, unknown)
	if err := checkMarkerSupport(context.Background(), known); err != nil {
		t.Errorf("a node known to have getBuiltinModule: %v", err)
	}
	if err := checkMarkerSupport(context.Background(), old); err == nil || !strings.Contains(err.Error(), "node v18.20.0 lacks") {
		t.Errorf("a node known to lack it: %v", err)
	}
	if err := checkMarkerSupport(context.Background(), checked); err == nil {
		t.Errorf("the answer of a node already asked was replaced")
	}
	if err := checkMarkerSupport(context.Background(), unknown); err == nil {
		t.Errorf("no version: the node must be asked (the fake says it lacks it)")
	}
	b, _ := os.ReadFile(calls)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("node started %d times (want 2: the one checked before, the one nobody answered for):\n%s", n, b)
	}
}
