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
// file, and each file's source with the lines where a mutant survived or
// was not covered marked, each such mutant with its operator and diff.
func (res *Result) HTML(root string) []byte {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>oracle gate %s</title>\n", html.EscapeString(res.Verdict))
	w("<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}pre{font:12px/1.35 ui-monospace,monospace;margin:0}" +
		".src{border:1px solid #ccc;padding:.5em;overflow-x:auto}.ln{color:#999;display:inline-block;width:4em;text-align:right;margin-right:1em}" +
		".survived{background:#fdd}.no-coverage{background:#ffd}.verdict-PASS{color:#070}.verdict-FAIL{color:#b00}" +
		"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}details{margin:.3em 0}</style></head><body>\n")
	w("<h1 class=\"verdict-%s\">GATE %s", html.EscapeString(res.Verdict), html.EscapeString(res.Verdict))
	if res.Total > 0 {
		sc, th := Figures(res.Score, res.Threshold) // as compared: never "FAIL 74% ... threshold 74"
		w(" %s%% (%d/%d), threshold %s", sc, res.Detected, res.Total, th)
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
		if m.Outcome == "survived" || m.Outcome == "no-coverage" {
			byFile[m.File] = append(byFile[m.File], m)
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		ms := byFile[f]
		w("<h2 id=\"%s\">%s</h2>\n", html.EscapeString(f), html.EscapeString(f))
		for _, m := range ms {
			w("<details><summary>%s %s:%d:%d %s (%s)</summary><pre>%s</pre></details>\n", html.EscapeString(m.Outcome),
				html.EscapeString(m.File), m.Line, m.Column, html.EscapeString(m.Operator), html.EscapeString(m.Target), html.EscapeString(m.Diff))
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		marked := map[int]string{}
		for _, m := range ms {
			if marked[m.Line] != "survived" {
				marked[m.Line] = m.Outcome
			}
		}
		w("<div class=\"src\">")
		for i, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
			cls := ""
			if o := marked[i+1]; o != "" {
				cls = " class=\"" + o + "\""
			}
			w("<pre%s><span class=\"ln\">%d</span>%s</pre>", cls, i+1, html.EscapeString(line))
		}
		w("</div>\n")
	}
	w("</body></html>\n")
	return []byte(b.String())
}
