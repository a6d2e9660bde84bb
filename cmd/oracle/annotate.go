package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oracle-ts/oracle/gate"
	"github.com/oracle-ts/oracle/mutate/lab"
	"github.com/oracle-ts/oracle/prove"
)

// inGitHubActions reports whether oracle runs as a GitHub Actions step, where
// `::error file=...,line=...::message` lines on stdout become annotations on
// the pull request's files.
func inGitHubActions() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// annotateProve writes one annotation per operation that did not PASS: at the
// run that decided it (a surviving mutant's line) or at the function's file.
func annotateProve(w io.Writer, res *prove.Result) {
	for _, op := range res.Operations {
		if op.Verdict != prove.FAIL && op.Verdict != prove.ERROR {
			continue
		}
		file, _, _ := strings.Cut(op.Function, "#")
		line := 0
		for _, r := range op.Runs {
			if r.File != "" && r.Outcome.Open() {
				file, line = r.File, r.Line
				break
			}
		}
		msg := fmt.Sprintf("oracle prove %s [%s] %s: %s", op.Verdict, op.Attribution, op.ID, op.Reason)
		fmt.Fprintln(w, annotation(file, line, msg))
	}
}

// annotation formats a GitHub Actions error annotation, escaping what the
// workflow command syntax requires.
func annotation(file string, line int, msg string) string {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	s := "::error file=" + prop.Replace(file)
	if line > 0 {
		s += fmt.Sprintf(",line=%d", line)
	}
	return s + "::" + esc.Replace(msg)
}

// annotateGate writes, when the gate FAILs, one annotation per surviving or
// uncovered mutant at its line (the next worker's to-do list, on the pull
// request's diff), with its file's score and the diff that survived; a FAIL
// without survivors (a related test fails on the unmutated code) gets one
// annotation with the reason.
func annotateGate(w io.Writer, res *gate.Result) {
	if res.Verdict != gate.FAIL {
		return
	}
	scores := map[string]gate.FileScore{}
	for _, f := range res.Files {
		scores[f.File] = f
	}
	n := 0
	for _, m := range res.Mutants {
		if !m.Open() {
			continue
		}
		n++
		what := "no related test fails on it"
		if m.Outcome == lab.NoCoverage {
			what = "no related test runs this code"
		}
		fs := scores[m.File]
		msg := fmt.Sprintf("oracle gate FAIL: %s mutant %s in %s: %s (file score %.0f%% (%d/%d), threshold %.0f)\n%s",
			m.Outcome, m.Operator, m.Target, what, fs.Score, fs.Detected, fs.Total, res.Threshold, m.Diff)
		fmt.Fprintln(w, annotation(m.File, m.Line, strings.TrimRight(msg, "\n")))
	}
	if n == 0 {
		esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
		fmt.Fprintln(w, "::error::"+esc.Replace("oracle gate FAIL: "+res.Reason))
	}
}
