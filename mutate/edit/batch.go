package edit

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
)

// Windows checked together (issue 42: 12,000 mutants' windows each passed
// to esbuild alone were 6 of the setup's 9 CPU seconds, most of it
// esbuild's fixed cost per call, its linker's pass over its runtime). The
// windows of a function or class body are written one after another into
// one source, each as it is checked alone (wrappedClean) but for its
// wrapper's name, `__oracle_window_<k>__`; esbuild parses it once. When it
// finds no error, each window alone has none; when it finds one, the
// windows are split at the one the error's line falls in, that one is
// checked alone, and the windows before and after it together again, down
// to windows checked alone. A verdict is therefore always either a window's
// own, alone, or one of a source with no error.
//
// Why no error together means none alone. Each window's text T comes
// between its wrapper's head, which starts with the statement `export {};`,
// and a tail that starts with a line break ("\n} } }\n", "\n}\n"). A window
// is checked with others only when T holds no '`' and no "/*" (a template
// or a block comment, the only tokens of TypeScript and JavaScript that
// span lines; in .tsx and .jsx no '<' either: JSX text and attributes
// span lines), no "__oracle" (the wrapper's names), and none of the words
// `declare`, `namespace`, `module`, `global`. Then a string or regular
// expression open at T's end meets a line break it cannot hold (a string
// continued by '\' meets the next one, after the tail's braces): esbuild
// reports an error; so, with none, the next window's `export` is lexed as
// written. esbuild takes `export {};` only at a module's top level or in a
// `declare` namespace, module or global (which need the excluded words; in
// a namespace it is an error), and `export {` elsewhere (a member or
// property named export) is an error: so with no error each window begins
// at the top level and the one before ended there, its tokens parsed as
// they are alone, up to its last `}`. What follows that `}` (the next
// window's `export`, alone the end of the file) continues nothing, and the
// windows' scopes are their own functions and classes (distinct names,
// which no T mentions): the only thing one window can do to another is add
// an error, which splits them. TestWindowsTogether holds the cases (each
// condition fails one when dropped); a window not meeting the conditions,
// or of a module's top level (its declarations would share one scope), is
// checked alone.

// togetherBytes and togetherCount bound a source of windows checked
// together: a refused window costs one more call on each side of it.
const (
	togetherBytes = 48 << 10
	togetherCount = 192
)

// windowHead is how every wrapper checked together starts: a statement
// esbuild takes only at a module's top level.
const windowHead = "export {};\n"

// pending is one wrapped text waiting for esbuild's verdict: a window of
// the original or of a mutant.
type pending struct {
	wrap     [2]string
	text     []byte
	done, ok bool
}

// wrapped is the text in its wrapper, as it is checked alone.
func (p *pending) wrapped() []byte {
	src := make([]byte, 0, len(p.wrap[0])+len(p.text)+len(p.wrap[1]))
	return append(append(append(src, p.wrap[0]...), p.text...), p.wrap[1]...)
}

// settle asks esbuild alone.
func (p *pending) settle(path string) {
	p.ok, p.done = syntaxcheck.Check(path, p.wrapped()) == nil, true
}

// together says whether p may be checked with others (see above).
func (p *pending) together(path string) bool {
	if !strings.HasPrefix(p.wrap[0], windowHead) || !strings.Contains(p.wrap[0], windowName) || !strings.HasPrefix(p.wrap[1], "\n") ||
		p.wrap == windowWrap["program"] {
		return false
	}
	t := p.text
	if bytes.IndexByte(t, '`') >= 0 || bytes.Contains(t, []byte("/*")) || bytes.Contains(t, []byte("__oracle")) ||
		syntaxcheck.JSX(path) && bytes.IndexByte(t, '<') >= 0 {
		return false
	}
	for _, w := range [...]string{"declare", "namespace", "module", "global"} {
		if bytes.Contains(t, []byte(w)) {
			return false
		}
	}
	return true
}

// windowName is the wrappers' name, numbered when checked together.
const windowName = "__oracle_window__"

// settleAll sets each of ps's verdicts: together where they may be, alone
// where not.
func settleAll(path string, ps []*pending) {
	var group []*pending
	size := 0
	seen := map[*pending]bool{}
	for _, p := range ps {
		if p.done || seen[p] {
			continue
		}
		seen[p] = true
		if !p.together(path) {
			p.settle(path)
			continue
		}
		if len(group) == togetherCount || size+len(p.text) > togetherBytes && len(group) > 0 {
			settleTogether(path, group)
			group, size = nil, 0
		}
		group = append(group, p)
		size += len(p.text)
	}
	settleTogether(path, group)
}

