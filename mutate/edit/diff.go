package edit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Diff returns a unified diff of before and after (3 lines of context,
// `--- a/<path>` and `+++ b/<path>` headers, `\ No newline at end of file`
// where it applies), or "" when they are equal. Lines are compared with
// their line endings. The line matching is Myers' shortest edit script,
// deterministic.
func Diff(path string, before, after []byte) string {
	if string(before) == string(after) {
		return ""
	}
	// Only the lines between the two sides' common first and last lines,
	// with a hunk's context around them, are split and compared: a mutant of
	// a 1500-line file changes a line or two, and splitting the whole file
	// twice per mutant was most of a large change's diff time.
	from, toA, toB, skipped := diffWindow(before, after, diffContext)
	return diffText(path, splitLines(string(before[from:toA])), splitLines(string(after[from:toB])), skipped)
}

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// diffWindow returns the byte range of before ([from, toA)) and of after
// ([from, toB)) that Diff compares, and how many lines come before from:
// the lines both sides share at their start and end are left out but for
// context lines next to the first and last difference.
func diffWindow(before, after []byte, context int) (from, toA, toB, skipped int) {
	p, q := analyzer.CommonEnds(before, after)
	// The lines wholly within the common prefix (each with its "\n"): all
	// but the last context of them are left out. The window starts after
	// the (context+1)th last "\n" of the prefix, when it has that many.
	x := p
	for range context + 1 {
		if x = bytes.LastIndexByte(before[:x], '\n'); x < 0 {
			break
		}
	}
	if x >= 0 {
		from = x + 1
		skipped = bytes.Count(before[:from], []byte{'\n'})
	}
	// The common suffix, not overlapping the prefix on either side, and
	// the lines wholly within it: all but the first context of them are
	// left out. The window ends at the start of the (context+1)th.
	end, pos := len(before), len(before)-q
	shift := len(after) - len(before)
	// The first line start within it, a line start on both sides (a byte
	// suffix can begin inside a line of one side: "a\n" ends "aaa\n").
	if !lineStart(before, pos) || !lineStart(after, pos+shift) {
		pos = nextLine(before, pos)
	}
	for range context {
		pos = nextLine(before, pos)
	}
	if pos < len(before) {
		end = pos
	}
	return from, end, end + shift, skipped
}

// nextLine is where the line of buf after the one at pos starts, or
// len(buf) when there is none.
func nextLine(buf []byte, pos int) int {
	if k := bytes.IndexByte(buf[pos:], '\n'); k >= 0 {
		return pos + k + 1
	}
	return len(buf)
}

// lineStart: a line of buf starts at i.
func lineStart(buf []byte, i int) bool {
	return i == 0 || buf[i-1] == '\n'
}

// diffText renders the unified diff of lines a and b, which start after
// skipped lines both sides share.
func diffText(path string, a, b []string, skipped int) string {
	ops := diffLines(a, b)
	const context = diffContext
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before the first change to context lines
		// after the last change that is within 2*context of the next.
		start := max(i-context, 0)
		for start < i && ops[start].kind != ' ' {
			start++
		}
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(end+1+context, len(ops))
		var aStart, bStart, aLen, bLen int
		aStart, bStart = ops[start].a+skipped, ops[start].b+skipped
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, o := range ops[start:stop] {
			var line string
			if o.kind == '+' {
				line = b[o.b]
			} else {
				line = a[o.a]
			}
			out.WriteByte(o.kind)
			if strings.HasSuffix(line, "\n") {
				out.WriteString(line)
			} else {
				out.WriteString(line + "\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange renders a hunk's range: start is the 0-based index of its first
// line (or of the line before it when empty).
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each "\n".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one line of an edit script: ' ' kept, '-' deleted, '+' inserted;
// a and b are the line's index in each side (for '+', a is the index of the
// next line of a; for '-', b likewise).
type op struct {
	kind byte
	a, b int
}

// diffLines returns the edit script from a to b: common prefix and suffix,
// and Myers' algorithm in between.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		ops = append(ops, op{o.kind, o.a + pre, o.b + pre})
	}
	for i := suf; i > 0; i-- {
		ops = append(ops, op{' ', len(a) - i, len(b) - i})
	}
	return ops
}

// myers computes a shortest edit script (deletions before insertions where
// both are possible).
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d]: v[off-d-1 .. off+d+1] before round d
	var dEnd int
search:
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				dEnd = d
				break search
			}
		}
	}
	var rev []op
	x, y := n, m
	for d := dEnd; d >= 0; d-- {
		tv := trace[d]
		at := func(k int) int { return tv[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		if d == 0 {
			px, py = 0, 0
		}
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{' ', x, y})
		}
		if d > 0 {
			if x == px {
				y--
				rev = append(rev, op{'+', x, y})
			} else {
				x--
				rev = append(rev, op{'-', x, y})
			}
		}
		x, y = px, py
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
