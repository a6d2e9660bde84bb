// Command gotestlog reads `go test -json` on standard input and prints what
// a person watching CI needs: go test's own line per finished package
// (`ok  	pkg	12.3s`, `FAIL	pkg`), the whole output of every failing test,
// a line every 30 s naming the packages and tests still running, and a
// closing count of tests with each failed test, each package that failed
// without a failed test, and each skipped test and why (what it needs: a
// browser, an install). A package that hits go test's -timeout (its panic
// "test timed out after …" lists the tests running) is said at once with
// that panic, and the closing count names it and the tests it was running,
// each counted as failed. It exits 1 when a test or a package failed.
// scripts/test pipes go test into it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// state is what has been read so far.
type state struct {
	mu                      sync.Mutex
	out                     io.Writer
	started                 time.Time
	running                 map[string]map[string]bool // package → tests running
	output                  map[string][]string        // package/test → its output lines
	passed, failed, skipped int
	skips                   []string // "pkg.Test: why", one per skipped top-level test
	fails                   []string // "pkg.Test", one per failed top-level test; "pkg: why" for a package that failed otherwise
	pkgFailed               bool
	timeouts                map[string]*timeout // package → its -timeout panic, while the package runs
	testFailed              map[string]bool     // packages with a failed test
}

// timeout is a package's "panic: test timed out after …": what go test
// printed from there on, and the tests it says were running.
type timeout struct {
	after   string   // "45m0s"
	running []string // "TestA (44m59s)", as listed; subtests too
	listing bool     // reading the "running tests:" list
	lines   []string
}

const timeoutPanic = "panic: test timed out after "

func main() {
	s := newState(os.Stdout)
	s.started = time.Now()
	done := make(chan struct{})
	go s.tick(done, 30*time.Second)
	s.read(os.Stdin)
	close(done)
	s.summary()
	if s.failed > 0 || s.pkgFailed {
		os.Exit(1)
	}
}

func newState(out io.Writer) *state {
	return &state{out: out, running: map[string]map[string]bool{}, output: map[string][]string{},
		timeouts: map[string]*timeout{}, testFailed: map[string]bool{}}
}

// short is a package's path without the module's.
func short(pkg string) string { return strings.TrimPrefix(pkg, "github.com/oracle-ts/oracle/") }

// summary is the closing count, each failed test (a test running when its
// package timed out, so marked), each package that failed without a failed
// test, and each skipped test with its reason.
func (s *state) summary() {
	fmt.Fprintf(s.out, "tests: %d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped)
	for _, k := range s.fails {
		fmt.Fprintf(s.out, "   failed %s\n", k)
	}
	slices.Sort(s.skips)
	for _, k := range s.skips {
		fmt.Fprintf(s.out, "   skipped %s\n", k)
	}
}

// skipReason is the reason a skipped test gave (t.Skip's message: the
// last "file_test.go:N: ..." line of its output), "" when it gave none.
func skipReason(lines []string) string {
	why := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if file, msg, ok := strings.Cut(t, ": "); ok && strings.Contains(file, "_test.go:") {
			why = msg
		}
	}
	return why
}

// tick says every interval what still runs.
func (s *state) tick(done <-chan struct{}, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			s.mu.Lock()
			fmt.Fprintf(s.out, "   ... %s: still running %s\n", time.Since(s.started).Round(time.Second), s.runningText())
			s.mu.Unlock()
		}
	}
}

func (s *state) runningText() string {
	var pkgs []string
	for p, tests := range s.running {
		var ts []string
		for t := range tests {
			if !strings.Contains(t, "/") {
				ts = append(ts, t)
			}
		}
		slices.Sort(ts)
		if len(ts) > 0 {
			p += " (" + strings.Join(ts, ", ") + ")"
		}
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	if len(pkgs) == 0 {
		return "nothing (building)"
	}
	return strings.Join(pkgs, "; ")
}

func (s *state) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			s.mu.Lock()
			fmt.Fprintln(s.out, string(line)) // not an event: go's own words (a build error)
			s.mu.Unlock()
			continue
		}
		s.mu.Lock()
		s.event(e)
		s.mu.Unlock()
	}
}

