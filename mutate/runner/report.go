package runner

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// jsonReport is the part of vitest's JSON reporter output the runner reads (verified with
// vitest 4.1.12; the same Jest-compatible shape since vitest 0.x).
type jsonReport struct {
	NumTotalTests int              `json:"numTotalTests"`
	Success       bool             `json:"success"`
	TestResults   []jsonFileResult `json:"testResults"`
}

type jsonFileResult struct {
	Name             string          `json:"name"`    // absolute path of the test file
	Status           string          `json:"status"`  // "passed" | "failed"
	Message          string          `json:"message"` // load error / beforeAll error, else ""
	AssertionResults []jsonAssertion `json:"assertionResults"`
}

type jsonAssertion struct {
	FullName       string   `json:"fullName"`
	Title          string   `json:"title"`
	AncestorTitles []string `json:"ancestorTitles"`
	Location       *struct {
		Line int `json:"line"`
	} `json:"location"` // with includeTaskLocation (phases.mjs turns it on)
	Status          string   `json:"status"`   // passed | failed | skipped | pending | todo | disabled
	Duration        float64  `json:"duration"` // milliseconds
	FailureMessages []string `json:"failureMessages"`
}

// phaseReport is what phases.mjs writes.
type phaseReport struct {
	Tests []struct {
		Name    string `json:"name"`
		State   string `json:"state"`
		Phase   string `json:"phase"`
		Timeout bool   `json:"timeout"`
		Message string `json:"message"`
		File    string `json:"file"` // absolute ("": an older reporter; then every test is the file's)
	} `json:"tests"`
	Unhandled []string `json:"unhandled"`
	// Files are each test file's own time, in milliseconds (a joint run's share per file).
	Files []struct {
		File string  `json:"file"`
		Ms   float64 `json:"ms"`
	} `json:"files"`
}

// evidence is everything one finished vitest process left behind.
type evidence struct {
	report   []byte // JSON reporter output (nil: not written)
	phases   []byte // phases.mjs output (nil: not written)
	exitCode int
	output   string   // tail of stdout+stderr
	testAbs  []string // the test file's absolute path(s) (as given and symlink-resolved)
	rel      string   // the test file as the user names it (repo-relative)
	clean    *cleaner
	jest     bool // a jest run (JestRunner): its report's file message lists the failed tests too
}

// tool names the test runner that left ev.
func (ev evidence) tool() string {
	if ev.jest {
		return "jest"
	}
	return "vitest"
}

