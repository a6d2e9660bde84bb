package gate

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// HTML renders the gate's decision as one self-contained page (no script,
// no stylesheet or font from the network): the verdict, the score of each
// file, and each mutated file's source with the lines the change wrote
// marked (a bar by the line number), the lines where a mutant survived or
// was not covered marked, and under each line its mutants (survivors open,
// the others collapsed) with their operator, diff and the test files that
// ran and killed them.
func (res *Result) HTML(root string) []byte {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>oracle gate %s</title>\n", html.EscapeString(res.Verdict))
	w("<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}pre{font:12px/1.35 ui-monospace,monospace;margin:0}" +
		".src{border:1px solid #ccc;padding:.5em;overflow-x:auto}.ln{color:#999;display:inline-block;width:4em;text-align:right;margin-right:1em}" +
		".survived{background:#fdd}.no-coverage{background:#ffd}.changed .ln{border-right:3px solid #36c}.mutant{margin:0 0 0 5em;font-size:12px}.mutant p{margin:.2em 0}.verdict-PASS{color:#070}.verdict-FAIL{color:#b00}" +
		"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}details{margin:.3em 0}</style></head><body>\n")
	w("<h1 class=\"verdict-%s\">GATE %s", html.EscapeString(res.Verdict), html.EscapeString(res.Verdict))
	if res.Total > 0 {
		sc, th := Figures(res.Score, res.Threshold) // as compared: never "FAIL 74% ... threshold 74"
		scope := res.ScopeText()
		if scope != "" {
			scope = " " + scope
		}
		w(" %s%% (%d/%d)%s, threshold %s", sc, res.Detected, res.Total, html.EscapeString(scope), th)
	}
	w("</h1>\n")
	if res.Reason != "" {
		w("<p>%s</p>\n", html.EscapeString(res.Reason))
	}
	w("<table><tr><th>file</th><th>score</th><th>detected</th><th>mutants</th><th>errors</th></tr>\n")
	for _, f := range res.Files {
		sc, _ := Figures(f.Score, res.Threshold)
		w("<tr><td><a href=\"#%s\">%s</a></td><td>%s%%</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			html.EscapeString(f.File), html.EscapeString(f.File), sc, f.Detected, f.Total, f.Errors)
	}
	w("</table>\n")
	var skipped []Target
	for _, t := range res.Targets {
		if t.Skipped != "" {
			skipped = append(skipped, t)
		}
	}
	if len(skipped) > 0 {
		w("<h2>Skipped</h2><ul>\n")
		for _, t := range skipped {
			w("<li>%s: %s</li>\n", html.EscapeString(t.ID), html.EscapeString(t.Skipped))
		}
		w("</ul>\n")
	}
	byFile := map[string][]Mutant{}
	for _, m := range res.Mutants {
		byFile[m.File] = append(byFile[m.File], m)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		ms := byFile[f]
		w("<h2 id=\"%s\">%s</h2>\n", html.EscapeString(f), html.EscapeString(f))
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		// Each line: changed by the change or not, and the mutants on it;
		// a line with a survivor is marked by it, else by no-coverage.
		changed := map[int]bool{}
		for _, r := range res.Changed[f] {
			for l := r[0]; l <= r[1]; l++ {
				changed[l] = true
			}
		}
		onLine := map[int][]Mutant{}
		for _, m := range ms {
			onLine[m.Line] = append(onLine[m.Line], m)
		}
		w("<div class=\"src\">")
		for i, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
			n := i + 1
			var cls []string
			if changed[n] {
				cls = append(cls, "changed")
			}
			if o := lineOutcome(onLine[n]); o != "" {
				cls = append(cls, o)
			}
			attr := ""
			if len(cls) > 0 {
				attr = " class=\"" + strings.Join(cls, " ") + "\""
			}
			w("<pre id=\"%s:%d\"%s><span class=\"ln\">%d</span>%s</pre>", html.EscapeString(f), n, attr, n, html.EscapeString(line))
			for _, m := range onLine[n] {
				open := ""
				if m.Outcome == "survived" || m.Outcome == "no-coverage" {
					open = " open"
				}
				tests := "no test file reached it"
				if len(m.CoveredBy) > 0 {
					tests = "ran against " + strings.Join(m.CoveredBy, ", ")
				}
				switch {
				case m.KilledByTest != "":
					tests += "; killed by " + m.KilledByTest // the file > describe > it
				case m.KilledBy != "":
					tests += "; killed by " + m.KilledBy
				}
				w("<details class=\"mutant %s\"%s><summary>%s %s:%d:%d %s (%s)</summary><p>%s</p><pre>%s</pre></details>",
					html.EscapeString(m.Outcome), open, html.EscapeString(m.Outcome), html.EscapeString(m.File), m.Line, m.Column,
					html.EscapeString(m.Operator), html.EscapeString(m.Target), html.EscapeString(tests), html.EscapeString(m.Diff))
			}
		}
		w("</div>\n")
	}
	w("</body></html>\n")
	return []byte(b.String())
}

// lineOutcome is the mark of a line from its mutants: "survived" when one
// survived, else "no-coverage" when one was not covered, else "".
func lineOutcome(ms []Mutant) string {
	mark := ""
	for _, m := range ms {
		switch m.Outcome {
		case "survived":
			return "survived"
		case "no-coverage":
			mark = "no-coverage"
		}
	}
	return mark
}
