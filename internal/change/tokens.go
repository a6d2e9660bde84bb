package change

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oracle-ts/oracle/analyzer"
)

// Span is a byte range [Start, End) of a file's new version; Start == End
// is a point where the change deleted code and wrote none.
type Span struct{ Start, End int }

// Tokens is the code a change wrote, per repo-relative file: the spans of
// its new version's changed tokens, a run of consecutive changed tokens as
// one span (the comments and whitespace between them included), in order.
// Comments, whitespace and type syntax are not tokens: a change of those
// alone has no span. A file absent from Tokens is not measured (a --files
// list: all of it counts); one with no span has no code changed.
type Tokens map[string][]Span

// Any says whether some file has a changed code token.
func (t Tokens) Any() bool {
	for _, spans := range t {
		if len(spans) > 0 {
			return true
		}
	}
	return false
}

// CodeTokens reads the change's code tokens (a token diff of each
// TypeScript file of ch, base against head, with git's rename detection: a
// pure `git mv` changes nothing). Files that are not TypeScript are left
// out.
func CodeTokens(root string, o *Origin, ch Change) (Tokens, error) {
	t, _, err := CodeChange(root, o, ch)
	return t, err
}

// Bases are the base revisions of the changed TypeScript files that have
// one, by repo-relative path of their new version.
type Bases map[string]*Base

// Base is a file's base revision and its hunks, where the change replaced
// code, in order.
type Base struct {
	Src   []byte
	Hunks []Hunk
	// Refactors say what the change did that changes no behaviour and
	// whose tokens are therefore not changed: "function f moved", "total
	// renamed sum" (refactor.go).
	Refactors []string
	// Renames are the locals renamed (Refactors'): what a revert restoring
	// the base's code in their scope writes under the head's name.
	Renames []Rename
}

// Rename is a local binding the change renamed consistently: its name in
// the base and in the head, and its scope in the head.
type Rename struct {
	Base, Head string
	Scope      Span
}

// Hunk is one place where the change replaced code: the bytes between two
// kept tokens (or the file's start or end) that hold changed tokens or
// deleted ones, in the new version (Head) and in the base (BaseSpan, in
// Base.Src). Restoring the base's bytes there reverts the hunk: the file's
// tokens in that stretch are the base's again, whitespace and comments
// with them.
type Hunk struct {
	Head, BaseSpan Span
	// Wrote: the hunk holds changed tokens; Deleted: base tokens deleted
	// (a hunk that only deleted is a deletion point, one that only wrote an
	// insertion).
	Wrote, Deleted bool
}

// CodeChange is CodeTokens and the base revisions with their hunks.
func CodeChange(root string, o *Origin, ch Change) (Tokens, Bases, error) {
	diff := []string{"diff", o.Base}
	if !o.Worktree {
		diff = append(diff, o.Head)
	}
	diff = append(diff, "--relative", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--name-status", "-z")
	out, err := git(root, diff...)
	if err != nil {
		return nil, nil, fmt.Errorf("git diff: %v", err)
	}
	renamed := map[string]string{} // new path → old path
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields) && fields[i] != ""; {
		st := fields[i]
		if (strings.HasPrefix(st, "R") || strings.HasPrefix(st, "C")) && i+2 < len(fields) {
			renamed[fields[i+2]] = fields[i+1]
			i += 3
			continue
		}
		i += 2
	}
	var files []revisions
	for _, file := range ch.Files() {
		if _, ok := analyzer.LangFor(file); !ok {
			continue
		}
		head, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			head = nil // deleted: nothing of it is left (what it held may have moved)
		}
		old := file
		if r, ok := renamed[file]; ok {
			old = r
		}
		base, err := git(root, "show", o.Base+":./"+old)
		if err != nil {
			base = nil // a new file: all of it was written
		}
		files = append(files, revisions{path: file, base: base, head: head})
	}
	moves := crossMoves(files)
	t, bases := Tokens{}, Bases{}
	for _, f := range files {
		if f.head == nil {
			continue
		}
		var b *Base
		if t[f.path], b = diffBase(f.path, f.base, f.head, moves[f.path]); b != nil {
			bases[f.path] = b
		}
	}
	return t, bases, nil
}

// token is one code token: its byte range, its text (as the diff
// compares it) and its node in its version's parse.
type token struct {
	start, end int
	text       string
	node       analyzer.Node
}