func (s *state) event(e event) {
	key := e.Package + "/" + e.Test
	switch e.Action {
	case "start":
		s.running[e.Package] = map[string]bool{}
	case "run":
		if s.running[e.Package] == nil {
			s.running[e.Package] = map[string]bool{}
		}
		s.running[e.Package][e.Test] = true
	case "pause": // a parallel test waiting for a slot (t.Parallel): not running
		delete(s.running[e.Package], e.Test)
	case "cont":
		if s.running[e.Package] == nil {
			s.running[e.Package] = map[string]bool{}
		}
		s.running[e.Package][e.Test] = true
	case "build-output": // a compile error: said at once
		fmt.Fprint(s.out, e.Output)
	case "output":
		s.watchTimeout(e)
		if e.Test == "" {
			if strings.HasPrefix(e.Output, "ok  \t") || strings.HasPrefix(e.Output, "FAIL\t") || strings.HasPrefix(e.Output, "?   \t") {
				fmt.Fprint(s.out, e.Output) // go test's line for the package
				return
			}
		}
		s.output[key] = append(s.output[key], e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			unended := s.running[e.Package]
			delete(s.running, e.Package)
			to := s.timeouts[e.Package]
			delete(s.timeouts, e.Package)
			if e.Action == "fail" {
				s.pkgFailed = true
				for _, l := range s.output[key] { // the package's own output: a panic, a build error
					fmt.Fprint(s.out, l)
				}
				switch {
				case to != nil:
					s.timedOut(e.Package, to)
				case s.unended(e.Package, unended) > 0:
				case !s.testFailed[e.Package]:
					s.fails = append(s.fails, short(e.Package)+": the package failed, no test did (its output above)")
				}
			}
			for k := range s.output { // tests that never ended (a time-out, a crash)
				if strings.HasPrefix(k, e.Package+"/") {
					delete(s.output, k)
				}
			}
			delete(s.testFailed, e.Package)
			return
		}
		delete(s.running[e.Package], e.Test)
		top := !strings.Contains(e.Test, "/")
		switch {
		case e.Action == "fail":
			s.testFailed[e.Package] = true
			if top {
				s.failed++
				s.fails = append(s.fails, short(e.Package)+"."+e.Test)
			}
			fmt.Fprintf(s.out, "--- FAIL: %s.%s (%.2fs)\n", e.Package, e.Test, e.Elapsed)
			for _, l := range s.output[key] {
				fmt.Fprint(s.out, l)
			}
		case top && e.Action == "pass":
			s.passed++
		case top && e.Action == "skip":
			s.skipped++
			k := short(e.Package) + "." + e.Test
			if why := skipReason(s.output[key]); why != "" {
				k += ": " + why
			}
			s.skips = append(s.skips, k)
		}
		delete(s.output, key)
	}
}

// watchTimeout follows a package's -timeout panic in its output (go test
// gives it to the test that was running last, or to the package): the
// panic, the list of running tests, the goroutines.
func (s *state) watchTimeout(e event) {
	to := s.timeouts[e.Package]
	if after, ok := strings.CutPrefix(e.Output, timeoutPanic); ok && to == nil {
		to = &timeout{after: strings.TrimSpace(after)}
		s.timeouts[e.Package] = to
	}
	if to == nil {
		return
	}
	to.lines = append(to.lines, e.Output)
	switch {
	case strings.TrimSpace(e.Output) == "running tests:" && to.running == nil:
		to.listing = true
	case to.listing && strings.HasPrefix(e.Output, "\t\t"):
		to.running = append(to.running, strings.TrimSpace(e.Output))
	default:
		to.listing = false
	}
}

// timedOut says a package's -timeout at its end: go test's panic (the
// running tests, the goroutines), and counts each top-level test it was
// running as failed (the package itself when it ran none: TestMain).
func (s *state) timedOut(pkg string, to *timeout) {
	for _, l := range to.lines {
		fmt.Fprint(s.out, l)
	}
	fmt.Fprintf(s.out, "--- TIMEOUT: %s hit go test's -timeout (%s) while running %s\n", pkg, to.after, orNone(to.running))
	n := 0
	for _, r := range to.running {
		name, _, _ := strings.Cut(r, " ")
		if strings.Contains(name, "/") {
			continue
		}
		n++
		s.failed++
		s.fails = append(s.fails, fmt.Sprintf("%s.%s: timed out (go test -timeout %s; running %s)", short(pkg), name, to.after, orNone(subtests(to.running, name))))
	}
	if n == 0 {
		s.failed++
		s.fails = append(s.fails, fmt.Sprintf("%s: timed out (go test -timeout %s) in no test (TestMain, init)", short(pkg), to.after))
	}
}

// subtests are the listed tests under top (top itself included).
func subtests(running []string, top string) []string {
	var out []string
	for _, r := range running {
		if r == top || strings.HasPrefix(r, top+" ") || strings.HasPrefix(r, top+"/") {
			out = append(out, r)
		}
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no test"
	}
	return strings.Join(names, ", ")
}

// unended says and counts as failed the top-level tests still running when
// their package failed (its process exited: os.Exit, a crash), with what
// they printed; it returns how many.
func (s *state) unended(pkg string, running map[string]bool) int {
	var names []string
	for t := range running {
		if !strings.Contains(t, "/") {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	for _, t := range names {
		fmt.Fprintf(s.out, "--- FAIL: %s.%s (never ended: the package's process exited)\n", pkg, t)
		for _, l := range s.output[pkg+"/"+t] {
			fmt.Fprint(s.out, l)
		}
		s.failed++
		s.fails = append(s.fails, short(pkg)+"."+t+": never ended (the package's process exited)")
	}
	return len(names)
}