// read turns the evidence of one finished (not timed-out) run into a Result:
// what vitest reported, no judgment.
//
//   - No report, an unparseable one, or none for the test file (it is outside the config's
//     include, or the filter matched nothing): NoReport, and a Note that says which, with
//     the last line of vitest's output.
//   - Otherwise every test with its status, its first failure message and, for a failed
//     test, its phase: from the phase report (phases.mjs), or without one (an old vitest)
//     by the fallback: when at least two tests ran, all failed, all with the same first
//     message line and first stack frame, and not an assertion, they failed in setup;
//     otherwise in their bodies. A test that failed by vitest's own time-out is TimedOut,
//     its failure the time-out's message.
//   - The file's own status and message (a load error, a beforeAll or afterAll that threw),
//     the unhandled errors of the run, the exit code and the last line of the output.
func read(ev evidence) Result {
	res := Result{ExitCode: ev.exitCode, LastLine: ev.clean.line(ev.output, true)}
	if len(ev.report) == 0 {
		res.NoReport = true
		res.Note = ev.tool() + exitNote(ev.exitCode) + " wrote no report" + lastLineNote(ev.clean.cause(ev.output, res.LastLine))
		return res
	}
	var rep jsonReport
	if err := json.Unmarshal(ev.report, &rep); err != nil {
		res.NoReport = true
		res.Note = ev.tool() + "'s JSON report is unreadable: " + ev.clean.line(err.Error(), false)
		return res
	}
	var ph *phaseReport
	if len(ev.phases) > 0 {
		var p phaseReport
		if json.Unmarshal(ev.phases, &p) == nil {
			ph = &p
		}
	}

	file := pickFile(rep.TestResults, ev.testAbs)
	if file == nil {
		res.NoReport = true
		res.Note = fmt.Sprintf("no test file matched %s (is it inside the %s config's include?)", ev.rel, ev.tool())
		return res
	}

	type phaseOf struct {
		phase   Phase
		timeout bool
		message string
	}
	phaseQueue := map[string][]phaseOf{}
	if ph != nil {
		for _, t := range ph.Tests {
			if t.File != "" && !slices.Contains(ev.testAbs, filepath.Clean(t.File)) && filepath.Clean(t.File) != filepath.Clean(file.Name) {
				continue // another file's test (a joint run)
			}
			phaseQueue[t.Name] = append(phaseQueue[t.Name], phaseOf{Phase(t.Phase), t.Timeout, t.Message})
		}
	}
	failed := 0
	for _, a := range file.AssertionResults {
		t := Test{Name: a.FullName, Status: normStatus(a.Status), Title: a.Title, Ancestors: a.AncestorTitles}
		t.Duration = time.Duration(a.Duration * float64(time.Millisecond))
		if a.Location != nil {
			t.Line = a.Location.Line
		}
		var timedOut string
		if q := phaseQueue[a.FullName]; len(q) > 0 {
			t.Phase, phaseQueue[a.FullName] = q[0].phase, q[1:]
			if q[0].timeout {
				t.TimedOut, timedOut = true, q[0].message
			}
		}
		if t.Status == TestFailed {
			failed++
			switch {
			case t.TimedOut:
				// Its stack is vitest's "Error: STACK_TRACE_ERROR": say what happened.
				t.Failure = ev.clean.message(timedOut)
			case len(a.FailureMessages) > 0:
				t.Failure = ev.clean.message(ev.failure(a.FailureMessages[0]))
			}
			// Without the phase report the phase is decided below, by the fallback rule.
			if ph != nil && t.Phase != PhaseSetup && t.Phase != PhaseTeardown {
				t.Phase = PhaseBody
			}
		}
		res.Tests = append(res.Tests, t)
	}
	if ph == nil && failed > 0 {
		// Fallback without the phase report.
		phase := PhaseBody
		if failed == res.Executed() && failed >= 2 && sameSetupError(file.AssertionResults) {
			phase = PhaseSetup
		}
		for i := range res.Tests {
			if res.Tests[i].Status == TestFailed {
				res.Tests[i].Phase = phase
			}
		}
	}
	res.FileFailed, res.FileMessage = ev.fileError(file)
	if ph != nil {
		for _, u := range ph.Unhandled {
			res.Unhandled = append(res.Unhandled, ev.clean.line(u, false))
		}
	}
	return res
}

// fileError is whether the report marked the test file failed and the file's own error
// (cleaned, "" when none). jest's file message repeats every failed test's and marks the
// file failed for them: its own error is what follows "Test suite failed to run".
func (ev evidence) fileError(file *jsonFileResult) (bool, string) {
	m := file.Message
	if ev.jest {
		m = jestFileMessage(m)
		if m == "" {
			return false, ""
		}
		return true, ev.clean.message(m)
	}
	if m == "" {
		return file.Status == "failed", ""
	}
	return file.Status == "failed", ev.clean.message(m)
}

func exitNote(code int) string {
	if code == 0 {
		return ""
	}
	return fmt.Sprintf(" exited with code %d and", code)
}