// codeTokens are src's tokens as the analyzer's tree-sitter parse has
// them, in order: the leaves, without comments and without type syntax
// (annotations, type arguments and parameters, interfaces and type
// aliases, `as T`, `satisfies T`, `x!`, `import type`, `declare`).
func codeTokens(path string, src []byte) []token {
	out, _, _ := parseTokens(path, src)
	return out
}

// parseTokens is codeTokens, the spans of src's named nodes of more than
// one token (what an insertion should cover whole: see slide) and the
// parse.
func parseTokens(path string, src []byte) ([]token, []Span, *analyzer.Syntax) {
	_, syn := analyzer.ParseSyntax(path, src)
	if syn == nil {
		return nil, nil, nil
	}
	var out []token
	var nodes []Span
	syn.Walk(syn.Root(), func(n analyzer.Node) bool {
		k := syn.Kind(n)
		if TypeSyntax(syn, n) {
			return false
		}
		if syn.FirstChild(n) >= 0 && k != "string" && k != "template_string" && k != "regex" {
			if syn.Named(n) {
				nodes = append(nodes, Span{int(syn.Start(n)), int(syn.End(n))})
			}
			return true
		}
		s, e := int(syn.Start(n)), int(syn.End(n))
		if k == "comment" || k == "hash_bang_line" || e <= s || k == ";" || k == "," && trailing(syn, n) {
			return false // formatting: ASI's semicolons, trailing commas
		}
		text := string(src[s:e])
		if k == "string" && len(text) >= 2 {
			text = text[1 : len(text)-1] // 'a' is "a"
		}
		out = append(out, token{s, e, text, n})
		return false
	})
	return out, nodes, syn
}

// TypeSyntax reports whether n is type syntax, erased when TypeScript
// compiles: nothing in it runs.
func TypeSyntax(syn *analyzer.Syntax, n analyzer.Node) bool {
	k := syn.Kind(n)
	switch k {
	case "type_annotation", "type_arguments", "type_parameters", "type_alias_declaration", "interface_declaration",
		"type_identifier", "nested_type_identifier", "type_predicate", "type_predicate_annotation", "type_query", "index_type_query",
		"lookup_type", "asserts", "asserts_annotation", "opting_type_annotation", "omitting_type_annotation", "ambient_declaration",
		"accessibility_modifier", "override_modifier", "function_signature", "method_signature", "abstract_method_signature", "index_signature":
		return true
	case "as", "satisfies":
		p := syn.Parent(n)
		return !syn.Named(n) && (syn.Kind(p) == "as_expression" || syn.Kind(p) == "satisfies_expression")
	case "!":
		return !syn.Named(n) && syn.Kind(syn.Parent(n)) == "non_null_expression"
	case "?":
		return !syn.Named(n) && (syn.Kind(syn.Parent(n)) == "optional_parameter" || syn.Kind(syn.Parent(n)) == "public_field_definition")
	case "readonly", "abstract", "declare":
		return !syn.Named(n)
	case "import_statement", "export_statement":
		// import type { A } from "x"; export type { A }; export interface P {}
		if d := syn.Child(n, "declaration"); d >= 0 && TypeSyntax(syn, d) {
			return true
		}
		c := syn.FirstChild(n)
		if c >= 0 {
			c = syn.Next(c)
		}
		return c >= 0 && syn.Kind(c) == "type"
	}
	return strings.HasSuffix(k, "_type") && syn.Named(n)
}

// trailing reports whether the comma n closes its list: `[a, b,]`.
func trailing(syn *analyzer.Syntax, n analyzer.Node) bool {
	next := syn.Next(n)
	for next >= 0 && syn.Kind(next) == "comment" {
		next = syn.Next(next)
	}
	if next < 0 {
		return true
	}
	switch syn.Kind(next) {
	case "}", "]", ")", ">":
		return true
	}
	return false
}

// Diff is the token diff of one file: the spans of head's code tokens that
// base does not have in the same order (a longest common subsequence of
// the two token lists, Myers's algorithm), and a point where base's tokens
// were deleted with none written in their place. A nil base is a new
// file: every token is new.
func Diff(path string, base, head []byte) []Span {
	out, _, _, _ := diff2(path, base, head, nil)
	return out
}

// DiffBase is Diff and the file's base revision with its hunks (nil for a
// new file).
func DiffBase(path string, base, head []byte) ([]Span, *Base) {
	return diffBase(path, base, head, nil)
}

