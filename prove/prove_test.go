package prove

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobsThatDoNotRun: prove takes plain jobs; one gen skipped, one with
// no oracle and one whose mutants cannot be built are judged as they are,
// without a sandbox or a run, and the staleness of a committed oracle is
// read against what gen writes now.
func TestJobsThatDoNotRun(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "o"), 0o755)
	os.WriteFile(filepath.Join(root, "o", "c.test.ts"), []byte("old"), 0o644)
	jobs := []Job{
		{ID: "a", Function: "src/a.ts#a", Skip: "no fixture stands up src/a.ts"},
		{ID: "b", Function: "src/b.ts#b", NoOracle: "b is a method"},
		{ID: "c", Function: "src/c.ts#c", Oracle: "o/c.test.ts", Content: []byte("new"), File: "src/c.ts", Source: []byte("src"), MutantsErr: errors.New("no guard")},
		{ID: "d", Function: "src/d.ts#d", Oracle: "o/d.test.ts", Content: []byte("new"), File: "src/d.ts", Source: []byte("src"), MutantsErr: errors.New("no guard")},
	}
	res, err := Prove(context.Background(), root, jobs, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		v      Verdict
		a      Attribution
		reason string
		stale  string
	}{
		{SKIP, "", "no fixture stands up src/a.ts", ""},
		{FAIL, Oracle, "no oracle can be generated: b is a method", ""},
		{ERROR, Generator, "cannot build the mutants: no guard", "the committed oracle o/c.test.ts differs"},
		{ERROR, Generator, "cannot build the mutants: no guard", "no oracle is committed at o/d.test.ts"},
	} {
		op := res.Operations[i]
		if op.ID != jobs[i].ID || op.Verdict != tc.v || op.Attribution != tc.a || op.Reason != tc.reason || !strings.HasPrefix(op.Stale, tc.stale) || (tc.stale == "") != (op.Stale == "") {
			t.Errorf("%s: %s [%s] %q stale %q, want %s [%s] %q stale %q...", op.ID, op.Verdict, op.Attribution, op.Reason, op.Stale, tc.v, tc.a, tc.reason, tc.stale)
		}
		if len(op.Runs) != 0 {
			t.Errorf("%s ran: %+v", op.ID, op.Runs)
		}
	}
	if res.Verdict != ERROR {
		t.Errorf("overall %s, want ERROR", res.Verdict)
	}
	// The report has the function's file of the jobs that got that far.
	if ops := res.ReportOperations(); len(ops) != 2 || ops[0].File != "src/c.ts" || ops[0].Source != "src" {
		t.Errorf("report operations %+v", ops)
	}
}
