package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fakeOracle writes a shell script standing in for the CLI.
func fakeOracle(t *testing.T, script string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh")
	}
	bin := filepath.Join(t.TempDir(), "oracle")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestMeasure(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	const doc = `echo '{"schema":"oracle.graph/v1","functions":[]}'`
	cases := []struct {
		name    string
		script  string
		wantInv int // index into graphInvocations; -1: error
	}{
		{"cwd", `[ "$1 $2" = "graph --json" ] && [ $# -eq 2 ] && [ -f package.json ] || exit 2` + "\n" + doc, 0},
		{"root flag", `[ "$3" = "--root" ] && [ -f "$4/package.json" ] || { echo "usage: unknown" >&2; exit 2; }` + "\n" + doc, 1},
		{"broken", `echo "boom" >&2; exit 3`, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var reported int
			results, inv, err := measure(fakeOracle(t, tc.script), repo, 3, func(i int, r run, _ *invocation) {
				if i != reported {
					t.Errorf("report %d, want %d", i, reported)
				}
				reported++
			})
			if tc.wantInv < 0 {
				if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "--root") {
					t.Errorf("err = %v, want one naming each invocation and the stderr", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if inv != &graphInvocations[tc.wantInv] {
				t.Errorf("invocation = %v, want %q", inv, graphInvocations[tc.wantInv].name)
			}
			if len(results) != 3 || reported != 3 {
				t.Fatalf("%d results, %d reported, want 3", len(results), reported)
			}
			for _, r := range results {
				if r.wall <= 0 || r.outBytes != int64(len(`{"schema":"oracle.graph/v1","functions":[]}`)+1) {
					t.Errorf("run = %+v", r)
				}
				if runtime.GOOS == "linux" && r.rssKiB <= 0 {
					t.Errorf("no peak RSS: %+v", r)
				}
			}
		})
	}
}

func TestMedian(t *testing.T) {
	if got := median([]int64{5, 1, 3}); got != 3 {
		t.Errorf("median odd = %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 {
		t.Errorf("median even = %d", got) // (2+3)/2 in integer arithmetic
	}
	xs := []int64{3, 1, 2}
	median(xs)
	if xs[0] != 3 {
		t.Error("median sorted its argument in place")
	}
}
