// Command gotestlog reads `go test -json` on standard input and prints what
// a person watching CI needs: go test's own line per finished package
// (`ok  	pkg	12.3s`, `FAIL	pkg`), the whole output of every failing test,
// a line every 30 s naming the packages and tests still running, and a
// closing count of tests with each skipped test and why (what it needs: a
// browser, an install). It exits 1 when a test or a package failed.
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
	pkgFailed               bool
}

func main() {
	s := &state{out: os.Stdout, started: time.Now(), running: map[string]map[string]bool{}, output: map[string][]string{}}
	done := make(chan struct{})
	go s.tick(done, 30*time.Second)
	s.read(os.Stdin)
	close(done)
	s.summary()
	if s.failed > 0 || s.pkgFailed {
		os.Exit(1)
	}
}

// summary is the closing count, and each skipped test with its reason.
func (s *state) summary() {
	fmt.Fprintf(s.out, "tests: %d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped)
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
		if e.Test == "" {
			if strings.HasPrefix(e.Output, "ok  \t") || strings.HasPrefix(e.Output, "FAIL\t") || strings.HasPrefix(e.Output, "?   \t") {
				fmt.Fprint(s.out, e.Output) // go test's line for the package
				return
			}
		}
		s.output[key] = append(s.output[key], e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			delete(s.running, e.Package)
			if e.Action == "fail" {
				s.pkgFailed = true
				for _, l := range s.output[key] { // the package's own output: a panic, a build error
					fmt.Fprint(s.out, l)
				}
			}
			return
		}
		delete(s.running[e.Package], e.Test)
		top := !strings.Contains(e.Test, "/")
		switch {
		case e.Action == "fail":
			if top {
				s.failed++
			}
			fmt.Fprintf(s.out, "--- FAIL: %s.%s (%.2fs)\n", e.Package, e.Test, e.Elapsed)
			for _, l := range s.output[key] {
				fmt.Fprint(s.out, l)
			}
		case top && e.Action == "pass":
			s.passed++
		case top && e.Action == "skip":
			s.skipped++
			k := strings.TrimPrefix(e.Package, "github.com/oracle-ts/oracle/") + "." + e.Test
			if why := skipReason(s.output[key]); why != "" {
				k += ": " + why
			}
			s.skips = append(s.skips, k)
		}
		delete(s.output, key)
	}
}