// diffBase is DiffBase with the file's part of the moves across files (x;
// nil: none).
func diffBase(path string, base, head []byte, x *crossMarks) ([]Span, *Base) {
	out, hunks, refactors, renames := diff2(path, base, head, x)
	if base == nil {
		return out, nil
	}
	return out, &Base{Src: base, Hunks: hunks, Refactors: refactors, Renames: renames}
}

// diff2 is Diff, the hunks (nil for a new file) and what the change
// refactored (refactor.go): the functions it moved within the file and
// the locals it renamed, whose tokens are not changed.
func diff2(path string, base, head []byte, x *crossMarks) ([]Span, []Hunk, []string, []Rename) {
	h, nodes, hsyn := parseTokens(path, head)
	if base == nil && x == nil {
		if len(h) == 0 {
			return []Span{}, nil, nil, nil
		}
		return []Span{{h[0].start, h[len(h)-1].end}}, nil, nil, nil
	}
	if base == nil {
		base = []byte{} // a new file a function moved to: its other tokens are written
	}
	b, _, bsyn := parseTokens(path, base)
	var hm, bm []bool
	var refactors []string
	var rn []Rename
	if hsyn != nil && bsyn != nil {
		hm, bm, refactors = moved(hsyn, bsyn, h, b)
	}
	if x != nil && hsyn != nil && bsyn != nil { // moved to or from another file
		hm, bm = markSpans(h, hm, x.head), markSpans(b, bm, x.base)
		if r := renameTokens(hsyn, bsyn, h, b, x.renames); r != nil {
			h = r
		}
		refactors = append(refactors, x.what...)
	}
	hf, hIdx := without(h, hm)
	bf, _ := without(b, bm)
	changedF, deletedBeforeF, deleted := diffTokens(bf, hf)
	if hsyn != nil && bsyn != nil {
		if r, what, found := renames(hsyn, bsyn, hf, bf, changedF, deleted); r != nil {
			hf, refactors, rn = r, append(refactors, what...), found
			changedF, deletedBeforeF, deleted = diffTokens(bf, hf)
		}
	}
	slide(hf, changedF, nodes)
	hunks := cutMoved(hunksOf(bf, hf, changedF, deleted, len(base), len(head)), h, hm, b, bm)
	// Back to every token of head: a moved one is kept.
	changed, deletedBefore := make([]bool, len(h)), make([]bool, len(h)+1)
	for i, x := range hIdx {
		changed[x], deletedBefore[x] = changedF[i], deletedBeforeF[i]
	}
	deletedBefore[len(h)] = deletedBeforeF[len(hf)]
	return changedSpans(h, changed, deletedBefore), hunks, refactors, rn
}

// changedSpans are the spans of the runs of h's changed tokens and the
// points where base tokens were deleted with none written.
func changedSpans(h []token, changed, deletedBefore []bool) []Span {
	out := []Span{}
	for i := 0; i < len(h); i++ {
		if deletedBefore[i] && !changed[i] && (i == 0 || !changed[i-1]) {
			p := h[i].start
			if i > 0 {
				p = h[i-1].end
			}
			out = append(out, Span{p, p})
		}
		if !changed[i] {
			continue
		}
		j := i
		for j+1 < len(h) && changed[j+1] {
			j++
		}
		out = append(out, Span{h[i].start, h[j].end})
		i = j
	}
	if deletedBefore[len(h)] && (len(h) == 0 || !changed[len(h)-1]) {
		p := 0
		if len(h) > 0 {
			p = h[len(h)-1].end
		}
		out = append(out, Span{p, p})
	}
	return out
}

// hunksOf pairs the kept tokens of base (b, deleted) and head (h,
// changed), in order (a longest common subsequence: as many of each, the
// same texts), and returns the stretches between two consecutive pairs
// (or an end of the files) that hold a changed or deleted token.
func hunksOf(b, h []token, changed, deleted []bool, nb, nh int) []Hunk {
	var out []Hunk
	pb, ph := -1, -1 // the last kept pair
	i, k := 0, 0
	for {
		for i < len(h) && changed[i] {
			i++
		}
		for k < len(b) && deleted[k] {
			k++
		}
		if i-ph > 1 || k-pb > 1 {
			hd := Span{0, nh}
			bs := Span{0, nb}
			if ph >= 0 {
				hd.Start, bs.Start = h[ph].end, b[pb].end
			}
			if i < len(h) {
				hd.End = h[i].start
			}
			if k < len(b) {
				bs.End = b[k].start
			}
			out = append(out, Hunk{Head: hd, BaseSpan: bs, Wrote: i-ph > 1, Deleted: k-pb > 1})
		}
		if i >= len(h) || k >= len(b) {
			break
		}
		ph, pb = i, k
		i, k = i+1, k+1
	}
	return out
}

