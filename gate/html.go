package gate

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/mutate/lab"
)

// HTML renders the gate's decision as one self-contained page (no script,
// no stylesheet or font from the network): the verdict, the score of each
// file, the survivors (and mutants no test reached) as a list of links to
// each, a legend, and each mutated file's code around what the change wrote
// (the touched functions from their first line, the changed lines and the
// mutants' lines with context; the rest folded, one click away) with the
// lines the change wrote marked (a bar by the line number and a tint), the
// lines where a mutant survived or was not covered marked, and under each
// line its mutants (survivors open, the others collapsed) with their
// operator, diff, the test files that ran it and the test that killed it.
func (res *Result) HTML(root string) []byte {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	res.htmlHead(w)
	if len(res.Mutants) > 0 {
		w("<p class=\"legend\"><span class=\"changed\">a line the change wrote</span><span class=\"survived\">a mutant survived on it</span>" +
			"<span class=\"no-coverage\">no test reached a mutant on it</span>killed mutants are folded under their line; folded code opens with a click</p>\n")
	}
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
	byFile := map[string][]int{} // indexes of res.Mutants
	for i, m := range res.Mutants {
		byFile[m.File] = append(byFile[m.File], i)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		w("<h2 id=\"%s\">%s</h2>\n", html.EscapeString(f), html.EscapeString(f))
		src, err := res.source(root, f)
		if err != nil {
			continue
		}
		res.htmlFile(w, f, src, byFile[f])
	}
	w("</body></html>\n")
	return []byte(b.String())
}

// htmlHead writes the page's head, its verdict and reason, the score of
// each file, and the survivors first: what the next worker strengthens,
// each a link to its place in the code below.
func (res *Result) htmlHead(w func(string, ...any)) {
	w("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>oracle gate %s</title>\n", html.EscapeString(string(res.Verdict)))
	w("<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}pre{font:12px/1.35 ui-monospace,monospace;margin:0}" +
		".src{border:1px solid #ccc;padding:.5em;overflow-x:auto}.ln{color:#999;display:inline-block;width:4em;text-align:right;margin-right:1em}" +
		".changed{background:#eef3ff}.survived{background:#fdd}.no-coverage{background:#ffd}.changed .ln{border-right:4px solid #36c}" +
		".legend span{display:inline-block;padding:0 .5em;margin-right:.8em;border:1px solid #ccc}.legend .changed{border-left:4px solid #36c}" +
		".fold summary{color:#666;font:12px ui-monospace,monospace;margin-left:5em;cursor:pointer}.survivors li{margin:.2em 0}.mutant{margin:0 0 0 5em;font-size:12px}.mutant p{margin:.2em 0}.verdict-PASS{color:#070}.verdict-FAIL{color:#b00}" +
		"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}details{margin:.3em 0}</style></head><body>\n")
	w("<h1 class=\"verdict-%s\">GATE %s", html.EscapeString(string(res.Verdict)), html.EscapeString(string(res.Verdict)))
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
	var open []int
	for i, m := range res.Mutants {
		if m.Open() {
			open = append(open, i)
		}
	}
	if len(open) > 0 {
		w("<h2>Survivors (%d)</h2><ol class=\"survivors\">\n", len(open))
		for _, i := range open {
			m := res.Mutants[i]
			w("<li><a href=\"#mutant-%d\">%s %s:%d:%d %s</a> in %s</li>\n", i+1, html.EscapeString(string(m.Outcome)), html.EscapeString(m.File), m.Line, m.Column,
				html.EscapeString(m.Operator), html.EscapeString(m.Target))
		}
		w("</ol>\n")
	}
}

