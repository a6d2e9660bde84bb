package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oracle-ts/oracle/mutate"
)

// inGitHubActions reports whether oracle runs as a GitHub Actions step, where
// `::error file=...,line=...::message` lines on stdout become annotations on
// the pull request's files.
func inGitHubActions() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// annotateProve writes one annotation per operation that did not PASS: at the
// run that decided it (a surviving mutant's line) or at the function's file.
func annotateProve(w io.Writer, res *mutate.Result) {
	for _, op := range res.Operations {
		if op.Verdict != mutate.FAIL && op.Verdict != mutate.ERROR {
			continue
		}
		file, _, _ := strings.Cut(op.Function, "#")
		line := 0
		for _, r := range op.Runs {
			if r.File != "" && (r.Outcome == mutate.Survived || r.Outcome == mutate.NoCoverage) {
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