// slide moves each run of inserted tokens to where it covers the most
// syntax nodes whole, among the places it may equally stand: a run
// `const X = 1; export` after a kept `export` is the statement `export
// const X = 1;` inserted, and a new `if (x) { a() }` before a kept `}` is
// that statement, not `} if (x) { a()`. First of all, a bracket stays
// with its partner: of two places, the one where fewer of the run's
// closing brackets are new while their opening partner is kept (a new `}`
// after a kept `}` closes the new block, not the kept one around it:
// bench/trial26-27.md finding 7).
func slide(h []token, changed []bool, nodes []Span) {
	partner := partners(h)
	// astray counts the closing brackets of the run [a, b] (the run [i, j]
	// moved there) whose opening partner is kept (an opening bracket is
	// judged by its closing one: a run is placed once, left to right).
	astray := func(a, b, i, j int) int {
		n := 0
		for k := a; k <= b; k++ {
			p := partner[k]
			if p < 0 || p > k {
				continue
			}
			if (p < a || p > b) && (!changed[p] || i <= p && p <= j) {
				n++
			}
		}
		return n
	}
	whole := func(i, j int) int {
		from, to := 0, h[len(h)-1].end+1 // what lies between the run and its neighbours is its
		if i > 0 {
			from = h[i-1].end
		}
		if j+1 < len(h) {
			to = h[j+1].start
		}
		n := 0
		for _, s := range nodes {
			if s.Start >= from && s.End <= to {
				n++
			}
		}
		return n
	}
	for i := 0; i < len(h); i++ {
		if !changed[i] {
			continue
		}
		j := i
		for j+1 < len(h) && changed[j+1] {
			j++
		}
		bi, best, stray := i, whole(i, j), astray(i, j, i, j)
		better := func(a, b int) {
			w, st := whole(a, b), astray(a, b, i, j)
			if st < stray || st == stray && w > best {
				bi, best, stray = a, w, st
			}
		}
		for a, b := i, j; a > 0 && !changed[a-1] && h[a-1].text == h[b].text; {
			a, b = a-1, b-1
			better(a, b)
		}
		for a, b := i, j; b+1 < len(h) && !changed[b+1] && h[b+1].text == h[a].text; {
			a, b = a+1, b+1
			better(a, b)
		}
		if bi != i {
			for k := i; k <= j; k++ {
				changed[k] = false
			}
			for k := bi; k <= bi+j-i; k++ {
				changed[k] = true
			}
		}
		i = max(j, bi+j-i)
	}
}

// partners is, per token of h, the index of the bracket that closes or
// opens with it ((), [], {}), -1 for a token that is no bracket or has no
// partner (code that does not parse).
func partners(h []token) []int {
	out := make([]int, len(h))
	var open []int
	for k, t := range h {
		out[k] = -1
		switch t.text {
		case "(", "[", "{", "${":
			open = append(open, k)
		case ")", "]", "}":
			if n := len(open); n > 0 && closes(h[open[n-1]].text, t.text) {
				out[k], out[open[n-1]] = open[n-1], k
				open = open[:n-1]
			} else {
				open = nil // unbalanced: what is open stays unpaired
			}
		}
	}
	return out
}

func closes(o, c string) bool {
	return o == "(" && c == ")" || o == "[" && c == "]" || (o == "{" || o == "${") && c == "}"
}

// maxEdits bounds the token diff's work: past it, the tokens between the
// common head and tail all count as changed.
const maxEdits = 500

