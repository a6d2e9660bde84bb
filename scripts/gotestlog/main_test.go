package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLog: go test's line per package, a failing test's whole output (and
// none of a passing one's), go's own non-JSON words, the packages and tests
// still running (not a parallel test paused until a slot is free), the
// closing count.
func TestLog(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"p/a"}`,
		`{"Action":"run","Package":"p/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"p/a","Test":"TestOK","Output":"noise of a passing test\n"}`,
		`{"Action":"pass","Package":"p/a","Test":"TestOK","Elapsed":0.1}`,
		`{"Action":"run","Package":"p/a","Test":"TestBad"}`,
		`{"Action":"run","Package":"p/a","Test":"TestBad/row"}`,
		`{"Action":"output","Package":"p/a","Test":"TestBad/row","Output":"    a_test.go:9: got 1, want 2\n"}`,
		`{"Action":"fail","Package":"p/a","Test":"TestBad/row","Elapsed":0.2}`,
		`{"Action":"fail","Package":"p/a","Test":"TestBad","Elapsed":0.2}`,
		`{"Action":"run","Package":"p/b","Test":"TestSlow"}`,
		// Parallel tests: one waiting for a slot is not running.
		`{"Action":"run","Package":"p/b","Test":"TestWaits"}`,
		`{"Action":"pause","Package":"p/b","Test":"TestWaits"}`,
		`{"Action":"run","Package":"p/b","Test":"TestRuns"}`,
		`{"Action":"pause","Package":"p/b","Test":"TestRuns"}`,
		`{"Action":"cont","Package":"p/b","Test":"TestRuns"}`,
		`{"Action":"run","Package":"github.com/oracle-ts/oracle/p/d","Test":"TestViewer"}`,
		`{"Action":"output","Package":"github.com/oracle-ts/oracle/p/d","Test":"TestViewer","Output":"=== RUN   TestViewer\n"}`,
		`{"Action":"output","Package":"github.com/oracle-ts/oracle/p/d","Test":"TestViewer","Output":"    viewer_test.go:31: chromium is not installed: ORACLE_CHROMIUM=1 bash scripts/test installs it\n"}`,
		`{"Action":"output","Package":"github.com/oracle-ts/oracle/p/d","Test":"TestViewer","Output":"--- SKIP: TestViewer (0.00s)\n"}`,
		`{"Action":"skip","Package":"github.com/oracle-ts/oracle/p/d","Test":"TestViewer","Elapsed":0}`,
		`{"Action":"run","Package":"p/d","Test":"TestMute"}`,
		`{"Action":"skip","Package":"p/d","Test":"TestMute","Elapsed":0}`,
		`{"Action":"pass","Package":"github.com/oracle-ts/oracle/p/d","Elapsed":0.1}`,
		`{"Action":"pass","Package":"p/d","Elapsed":0.1}`,
		`# p/c`,
		`{"Action":"output","Package":"p/a","Output":"FAIL\tp/a\t0.4s\n"}`,
		`{"Action":"fail","Package":"p/a","Elapsed":0.4}`,
	}, "\n") + "\n"
	var b strings.Builder
	s := newState(&b)
	s.read(strings.NewReader(in))
	got := b.String()
	for _, want := range []string{"--- FAIL: p/a.TestBad/row (0.20s)\n    a_test.go:9: got 1, want 2\n", "# p/c\n", "FAIL\tp/a\t0.4s\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "noise of a passing test") {
		t.Errorf("a passing test's output:\n%s", got)
	}
	if r := s.runningText(); r != "p/b (TestRuns, TestSlow)" {
		t.Errorf("running: %q", r)
	}
	if s.passed != 1 || s.failed != 1 || s.skipped != 2 || !s.pkgFailed {
		t.Errorf("counts: %d passed, %d failed, %d skipped, package failed %v", s.passed, s.failed, s.skipped, s.pkgFailed)
	}
	// The closing lines: the count, then each skipped test and why.
	b.Reset()
	s.summary()
	want := "tests: 1 passed, 1 failed, 2 skipped\n" +
		"   failed p/a.TestBad\n" +
		"   skipped p/d.TestMute\n" +
		"   skipped p/d.TestViewer: chromium is not installed: ORACLE_CHROMIUM=1 bash scripts/test installs it\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestRecorded: gotestlog on go test -json's own output, recorded with go
// 1.26 (testdata/*.json, from packages written to hang or exit): a package
// that hits go test's -timeout is said with go's panic (the tests it was
// running), and the closing count names the package and each of those tests
// and counts them as failed; a test whose package's process exited (os.Exit
// in a test) never ends, and is counted as failed too.
func TestRecorded(t *testing.T) {
	for _, tc := range []struct {
		file  string
		count string   // the closing count's first line
		fails []string // its "failed" lines
		said  []string // in what it prints before
	}{
		{"timeout-subtest.json", "tests: 1 passed, 1 failed, 0 skipped",
			[]string{"   failed example.com/to/p.TestHangs: timed out (go test -timeout 2s; running TestHangs (2s), TestHangs/row (2s))"},
			[]string{"panic: test timed out after 2s\n\trunning tests:\n\t\tTestHangs (2s)\n", "FAIL\texample.com/to/p\t2.005s\n",
				"--- TIMEOUT: example.com/to/p hit go test's -timeout (2s) while running TestHangs (2s), TestHangs/row (2s)\n"}},
		{"timeout-parallel.json", "tests: 1 passed, 2 failed, 0 skipped",
			[]string{"   failed example.com/to/q.TestA: timed out (go test -timeout 2s; running TestA (2s))",
				"   failed example.com/to/q.TestB: timed out (go test -timeout 2s; running TestB (2s))"},
			[]string{"--- TIMEOUT: example.com/to/q hit go test's -timeout (2s) while running TestA (2s), TestB (2s)\n"}},
		{"exit.json", "tests: 0 passed, 1 failed, 0 skipped",
			[]string{"   failed example.com/to/x.TestExits: never ended (the package's process exited)"},
			[]string{"FAIL\texample.com/to/x\t0.003s\n", "--- FAIL: example.com/to/x.TestExits (never ended: the package's process exited)\n=== RUN   TestExits\n"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			s := newState(&b)
			s.read(strings.NewReader(string(in)))
			said := b.String()
			for _, w := range tc.said {
				if !strings.Contains(said, w) {
					t.Errorf("does not say %q:\n%s", w, said)
				}
			}
			if !s.pkgFailed {
				t.Error("the package is not failed")
			}
			if r := s.runningText(); r != "nothing (building)" {
				t.Errorf("still running after the package's end: %s", r)
			}
			b.Reset()
			s.summary()
			want := tc.count + "\n" + strings.Join(tc.fails, "\n") + "\n"
			if b.String() != want {
				t.Errorf("closing count:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}
