package edit

import (
	"sort"

	"github.com/oracle-ts/oracle/analyzer"
	"github.com/oracle-ts/oracle/internal/syntaxcheck"
)

// Acceptance in a window (issue 42: a 1500-line function's 12,000 mutants
// were each parsed whole, twice: tree-sitter and esbuild, quadratic in the
// change, minutes before the first run). In a file of at least WindowFloor
// bytes, a mutant whose change lies within one statement (or class member)
// is first checked on that statement alone, in a wrapper that gives it the
// most permissive context (a module, an async generator function, a loop:
// `await`, `yield`, `return`, `break` and `continue` are all valid there);
// only when the original statement passes both parsers so wrapped. A
// window can only accept: a mutant it does not accept is checked on the
// whole file, which decides. The wrapper is looser than the real context
// only for tokens a mutation operator never writes (an operator replaces
// operators, literals and conditions, or removes code: it writes no
// `await`, `yield`, `return`, `break` or `continue` that was not there), so
// a mutant accepted in its window is accepted whole; a revert, which puts
// back any code of the base, is checked whole (CheckWhole).

// WindowFloor is the size of a file from which mutants are checked in a
// window: below it the whole file is cheap to parse.
const WindowFloor = 8 << 10

// windowWrap are the texts around a statement of a function body, of a
// class body, and of a module.
var windowWrap = map[string][2]string{
	"statement_block": {"export {};\nasync function* __oracle_window__() { for (;;) { switch (0) { default:\n", "\n} } }\n"},
	"class_body":      {"export {};\nclass __oracle_window__ extends Object {\n", "\n}\n"},
	"program":         {"export {};\n", "\n"},
}

// window is one statement's span in the original and its wrapper; clean
// when the original statement, wrapped, has no tree-sitter error, and orig
// esbuild's verdict on it (asked once, alone or with others: batch.go).
type window struct {
	start, end uint
	wrap       [2]string
	clean      bool
	orig       *pending
}

// ok says whether the original statement passes both parsers wrapped.
func (w *window) ok(path string) bool {
	if !w.clean {
		return false
	}
	if !w.orig.done {
		w.orig.settle(path)
	}
	return w.orig.ok
}

// windowAccepts says whether out, a mutant of the original, is accepted in
// its window (false: not known; the whole file decides).
func (a Acceptance) windowAccepts(out []byte) bool {
	w, text := a.windowText(out)
	if w == nil || !w.ok(a.path) {
		return false
	}
	return wrappedClean(a.path, w.wrap, text)
}

// windowText is the window of out, a mutant of the original, and out's
// text in it (nil when it has none: the file is small, or no statement
// holds the change).
func (a Acceptance) windowText(out []byte) (*window, []byte) {
	orig := a.w.orig
	if len(orig) < WindowFloor {
		return nil, nil
	}
	pre, suf := analyzer.CommonEnds(orig, out)
	w := a.windowOf(uint(pre), uint(len(orig)-suf))
	if w == nil {
		return nil, nil
	}
	delta := len(out) - len(orig)
	return w, out[w.start : int(w.end)+delta]
}

// windowOf is the window of the change [start, end) of the original: the
// smallest statement of a function body or module, or member of a class
// body, that holds it; nil when none does.
func (a Acceptance) windowOf(start, end uint) *window {
	if a.w.syn == nil {
		_, a.w.syn = analyzer.ParseSyntax(a.path, a.w.orig)
		if a.w.syn == nil {
			return nil
		}
	}
	syn := a.w.syn
	n := syn.Root()
	for c := a.w.holding(n, start, end); c >= 0; c = a.w.holding(c, start, end) {
		n = c
	}
	for ; n >= 0; n = syn.Parent(n) {
		p := syn.Parent(n)
		if p < 0 {
			return nil // the whole module
		}
		wrap, ok := windowWrap[syn.Kind(p)]
		if !ok || !syn.Named(n) {
			continue
		}
		key := [2]uint{syn.Start(n), syn.End(n)}
		if w, seen := a.w.seen[key]; seen {
			return w
		}
		text := a.w.orig[key[0]:key[1]]
		w := &window{start: key[0], end: key[1], wrap: wrap, orig: &pending{wrap: wrap, text: text}}
		w.clean = analyzer.ParsesClean(a.path, w.orig.wrapped())
		a.w.seen[key] = w
		return w
	}
	return nil
}

// holding is n's first child that holds [start, end), or a negative Node:
// a binary search of its children (a function body's 1,500 statements
// were each mutant's linear scan), when their starts and ends both ascend,
// else the scan.
func (ws *windows) holding(n analyzer.Node, start, end uint) analyzer.Node {
	syn := ws.syn
	ch, ok := ws.kids[n]
	if !ok {
		ch.sorted = true
		for c := syn.FirstChild(n); c >= 0; c = syn.Next(c) {
			if k := len(ch.nodes); k > 0 && (syn.Start(c) < syn.Start(ch.nodes[k-1]) || syn.End(c) < syn.End(ch.nodes[k-1])) {
				ch.sorted = false
			}
			ch.nodes = append(ch.nodes, c)
		}
		ws.kids[n] = ch
	}
	kids := ch.nodes
	if !ch.sorted {
		for _, c := range kids {
			if syn.Start(c) <= start && end <= syn.End(c) {
				return c
			}
		}
		return analyzer.NoNode
	}
	// The first child ending at or after end: those before it end before.
	i := sort.Search(len(kids), func(i int) bool { return syn.End(kids[i]) >= end })
	if i < len(kids) && syn.Start(kids[i]) <= start {
		return kids[i]
	}
	return analyzer.NoNode
}

// children are a node's children in order, and whether their starts and
// ends both ascend.
type children struct {
	nodes  []analyzer.Node
	sorted bool
}

// wrappedClean says whether text, wrapped, parses with neither a
// tree-sitter ERROR or MISSING node nor an esbuild error.
func wrappedClean(path string, wrap [2]string, text []byte) bool {
	p := pending{wrap: wrap, text: text}
	src := p.wrapped()
	return analyzer.ParsesClean(path, src) && syntaxcheck.Check(path, src) == nil
}

// WindowAccepts says whether a accepts out in its window (for tests: Check
// uses it).
func WindowAccepts(a Acceptance, out []byte) bool { return a.windowAccepts(out) }