// diffTokens marks head's tokens that are not in a longest common
// subsequence with base's (changed), and, per position 0..len(h), whether
// base tokens were deleted just before head's token there.
func diffTokens(b, h []token) (changed []bool, deletedBefore []bool, deleted []bool) {
	changed = make([]bool, len(h))
	deletedBefore = make([]bool, len(h)+1)
	deleted = make([]bool, len(b))
	pre := 0
	for pre < len(b) && pre < len(h) && b[pre].text == h[pre].text {
		pre++
	}
	suf := 0
	for suf < len(b)-pre && suf < len(h)-pre && b[len(b)-1-suf].text == h[len(h)-1-suf].text {
		suf++
	}
	bm, hm := b[pre:len(b)-suf], h[pre:len(h)-suf]
	n, m := len(bm), len(hm)
	if n == 0 && m == 0 {
		return
	}
	if n == 0 || m == 0 {
		for i := range hm {
			changed[pre+i] = true
		}
		for i := range bm {
			deleted[pre+i] = true
		}
		if n > 0 {
			deletedBefore[pre] = true
		}
		return
	}
	// Myers's O(ND) with the trace kept to walk the edit script back.
	max := n + m
	if max > 2*maxEdits {
		max = 2 * maxEdits
	}
	off := max
	v := make([]int, 2*max+2)
	var trace [][]int
	found := -1
	for d := 0; d <= max && found < 0; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: a head token inserted
			} else {
				x = v[off+k-1] + 1 // right: a base token deleted
			}
			y := x - k
			for x < n && y < m && bm[x].text == hm[y].text {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		for i := range hm {
			changed[pre+i] = true
		}
		for i := range bm {
			deleted[pre+i] = true
		}
		deletedBefore[pre] = true
		return
	}
	trace = append(trace, v)
	x, y := n, m
	for d := found; d > 0; d-- {
		pv := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && pv[off+k-1] < pv[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := pv[off+pk]
		py := px - pk
		for x > px && y > py { // the diagonal: common tokens
			x--
			y--
		}
		if x == px { // down: head token py inserted
			changed[pre+py] = true
		} else { // right: base token px deleted before head token y
			deletedBefore[pre+y] = true
			deleted[pre+px] = true
		}
		x, y = px, py
	}
	return
}

// Lines are the lines (1-based, inclusive ranges, in order) that hold the
// spans of file, whose new version is src.
func (t Tokens) Lines(file string, src []byte) [][2]int {
	spans, ok := t[file]
	if !ok {
		return nil
	}
	line := func(off int) int { return 1 + strings.Count(string(src[:min(off, len(src))]), "\n") }
	out := [][2]int{}
	for _, s := range spans {
		r := [2]int{line(s.Start), line(max(s.Start, s.End-1))}
		if n := len(out); n > 0 && out[n-1][1] >= r[0]-1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Site is a mutant as the token scope judges it: the code it replaces and,
// for a mutant that empties or replaces a whole enclosing construct (a
// block, object or array emptied, a return value replaced, a condition
// forced, a call statement removed), that construct's own tokens: its
// braces, its `if`, its `return`, its callee and parentheses.
type Site struct {
	Replaced Span
	Own      []Span // nil: not a construct
	// Inner, when set, is the part of Replaced that is the construct's own
	// code (a statement's condition without the statement's parentheses):
	// every token of it changed makes the construct the change's too (`if
	// (a)` → `if (b === 1)`: the condition is new, the `if` and its
	// parentheses kept).
	Inner Span
	// Deletion: a construct the change touched by deleting code only
	// (`if (!x)` → `if (x)`): a deletion point strictly inside it, and no
	// token written in it, makes it the change's (a condition: the
	// smallest construct a deletion leaves to mutate).
	Deletion bool
}

// Counts reports whether the mutant at site is on the code the change wrote
// (changed, a file's spans of Tokens): the code it replaces holds a changed
// token (or a deletion point strictly inside it); a construct's mutant only
// when the change wrote the construct: one of its own tokens is changed, or
// every token it replaces is (or every token of its Inner code).
func Counts(site Site, changed []Span) bool {
	if site.Own == nil {
		return overlaps(site.Replaced, changed)
	}
	for _, o := range site.Own {
		if overlaps(o, changed) {
			return true
		}
	}
	for _, c := range changed {
		if c.Start < c.End && c.Start <= site.Replaced.Start && site.Replaced.End <= c.End {
			return true
		}
		if in := site.Inner; in.Start < in.End && c.Start < c.End && c.Start <= in.Start && in.End <= c.End {
			return true
		}
	}
	if site.Deletion {
		deleted := false
		for _, c := range changed {
			switch {
			case c.Start < c.End && c.Start < site.Replaced.End && site.Replaced.Start < c.End:
				return false // code written in it: its own mutants are there
			case c.Start == c.End && site.Replaced.Start < c.Start && c.Start < site.Replaced.End:
				deleted = true
			}
		}
		return deleted
	}
	return false
}

// overlaps reports whether s holds a changed token of changed, or a
// deletion point strictly inside it.
func overlaps(s Span, changed []Span) bool {
	for _, c := range changed {
		if c.Start == c.End {
			if s.Start < c.Start && c.Start < s.End {
				return true
			}
			continue
		}
		if c.Start < s.End && s.Start < c.End {
			return true
		}
	}
	return false
}