// settleTogether checks ps in one source; on an error, the windows before
// the one it is in together, that one alone, those after together.
func settleTogether(path string, ps []*pending) {
	switch len(ps) {
	case 0:
		return
	case 1:
		ps[0].settle(path)
		return
	}
	var src []byte
	starts := make([]int, len(ps)) // the 1-based line each window's source starts on
	line := 1
	for k, p := range ps {
		starts[k] = line
		head := strings.Replace(p.wrap[0], windowName, fmt.Sprintf("__oracle_window_%d__", k), 1)
		n := len(src)
		src = append(append(append(src, head...), p.text...), p.wrap[1]...)
		line += bytes.Count(src[n:], []byte("\n"))
	}
	at, err := syntaxcheck.CheckLine(path, src)
	if err == nil {
		for _, p := range ps {
			p.ok, p.done = true, true
		}
		return
	}
	if at == 0 { // no line: halves
		settleTogether(path, ps[:len(ps)/2])
		settleTogether(path, ps[len(ps)/2:])
		return
	}
	k := sort.Search(len(ps), func(k int) bool { return starts[k] > at }) - 1
	k = max(k, 0)
	settleTogether(path, ps[:k])
	ps[k].settle(path)
	settleTogether(path, ps[k+1:])
}

// CheckAll returns what Check returns for each of ms, mutants of the
// original: the same verdicts, the windows' esbuild checks shared (a group
// of mutants at a time, so that only their windows' texts are held), a
// mutant's whole source made only when the whole file decides.
func (a Acceptance) CheckAll(ms []Mutant) []error {
	errs := make([]error, len(ms))
	const group = 1024
	for lo := 0; lo < len(ms); lo += group {
		a.checkGroup(ms[lo:min(lo+group, len(ms))], errs[lo:])
	}
	return errs
}

// checkGroup is CheckAll for the mutants ms, their errors in errs.
func (a Acceptance) checkGroup(ms []Mutant, errs []error) {
	type inWindow struct {
		w *window
		p *pending
	}
	at := make([]inWindow, len(ms))
	var ps []*pending
	for i, m := range ms {
		w, text := a.mutantWindow(m)
		if w == nil || !w.clean {
			continue
		}
		p := &pending{wrap: w.wrap, text: text}
		if !analyzer.ParsesClean(a.path, p.wrapped()) {
			continue
		}
		at[i] = inWindow{w, p}
		ps = append(ps, w.orig, p)
	}
	settleAll(a.path, ps)
	for i, m := range ms {
		if iw := at[i]; iw.w != nil && iw.w.orig.ok && iw.p.ok {
			continue
		}
		errs[i] = a.CheckWhole(m.Source())
	}
}

// mutantWindow is windowText(m.Source()) (the text a copy), made from m's
// change without the whole source when it has one.
func (a Acceptance) mutantWindow(m Mutant) (*window, []byte) {
	orig := a.w.orig
	if len(m.changes) != 1 || len(orig) < WindowFloor || len(m.orig) != len(orig) || &m.orig[0] != &orig[0] {
		w, text := a.windowText(m.Source())
		return w, bytes.Clone(text)
	}
	v := changed{orig, m.changes[0]}
	pre, suf := v.commonEnds()
	w := a.windowOf(uint(pre), uint(len(v.orig)-suf))
	if w == nil {
		return nil, nil
	}
	return w, v.slice(int(w.start), int(w.end)+v.len()-len(v.orig))
}

// changed is orig with one change, read without being made.
type changed struct {
	orig []byte
	ch   Change
}

// len is the changed source's length.
func (v changed) len() int { return len(v.orig) - int(v.ch.End-v.ch.Start) + len(v.ch.Text) }

// at is the changed source's i-th byte.
func (v changed) at(i int) byte {
	s := int(v.ch.Start)
	switch {
	case i < s:
		return v.orig[i]
	case i < s+len(v.ch.Text):
		return v.ch.Text[i-s]
	}
	return v.orig[i-len(v.ch.Text)+int(v.ch.End-v.ch.Start)]
}

// commonEnds is analyzer.CommonEnds of the original and the changed
// source: what comes before the change and after it is the same.
func (v changed) commonEnds() (pre, suf int) {
	n := min(len(v.orig), v.len())
	for pre = min(int(v.ch.Start), n); pre < n && v.at(pre) == v.orig[pre]; pre++ {
	}
	m, end := n-pre, v.len()
	for suf = min(len(v.orig)-int(v.ch.End), m); suf < m && v.at(end-1-suf) == v.orig[len(v.orig)-1-suf]; suf++ {
	}
	return pre, suf
}

// slice is the changed source's bytes [lo, hi), a copy.
func (v changed) slice(lo, hi int) []byte {
	out := make([]byte, 0, hi-lo)
	s, t := int(v.ch.Start), v.ch.Text
	if lo < s {
		out = append(out, v.orig[lo:min(hi, s)]...)
	}
	if a, b := max(lo, s), min(hi, s+len(t)); a < b {
		out = append(out, t[a-s:b-s]...)
	}
	d := int(v.ch.End) - s - len(t) // the changed source's i is the original's i+d after the change
	if a := max(lo, s+len(t)); a < hi {
		out = append(out, v.orig[a+d:hi+d]...)
	}
	return out
}
