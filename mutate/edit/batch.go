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

// CheckAll returns what Check returns for each of n mutants of the
// original, source(i) making the i-th (called once, or twice when the
// whole file decides): the same verdicts, the windows' esbuild checks
// shared (a group of mutants at a time, so that only their windows' texts
// are held).
func (a Acceptance) CheckAll(n int, source func(i int) []byte) []error {
	errs := make([]error, n)
	const group = 1024
	for lo := 0; lo < n; lo += group {
		a.checkGroup(lo, min(lo+group, n), source, errs)
	}
	return errs
}

// checkGroup is CheckAll for the mutants [lo, hi).
func (a Acceptance) checkGroup(lo, hi int, source func(i int) []byte, errs []error) {
	type inWindow struct {
		w *window
		p *pending
	}
	at := make([]inWindow, hi-lo)
	var ps []*pending
	for i := lo; i < hi; i++ {
		w, text := a.windowText(source(i))
		if w == nil || !w.clean {
			continue
		}
		p := &pending{wrap: w.wrap, text: bytes.Clone(text)}
		if !analyzer.ParsesClean(a.path, p.wrapped()) {
			continue
		}
		at[i-lo] = inWindow{w, p}
		ps = append(ps, w.orig, p)
	}
	settleAll(a.path, ps)
	for i := lo; i < hi; i++ {
		if iw := at[i-lo]; iw.w != nil && iw.w.orig.ok && iw.p.ok {
			continue
		}
		errs[i] = a.CheckWhole(source(i))
	}
}