func lastLineNote(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func normStatus(s string) TestStatus {
	switch s {
	case "passed":
		return TestPassed
	case "failed":
		return TestFailed
	}
	return TestSkipped
}

// pickFile finds the test file's entry: by absolute path, else the only entry.
func pickFile(rs []jsonFileResult, abs []string) *jsonFileResult {
	for i := range rs {
		for _, a := range abs {
			if filepath.Clean(rs[i].Name) == a {
				return &rs[i]
			}
		}
	}
	if len(rs) == 1 {
		return &rs[0]
	}
	return nil
}

var assertionLike = regexp.MustCompile(`^(AssertionError|Error: expect|expected |\[vitest\] expected)|\bexpected\b.*\bto\b`)

// sameSetupError is the fallback for "every test failed in setup": identical first line and
// first stack frame in every failure, and no assertion.
func sameSetupError(as []jsonAssertion) bool {
	key := ""
	for i, a := range as {
		if a.Status != "failed" || len(a.FailureMessages) == 0 {
			continue
		}
		m := stripANSI(a.FailureMessages[0])
		lines := strings.Split(m, "\n")
		first := strings.TrimSpace(lines[0])
		if assertionLike.MatchString(first) {
			return false
		}
		frame := ""
		for _, l := range lines[1:] {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "at ") {
				frame = l
				break
			}
		}
		k := first + "\x00" + frame
		if i > 0 && key != "" && k != key {
			return false
		}
		key = k
	}
	return key != ""
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// cleaner makes messages one-line and machine-independent.
type cleaner struct {
	roots []string // absolute prefixes to drop (sandbox, package dir, their real paths), longest first
	temps []string // absolute prefixes replaced by "$TMP/"
}

var (
	nodeModulesRE = regexp.MustCompile(`(?:file://)?/[^\s'"()\[\]<>:]*?/node_modules/`)
	locationRE    = regexp.MustCompile(`[╭┌]─+\[\s*([^\]\s]+)\s*\]`)
	maxDetail     = 300
)

func (c *cleaner) paths(s string) string {
	if c == nil {
		return s
	}
	for _, r := range c.roots {
		s = strings.ReplaceAll(s, "file://"+r+"/", "")
		s = strings.ReplaceAll(s, r+"/", "")
		s = strings.ReplaceAll(s, r, ".")
	}
	s = nodeModulesRE.ReplaceAllString(s, "node_modules/")
	for _, t := range c.temps {
		s = strings.ReplaceAll(s, t+"/", "$TMP/")
	}
	return s
}

// message: the first meaningful line of an error message (plus the next line when the first
// only introduces it, e.g. "Transform failed with 1 error:"), the source location of a
// compiler diagnostic box when there is one, ANSI stripped, paths cleaned, capped.
func (c *cleaner) message(m string) string {
	m = stripANSI(strings.ReplaceAll(m, "\r\n", "\n"))
	var parts []string
	for _, l := range strings.Split(m, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "at ") && len(parts) > 0 {
			break
		}
		parts = append(parts, l)
		if !strings.HasSuffix(l, ":") || len(parts) >= 3 {
			break
		}
	}
	s := strings.Join(parts, " ")
	if loc := locationRE.FindStringSubmatch(m); loc != nil && !strings.Contains(s, loc[1]) {
		s += " (at " + loc[1] + ")"
	}
	return c.cap(c.paths(s))
}

// line: one line of free text (first or last non-empty one), cleaned.
func (c *cleaner) line(s string, last bool) string {
	s = stripANSI(s)
	ls := strings.Split(s, "\n")
	pick := ""
	for i := range ls {
		j := i
		if last {
			j = len(ls) - 1 - i
		}
		if t := strings.TrimSpace(ls[j]); t != "" && !strings.HasPrefix(t, "JSON report written") {
			pick = t
			break
		}
	}
	return c.cap(c.paths(pick))
}

var (
	failedToLoad = regexp.MustCompile(`failed to load config from (\S+)`)
	errorLine    = regexp.MustCompile(`^\s*(?:[A-Za-z]*Error|Error \[[A-Z_]+\]): .+$`)
)

// cause is why a run wrote no report, from its output: a config vitest
// could not load (its file and error), else the last error line when the
// output ends in a stack frame ("at async CAC.run"), else last (the last
// line).
func (c *cleaner) cause(output, last string) string {
	out := stripANSI(output)
	errAt := func(from string) string {
		ls := strings.Split(from, "\n")
		for _, l := range ls {
			if errorLine.MatchString(l) {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	if m := failedToLoad.FindStringSubmatchIndex(out); m != nil {
		msg := errAt(out[m[1]:])
		if msg == "" {
			msg = "failed to load config"
		}
		return c.cap(c.paths("vitest cannot load its config " + out[m[2]:m[3]] + ": " + msg))
	}
	if strings.HasPrefix(last, "at ") {
		ls := strings.Split(out, "\n")
		for i := len(ls) - 1; i >= 0; i-- {
			if errorLine.MatchString(ls[i]) {
				return c.cap(c.paths(strings.TrimSpace(ls[i])))
			}
		}
	}
	return last
}

func (c *cleaner) cap(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	cut := maxDetail
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