// htmlFile writes file f's code (src) with its mutants (mine, indexes of
// res.Mutants): each line changed by the change or not, and the mutants on
// it; a line with a survivor is marked by it, else by no-coverage; a run
// of code the change did not touch is folded.
func (res *Result) htmlFile(w func(string, ...any), f string, src []byte, mine []int) {
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
	changed := map[int]bool{}
	for _, r := range res.Changed[f] {
		for l := r[0]; l <= r[1]; l++ {
			changed[l] = true
		}
	}
	if rs, ok := res.Changed[f]; ok && rs == nil { // counted whole
		for l := 1; l <= len(lines); l++ {
			changed[l] = true
		}
	}
	onLine := map[int][]int{}
	for _, i := range mine {
		onLine[res.Mutants[i].Line] = append(onLine[res.Mutants[i].Line], i)
	}
	shown := res.shownLines(f, len(lines), changed, onLine)
	w("<div class=\"src\">")
	for n := 1; n <= len(lines); n++ {
		if !shown[n] {
			to := n
			for to < len(lines) && !shown[to+1] {
				to++
			}
			if to == n {
				w("<details class=\"fold\"><summary>line %d</summary>", n)
			} else {
				w("<details class=\"fold\"><summary>lines %d-%d</summary>", n, to)
			}
			for k := n; k <= to; k++ {
				w("<pre id=\"%s:%d\"><span class=\"ln\">%d</span>%s</pre>", html.EscapeString(f), k, k, html.EscapeString(lines[k-1]))
			}
			w("</details>")
			n = to
			continue
		}
		var cls []string
		if changed[n] {
			cls = append(cls, "changed")
		}
		if o := lineOutcome(res.Mutants, onLine[n]); o != "" {
			cls = append(cls, string(o))
		}
		attr := ""
		if len(cls) > 0 {
			attr = " class=\"" + strings.Join(cls, " ") + "\""
		}
		w("<pre id=\"%s:%d\"%s><span class=\"ln\">%d</span>%s</pre>", html.EscapeString(f), n, attr, n, html.EscapeString(lines[n-1]))
		for _, i := range onLine[n] {
			htmlMutant(w, i, res.Mutants[i])
		}
	}
	w("</div>\n")
}

// htmlMutant writes mutant m (the i-th of the result) under its line: a
// survivor open, the others collapsed, with the test files that ran it and
// the test that killed it.
func htmlMutant(w func(string, ...any), i int, m Mutant) {
	open := ""
	if m.Open() {
		open = " open"
	}
	tests := "no test file reached it"
	if len(m.CoveredBy) > 0 && m.Outcome != lab.NoCoverage {
		tests = "ran against " + strings.Join(m.CoveredBy, ", ")
	}
	switch {
	case m.KilledByTest != "":
		tests += "; killed by " + m.KilledByTest // the file > describe > it
	case m.KilledBy != "":
		tests += "; killed by " + m.KilledBy
	}
	o := html.EscapeString(string(m.Outcome))
	w("<details id=\"mutant-%d\" class=\"mutant %s\"%s><summary>%s %s:%d:%d %s (%s)</summary><p>%s</p><pre>%s</pre></details>",
		i+1, o, open, o, html.EscapeString(m.File), m.Line, m.Column,
		html.EscapeString(m.Operator), html.EscapeString(m.Target), html.EscapeString(tests), html.EscapeString(m.Diff))
}

// htmlContext is how many lines around a changed line or a mutant's the
// page shows unfolded.
const htmlContext = 3

// shownLines are the lines of file (of n) the page shows unfolded: each
// touched function from its first line to its last changed or mutated line,
// and every changed or mutated line, with htmlContext lines around.
func (res *Result) shownLines(file string, n int, changed map[int]bool, onLine map[int][]int) map[int]bool {
	var marks []int
	for l := range changed {
		marks = append(marks, l)
	}
	for l := range onLine {
		marks = append(marks, l)
	}
	shown := map[int]bool{}
	show := func(from, to int) {
		for l := max(1, from); l <= min(n, to); l++ {
			shown[l] = true
		}
	}
	for _, l := range marks {
		show(l-htmlContext, l+htmlContext)
	}
	for _, t := range res.Targets {
		if t.File != file || t.Line == 0 {
			continue
		}
		last := 0
		for _, l := range marks {
			if l >= t.Line && l > last {
				last = l
			}
		}
		if last > 0 {
			show(t.Line-1, last)
		}
	}
	return shown
}

// lineOutcome is the mark of a line from its mutants (indexes of ms):
// survived when one survived, else no-coverage when one was not covered,
// else "".
func lineOutcome(ms []Mutant, on []int) lab.Outcome {
	var mark lab.Outcome
	for _, i := range on {
		switch ms[i].Outcome {
		case lab.Survived:
			return lab.Survived
		case lab.NoCoverage:
			mark = lab.NoCoverage
		}
	}
	return mark
}

// source is file's source as the run read it, or, for a result that does
// not hold it (a merged one), as the checkout at root has it.
func (res *Result) source(root, file string) ([]byte, error) {
	if src, ok := res.sources[file]; ok && src != nil {
		return src, nil
	}
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
}
